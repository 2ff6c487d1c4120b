#include "lessons/lesson_checks.hpp"

#include <algorithm>
#include <map>

#include "device/occupancy/block_schedule.hpp"
#include "device/trace/time_order.hpp"

namespace coop::lessons {

int line_of(std::string_view source, std::string_view snippet) {
  const std::vector<int> lines = lines_with(source, snippet);
  return lines.empty() ? 0 : lines.front();
}

Status refuse_hazard_on_gpu(const Executor& exec, const std::string& variant,
                            const std::string& what) {
  if (exec.backend() != Backend::Gpu) return {};
  return Status::error(variant + " " + what +
                       " on purpose; it runs only on the emulator, which reports the hazard "
                       "instead of hanging or corrupting data (use --backend emu)");
}

Check hazard_reported(std::string name, const Status& launched,
                      const std::vector<std::string>& fragments) {
  // Each fragment is a piece of the report's text (it may open a parenthesis the report closes
  // later), so each is quoted.
  std::string expected;
  for (const std::string& f : fragments) expected += (expected.empty() ? "'" : ", '") + f + "'";
  if (launched.ok())
    return make_check(std::move(name), "a report naming " + expected,
                      "the launch completed without a report", false);
  std::string missing;
  for (const std::string& f : fragments)
    if (launched.message().find(f) == std::string::npos)
      missing += (missing.empty() ? "" : ", ") + f;
  if (!missing.empty())
    return make_check(std::move(name), "a report naming " + expected,
                      launched.message() + " (missing: " + missing + ")", false);
  // The report's line that says the most of what was expected (a report has one per block).
  std::string best;
  size_t best_hits = 0, start = 0;
  const std::string& m = launched.message();
  while (start < m.size()) {
    size_t end = m.find('\n', start);
    if (end == std::string::npos) end = m.size();
    const std::string line = m.substr(start, end - start);
    size_t hits = 0;
    for (const std::string& f : fragments) hits += line.find(f) != std::string::npos;
    if (hits > best_hits) best_hits = hits, best = line;
    start = end + 1;
  }
  const size_t first = best.find_first_not_of(' ');
  return make_check(std::move(name), "a report naming " + expected,
                    first == std::string::npos ? m : best.substr(first), true);
}

std::string thread_range(size_t first, size_t last) {
  return "threads " + std::to_string(first) + (first == last ? "" : "-" + std::to_string(last));
}

Status require_1d_launch(const LaunchConfig& c, std::string_view lesson) {
  if (c.block.y != 1 || c.block.z != 1 || c.grid.y != 1 || c.grid.z != 1)
    return Status::error(std::string(lesson) + " uses 1D blocks and grids: got block " +
                         c.block.str() + ", grid " + c.grid.str());
  return {};
}

Check nothing_dropped(const std::vector<Trace>& launches) {
  uint64_t dropped = 0;
  for (const Trace& t : launches) dropped += t.dropped();
  return make_check("every event recorded", "0 dropped", std::to_string(dropped) + " dropped",
                    dropped == 0);
}

Check trace_schedule_within(const Trace& trace, int limit) {
  const BlockSchedule s = schedule_from_trace(trace);
  // Past its last block-wide barrier a block's warps may leave one by one, and an SM that is
  // short of warp slots or registers starts its next block with the ones they free, while thread
  // 0 is still to record the finish. So a block counts as resident until its last barrier
  // released it, where it has one before its finish record.
  std::map<uint32_t, uint64_t> released;  // block -> its last barrier's departure
  for (const Event& e : trace.events)
    if (e.kind == EventKind::Barrier && e.group_kind == GroupKind::Block) {
      uint64_t& at = released[e.group_id];
      at = std::max(at, e.b);
    }
  BlockSchedule resident = s;
  for (ScheduledBlock& b : resident.blocks)
    if (auto r = released.find(b.block); !s.modelled && r != released.end()) {
      const double at = s.from_trace_time(r->second);
      if (at >= b.start && at < b.end) b.end = at;
    }
  const std::vector<int> peak = peak_resident_per_sm(resident);
  const int most = peak.empty() ? 0 : *std::max_element(peak.begin(), peak.end());
  size_t backwards = 0;
  for (const ScheduledBlock& b : s.blocks) backwards += b.end < b.start;
  return make_check("the trace's block records show at most " + std::to_string(limit) +
                        " blocks on an SM at once (each until its last barrier released it), "
                        "each finishing after it started",
                    "at most " + std::to_string(limit) + ", 0 backwards",
                    "at most " + std::to_string(most) + " of " + std::to_string(s.blocks.size()) +
                        " blocks, " + std::to_string(backwards) + " backwards",
                    most <= limit && backwards == 0 && !s.blocks.empty());
}

Check time_order_check(const std::vector<Trace>& launches) {
  TimeOrderReport all;
  for (const Trace& t : launches) merge(all, check_time_order(t));
  std::string got = all.summary();
  if (!all.first_early.empty()) got += " (first: " + all.first_early + ")";
  if (!all.first_out_of_order.empty()) got += " (first: " + all.first_out_of_order + ")";
  return make_check(kTimeOrderCheck,
                    "0 early departures and every thread's events in order, in every launch", got,
                    all.ok());
}

}  // namespace coop::lessons
