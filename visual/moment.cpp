#include "visual/moment.hpp"


namespace coop::visual {

std::optional<size_t> moment_cursor(const TimelineModel& model, const MomentSpec& moment,
                                    std::span<const int> lines) {
  const size_t n = model.size();
  if (moment.which == MomentSpec::Which::End) return n;
  const uint32_t bt = model.block_threads();
  auto match = [&](size_t pos) { return moment.matches(model.at(pos), bt, lines); };

  if (moment.which == MomentSpec::Which::Last) {
    for (size_t pos = n; pos-- > 0;)
      if (match(pos)) return pos + 1;
    return std::nullopt;
  }
  // The instant (one timestamp) the moment names: the nth instant holding a matching event.
  const uint32_t wanted = moment.which == MomentSpec::Which::Nth ? moment.nth : 1;
  uint32_t instants = 0;
  size_t found = n;
  bool have_time = false;
  uint64_t time = 0;
  for (size_t pos = 0; pos < n; ++pos) {
    if (!match(pos)) continue;
    if (!have_time || model.at(pos).time != time) {
      have_time = true;
      time = model.at(pos).time;
      if (++instants == wanted) {
        found = pos;
        break;
      }
    }
  }
  if (found == n) return std::nullopt;

  if (moment.which == MomentSpec::Which::Arrived) {
    // The last member of this barrier instance to arrive: then every member is waiting.
    const Event& first = model.at(found);
    const BarrierInstance key = barrier_instance(first, bt);
    size_t last = found;
    for (size_t pos = found + 1; pos < n; ++pos) {
      const Event& e = model.at(pos);
      if (e.kind == first.kind && barrier_instance(e, bt) == key) last = pos;
    }
    return last + 1;
  }
  // Every matching event of the same instant (all lanes of a warp-wide collective).
  size_t last = found;
  for (size_t pos = found + 1; pos < n && model.at(pos).time == time; ++pos)
    if (match(pos)) last = pos;
  return last + 1;
}

}  // namespace coop::visual
