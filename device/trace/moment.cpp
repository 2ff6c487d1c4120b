#include "device/trace/moment.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "device/trace/names.hpp"

namespace coop {
namespace {

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

std::optional<int64_t> number(std::string_view w) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size() || v < 0) return std::nullopt;
  return v;
}

// "2nd", "3rd", "11th" -> 2, 3, 11.
std::optional<uint32_t> ordinal(std::string_view w) {
  if (w.size() < 3) return std::nullopt;
  const std::string_view suffix = w.substr(w.size() - 2);
  if (suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th") return std::nullopt;
  const std::optional<int64_t> n = number(w.substr(0, w.size() - 2));
  if (!n || *n < 1 || *n > 1'000'000) return std::nullopt;
  return uint32_t(*n);
}

bool barrier_kind(EventKind k) { return k == EventKind::Barrier || k == EventKind::BarrierWait; }

}  // namespace

bool MomentSpec::matches(const Event& e, uint32_t block_threads, std::span<const int> lines) const {
  if (e.kind != kind) return false;
  if (group != GroupKind::None && e.group_kind != group) return false;
  if (thread >= 0 && int64_t(e.thread) != thread) return false;
  const uint32_t bt = std::max(1u, block_threads);
  if (block >= 0 && int64_t(e.thread / bt) != block) return false;
  if (warp >= 0 && int64_t(e.thread % bt / 32) != warp) return false;
  if (phase >= 0 && int64_t(e.extra) != phase) return false;
  if (anywhere || lines.empty()) return true;
  return std::find(lines.begin(), lines.end(), int(e.line)) != lines.end();
}

Result<MomentSpec> parse_moment(std::string_view text) {
  const std::vector<std::string_view> w = words_of(text);
  const std::string quoted = "moment '" + std::string(text) + "'";
  MomentSpec m;
  if (w.empty()) return Status::error(quoted + ": empty (write e.g. 'first collective')");
  if (w[0] == "end") {
    if (w.size() > 1)
      return Status::error(quoted + ": 'end' stands alone, found '" + std::string(w[1]) + "'");
    m.which = MomentSpec::Which::End;
    return m;
  }
  if (w[0] == "first") {
    m.which = MomentSpec::Which::First;
  } else if (w[0] == "last") {
    m.which = MomentSpec::Which::Last;
  } else if (w[0] == "arrived") {
    m.which = MomentSpec::Which::Arrived;
  } else if (const std::optional<uint32_t> n = ordinal(w[0])) {
    m.which = *n == 1 ? MomentSpec::Which::First : MomentSpec::Which::Nth;
    m.nth = *n;
  } else {
    return Status::error(quoted + ": '" + std::string(w[0]) +
                         "' is not first, last, arrived, an ordinal (2nd, 3rd, ...) or end");
  }
  if (w.size() < 2) return Status::error(quoted + ": an event kind must follow '" +
                                         std::string(w[0]) + "' (e.g. barrier, collective)");
  const std::optional<EventKind> kind = event_kind_named(w[1]);
  if (!kind || *kind == EventKind::None)
    return Status::error(quoted + ": '" + std::string(w[1]) +
                         "' is not an event kind (group_create, barrier, barrier_arrive, "
                         "barrier_wait, collective, invoke_one, atomic, load, store, copy_issue, "
                         "copy_wait, thread_begin, thread_end, note)");
  m.kind = *kind;
  if (m.which == MomentSpec::Which::Arrived && !barrier_kind(m.kind))
    return Status::error(quoted + ": 'arrived' needs barrier or barrier_wait, not " +
                         std::string(w[1]));
  for (size_t i = 2; i < w.size(); ++i) {
    auto value = [&](std::string_view what) -> Result<int64_t> {
      if (i + 1 >= w.size() || !number(w[i + 1]))
        return Status::error(quoted + ": '" + std::string(what) +
                             "' needs a number after it");
      return *number(w[++i]);
    };
    if (w[i] == "anywhere") {
      m.anywhere = true;
    } else if (w[i] == "in" && i + 1 < w.size() && (w[i + 1] == "block" || w[i + 1] == "warp")) {
      const bool is_block = w[++i] == "block";
      Result<int64_t> v = value(is_block ? "in block" : "in warp");
      if (!v) return v.status();
      (is_block ? m.block : m.warp) = *v;
    } else if (w[i] == "of" && i + 1 < w.size() && w[i + 1] == "thread") {
      ++i;
      Result<int64_t> v = value("of thread");
      if (!v) return v.status();
      m.thread = *v;
    } else if (w[i] == "phase") {
      Result<int64_t> v = value("phase");
      if (!v) return v.status();
      m.phase = *v;
    } else if (w[i] == "group") {
      const std::optional<GroupKind> g =
          i + 1 < w.size() ? group_kind_named(w[i + 1]) : std::nullopt;
      if (!g || *g == GroupKind::None)
        return Status::error(quoted + ": 'group' needs a group kind (block, grid, cluster, tile, "
                                      "coalesced, labeled, binary, stride, warp)");
      m.group = *g;
      ++i;
    } else {
      return Status::error(quoted + ": '" + std::string(w[i]) +
                           "' is not a filter (in block N, in warp N, of thread N, phase N, "
                           "group KIND, anywhere)");
    }
  }
  return m;
}

std::string to_string(const MomentSpec& m) {
  if (m.which == MomentSpec::Which::End) return "end";
  std::string s;
  switch (m.which) {
    case MomentSpec::Which::First: s = "first"; break;
    case MomentSpec::Which::Last: s = "last"; break;
    case MomentSpec::Which::Arrived: s = "arrived"; break;
    case MomentSpec::Which::Nth: {
      const uint32_t n = m.nth;
      const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                           : n % 10 == 1                    ? "st"
                           : n % 10 == 2                    ? "nd"
                           : n % 10 == 3                    ? "rd"
                                                            : "th";
      s = std::to_string(n) + suffix;
      break;
    }
    case MomentSpec::Which::End: break;
  }
  s += " " + std::string(name_of(m.kind));
  if (m.block >= 0) s += " in block " + std::to_string(m.block);
  if (m.warp >= 0) s += " in warp " + std::to_string(m.warp);
  if (m.thread >= 0) s += " of thread " + std::to_string(m.thread);
  if (m.phase >= 0) s += " phase " + std::to_string(m.phase);
  if (m.group != GroupKind::None) s += " group " + std::string(name_of(m.group));
  if (m.anywhere) s += " anywhere";
  return s;
}

}  // namespace coop
