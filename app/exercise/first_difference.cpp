#include "app/exercise/first_difference.hpp"

#include <string>

#include "device/trace/instrumented_flag.hpp"
#include "visual/event_text.hpp"

namespace coop::app {
namespace {

// Each thread's events, as indices into the launch's events, in the order it recorded them.
std::vector<std::vector<size_t>> by_thread(const Trace& t) {
  std::vector<std::vector<size_t>> out(t.header.launch.total_threads());
  for (size_t k = 0; k < t.events.size(); ++k)
    if (t.events[k].thread < out.size()) out[t.events[k].thread].push_back(k);
  return out;
}

// Where an access went, comparable between two runs: a global buffer by its name and index (the
// two programs' allocations lie at different addresses), shared memory by its element index (the
// student may name and lay out shared arrays otherwise).
std::string place(const Event& e, const TraceHeader& h) {
  const std::string name = visual::address_name(e.address, e.flags, h);
  if (!(e.flags & kFlagShared)) return name;
  const size_t bracket = name.find('[');
  return bracket == std::string::npos ? name : "shared" + name.substr(bracket);
}

bool accesses_memory(EventKind k) {
  return k == EventKind::Load || k == EventKind::Store || k == EventKind::Atomic ||
         k == EventKind::CopyIssue;
}

// Whether two events are the same step of a thread's history. Times, sequence numbers and source
// lines are the two programs' own; atomics' old values and invoke_one's choice depend on the
// order the hardware picks; a cuda::barrier's id is a shared-memory offset.
bool same_step(const Event& x, const TraceHeader& hx, const Event& y, const TraceHeader& hy) {
  if (x.kind != y.kind || x.op != y.op || x.group_kind != y.group_kind || x.rank != y.rank ||
      x.group_size != y.group_size)
    return false;
  // An instrumented access's group_id is its instruction's code address, each program's own.
  const bool code_address = x.group_kind == GroupKind::Barrier || (x.flags & kFlagInstrumented);
  if (!code_address && x.group_id != y.group_id) return false;
  const bool free_extra = x.kind == EventKind::InvokeOne || x.kind == EventKind::ThreadBegin ||
                          x.kind == EventKind::ThreadEnd;
  if (!free_extra && x.extra != y.extra) return false;
  switch (x.kind) {
    case EventKind::Collective:
      if (x.b != y.b) return false;
      [[fallthrough]];
    case EventKind::Atomic:
    case EventKind::Store:
    case EventKind::Note:
      if (x.a != y.a) return false;
      break;
    case EventKind::Load:
      if (x.b != y.b) return false;
      break;
    default:
      break;
  }
  return !accesses_memory(x.kind) || place(x, hx) == place(y, hy);
}

std::string kernel_words(const Trace& t) {
  return t.header.kernel + " (grid " + t.header.launch.grid.str() + " x block " +
         t.header.launch.block.str() + ")";
}

CaseResult::FirstDifference in_launch(long launch, const Trace& s, const Trace& r) {
  CaseResult::FirstDifference d;
  d.launch = launch;
  if (s.header.kernel != r.header.kernel || !(s.header.launch == r.header.launch)) {
    d.event = s.events.empty() ? -1 : 0;
    d.what = "launch " + std::to_string(launch) + " is " + kernel_words(s) +
             "; the reference's is " + kernel_words(r);
    return d;
  }
  const auto mine = by_thread(s), theirs = by_thread(r);
  size_t best = SIZE_MAX, best_thread = 0, best_step = 0;
  for (size_t t = 0; t < mine.size(); ++t) {
    size_t k = 0;
    while (k < mine[t].size() && k < theirs[t].size() &&
           same_step(s.events[mine[t][k]], s.header, r.events[theirs[t][k]], r.header))
      ++k;
    if (k == mine[t].size() && k == theirs[t].size()) continue;
    // A thread that stopped short is pointed at its last event.
    const size_t at = k < mine[t].size() ? mine[t][k] : mine[t].empty() ? SIZE_MAX : mine[t].back();
    // The earliest moment first (as playback orders them); of one moment, the lowest thread,
    // since the threads are visited in order.
    if (at != SIZE_MAX && (best == SIZE_MAX || s.events[at].time < s.events[best].time)) {
      best = at;
      best_thread = t;
      best_step = k;
    }
  }
  if (best == SIZE_MAX) {
    d.launch = -1;
    return d;
  }
  const uint64_t block_threads = s.header.launch.block.count();
  d.event = long(best);
  d.thread = long(best_thread);
  d.block = int(best_thread / block_threads);
  const std::string who =
      "thread " + std::to_string(best_thread) + " (block " + std::to_string(d.block) + ")";
  const std::vector<size_t>& ref = theirs[best_thread];
  const std::string instead =
      best_step < ref.size()
          ? "the reference's " + visual::describe_event(r.events[ref[best_step]], r.header)
          : "the reference's had stopped";
  if (best_step >= mine[best_thread].size())
    d.what = who + " stopped after its last event (" +
             visual::describe_event(s.events[best], s.header) + "); " + instead;
  else
    d.what = who + " " + visual::describe_event(s.events[best], s.header) + "; " + instead;
  return d;
}

}  // namespace

CaseResult::FirstDifference first_difference(const std::vector<Trace>& student,
                                             const std::vector<Trace>& reference,
                                             const std::string& stopped) {
  for (size_t l = 0; l < student.size() || l < reference.size(); ++l) {
    CaseResult::FirstDifference d;
    d.launch = long(l);
    if (l >= student.size() && !stopped.empty()) {
      d.launch = -1;
      d.what = "your launch " + std::to_string(l) + " of " + reference[l].header.kernel +
               " did not finish, so the run kept no trace of it (" + stopped +
               "); the reference's launch " + std::to_string(l) + " is " +
               kernel_words(reference[l]);
      return d;
    }
    if (l >= student.size()) {
      d.launch = -1;
      d.what = "your code made " + std::to_string(student.size()) +
               " launches in this case; the reference's launch " + std::to_string(l) + " is " +
               kernel_words(reference[l]);
      return d;
    }
    if (l >= reference.size()) {
      d.event = student[l].events.empty() ? -1 : 0;
      d.what = "launch " + std::to_string(l) + ", " + kernel_words(student[l]) +
               ", is one the reference does not make";
      return d;
    }
    d = in_launch(long(l), student[l], reference[l]);
    if (d.launch >= 0) return d;
  }
  CaseResult::FirstDifference same;
  same.what =
      "every thread recorded the same events as the reference's; the difference is in "
      "what the trace does not record (host code, or memory without --memory)";
  return same;
}

}  // namespace coop::app
