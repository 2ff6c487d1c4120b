#include "device/trace/compare.hpp"

#include <sstream>

#include "device/trace/instrumented_flag.hpp"
#include "device/trace/names.hpp"

namespace coop {
namespace {

// Each thread's events in the order that thread recorded them (sequence order per thread),
// without the ones only one backend records (counted in `left_out`).
std::vector<std::vector<const Event*>> by_thread(const Trace& t, uint64_t& left_out) {
  std::vector<std::vector<const Event*>> out(t.header.launch.total_threads());
  for (const Event& e : t.events) {
    if (e.flags & kFlagInstrumented) {
      ++left_out;
      continue;
    }
    if (e.thread < out.size()) out[e.thread].push_back(&e);
  }
  return out;
}

// Atomic old values, the invoke_one choice and shared-memory addresses are legally free.
std::string difference(const Event& x, const Event& y) {
  std::ostringstream os;
  auto field = [&](const char* name, uint64_t a, uint64_t b) {
    if (a != b && os.tellp() == 0) os << name << " " << a << " vs " << b;
  };
  field("kind", uint64_t(x.kind), uint64_t(y.kind));
  field("op", uint64_t(x.op), uint64_t(y.op));
  field("line", x.line, y.line);
  field("group kind", uint64_t(x.group_kind), uint64_t(y.group_kind));
  // A cuda::barrier's id is its shared-memory offset, which each compiler lays out its own way.
  if (x.group_kind != GroupKind::Barrier) field("group id", x.group_id, y.group_id);
  field("rank", x.rank, y.rank);
  field("group size", x.group_size, y.group_size);
  // Which thread invoke_one picks, and which SM a block is placed on (ThreadBegin/ThreadEnd's
  // extra), are the hardware's choice.
  const bool free_choice = x.kind == EventKind::InvokeOne || x.kind == EventKind::ThreadBegin ||
                           x.kind == EventKind::ThreadEnd;
  if (!free_choice) field("extra", x.extra, y.extra);
  const bool timed = x.kind == EventKind::Barrier || x.kind == EventKind::BarrierWait ||
                     x.kind == EventKind::CopyWait;
  const bool nondeterministic = (x.flags | y.flags) & kFlagNondeterministic;
  // Plain loads and stores may race (the race lessons); their values are not compared.
  if (x.kind == EventKind::Collective || x.kind == EventKind::Atomic || x.kind == EventKind::Note)
    field("input", x.a, y.a);
  if (!timed && !nondeterministic && x.kind != EventKind::Load) field("output", x.b, y.b);
  return os.str();
}

}  // namespace

TraceDiff compare_deterministic(const Trace& a, const Trace& b, size_t max_examples) {
  TraceDiff diff;
  auto note = [&](const std::string& what) {
    ++diff.mismatches;
    if (diff.examples.size() < max_examples) diff.examples.push_back(what);
  };
  if (!(a.header.launch == b.header.launch)) {
    note("the launches differ: grid " + a.header.launch.grid.str() + " block " +
         a.header.launch.block.str() + " vs grid " + b.header.launch.grid.str() + " block " +
         b.header.launch.block.str());
    return diff;
  }
  if (a.dropped() || b.dropped()) note("a trace dropped events; raise the capacity to compare");
  const auto ta = by_thread(a, diff.one_backend_only), tb = by_thread(b, diff.one_backend_only);
  for (size_t t = 0; t < ta.size(); ++t) {
    ++diff.threads_compared;
    if (ta[t].size() != tb[t].size()) {
      note("thread " + std::to_string(t) + " recorded " + std::to_string(ta[t].size()) + " vs " +
           std::to_string(tb[t].size()) + " events");
      continue;
    }
    for (size_t i = 0; i < ta[t].size(); ++i) {
      ++diff.events_compared;
      const std::string d = difference(*ta[t][i], *tb[t][i]);
      if (!d.empty())
        note("thread " + std::to_string(t) + ", event " + std::to_string(i) + " (" +
             std::string(name_of(ta[t][i]->kind)) + " at line " + std::to_string(ta[t][i]->line) +
             "): " + d);
    }
  }
  return diff;
}

}  // namespace coop
