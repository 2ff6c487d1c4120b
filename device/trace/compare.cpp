#include "device/trace/compare.hpp"

#include <array>
#include <functional>
#include <string_view>
#include <utility>

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

// Calls field(name, value) for each field of `e` that every legal run of the launch records alike,
// `nondeterministic` when either trace compared flags the event so. Atomic old values, the
// invoke_one choice and shared-memory addresses are legally free.
template <class Field>
void deterministic_fields(const Event& e, bool nondeterministic, Field&& field) {
  field("kind", uint64_t(e.kind));
  field("op", uint64_t(e.op));
  field("line", e.line);
  field("group kind", uint64_t(e.group_kind));
  // A cuda::barrier's id is its shared-memory offset, which each compiler lays out its own way.
  if (e.group_kind != GroupKind::Barrier) field("group id", e.group_id);
  field("rank", e.rank);
  field("group size", e.group_size);
  // Which thread invoke_one picks, and which SM a block is placed on (ThreadBegin/ThreadEnd's
  // extra), are the hardware's choice.
  const bool free_choice = e.kind == EventKind::InvokeOne || e.kind == EventKind::ThreadBegin ||
                           e.kind == EventKind::ThreadEnd;
  if (!free_choice) field("extra", e.extra);
  const bool timed = e.kind == EventKind::Barrier || e.kind == EventKind::BarrierWait ||
                     e.kind == EventKind::CopyWait;
  // Plain loads and stores may race (the race lessons); their values are not compared.
  if (e.kind == EventKind::Collective || e.kind == EventKind::Atomic || e.kind == EventKind::Note)
    field("input", e.a);
  if (!timed && !nondeterministic && e.kind != EventKind::Load) field("output", e.b);
}

// A deterministic_fields() list, without allocating: compare_deterministic walks millions.
struct Fields {
  std::array<const char*, 12> names{};
  std::array<uint64_t, 12> values{};
  size_t n = 0;
  Fields(const Event& e, bool nondeterministic) {
    deterministic_fields(e, nondeterministic, [this](const char* name, uint64_t v) {
      names[n] = name;
      values[n++] = v;
    });
  }
};

// The first deterministic field on which x and y differ, in words; "" when none does.
std::string difference(const Event& x, const Event& y) {
  const bool nondeterministic = (x.flags | y.flags) & kFlagNondeterministic;
  const Fields a(x, nondeterministic), b(y, nondeterministic);
  for (size_t i = 0; i < a.n && i < b.n; ++i)
    if (a.values[i] != b.values[i])
      return std::string(a.names[i]) + " " + std::to_string(a.values[i]) + " vs " +
             std::to_string(b.values[i]);
  return "";
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

namespace coop {

uint64_t deterministic_digest(const Trace& t, const std::function<std::string(uint32_t)>& line_text) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a, 64 bits
  auto mix = [&h](std::string_view bytes) {
    for (const char c : bytes) h = (h ^ uint8_t(c)) * 1099511628211ull;
  };
  auto number = [&mix](uint64_t v) { mix(std::string_view(reinterpret_cast<const char*>(&v), 8)); };
  mix(t.header.kernel);
  for (const Dim3& d : {t.header.launch.grid, t.header.launch.block}) number(d.count() << 32 | d.x);
  uint64_t left_out = 0;
  for (const auto& events : by_thread(t, left_out)) {
    number(events.size());
    for (const Event* e : events)
      deterministic_fields(*e, e->flags & kFlagNondeterministic,
                           [&](const char* name, uint64_t v) {
                             if (std::string_view(name) == "line")
                               mix(line_text(uint32_t(v)));
                             else
                               number(v);
                           });
  }
  return h;
}

}  // namespace coop
