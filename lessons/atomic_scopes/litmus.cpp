#include "lessons/atomic_scopes/litmus.hpp"

#include <array>
#include <string>
#include <vector>

#include "lessons/atomic_scopes/kernels.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::atomic_scopes {
namespace {

// Both message kernels: data, flag, seen, distance.
using MessageKernel = decltype(Kernels::message_relaxed);

// What a reader saw, indexed by seen = 2 * flag + data.
using Histogram = std::array<uint64_t, 4>;
constexpr int kWeak = 2;  // flag 1, data 0: the message arrived before its data
const char* const kOutcome[4] = {"flag 0 data 0", "flag 0 data 1", "flag 1 data 0",
                                 "flag 1 data 1"};

struct Ordering {
  const char* name;
  const MessageKernel* kernel;
  // The outcomes the C++ / PTX memory model allows (bit i: outcome i). Relaxed allows all four;
  // release/acquire forbids flag 1 with data 0.
  unsigned allowed;
};

std::array<Ordering, 2> orderings() {
  const Kernels& k = kernels();
  return {Ordering{"relaxed", &k.message_relaxed, 0xF},
          Ordering{"release/acquire", &k.message_release_acquire, 0xF & ~(1u << kWeak)}};
}

std::string describe(const Histogram& h) {
  std::string s;
  for (int o = 0; o < 4; ++o)
    s += (o ? ", " : "") + std::string(kOutcome[o]) + ": " + std::to_string(h[o]);
  return s;
}

std::string outcome_set(unsigned bits) {
  std::string s;
  for (int o = 0; o < 4; ++o)
    if (bits & (1u << o)) s += (s.empty() ? "" : ", ") + std::string("(") + kOutcome[o] + ")";
  return s.empty() ? "none" : s;
}

unsigned seen_set(const Histogram& h) {
  unsigned bits = 0;
  for (int o = 0; o < 4; ++o) bits |= h[o] ? 1u << o : 0u;
  return bits;
}

struct Buffers {
  DeviceArray<int> data, flag, seen;
};

Result<Buffers> make_buffers(Executor& exec, size_t pairs) {
  auto data = DeviceArray<int>::create(exec, pairs, "data");
  auto flag = DeviceArray<int>::create(exec, pairs, "flag");
  auto seen = DeviceArray<int>::create(exec, pairs, "seen");
  for (Status s : {data.status(), flag.status(), seen.status()})
    if (!s) return s;
  return Buffers{std::move(*data), std::move(*flag), std::move(*seen)};
}

// One launch of a litmus kernel over fresh memory; adds what the readers saw to `h`. Readers
// that recorded nothing (seen still -1) count as `missing`.
Status one_round(Executor& exec, const Ordering& o, const LaunchConfig& config, int distance,
                 Buffers& b, Histogram& h, uint64_t& missing, Trace* keep) {
  for (DeviceArray<int>* a : {&b.data, &b.flag})
    if (Status s = a->zero(); !s) return s;
  if (Status s = exec.fill(b.seen.get(), 0xff, b.seen.size() * sizeof(int)); !s) return s;
  Trace trace;
  Status launched =
      exec.launch(*o.kernel, config, trace, b.data.get(), b.flag.get(), b.seen.get(), distance);
  if (keep) *keep = std::move(trace);
  if (!launched) return launched;
  auto seen = b.seen.download();
  if (!seen) return seen.status();
  for (int v : *seen) {
    if (v >= 0 && v < 4)
      ++h[size_t(v)];
    else
      ++missing;
  }
  return {};
}

}  // namespace

Status run_litmus(Executor& exec, const RunRequest& req, LessonRun& out, unsigned which) {
  std::vector<Ordering> chosen;
  for (size_t i = 0; i < orderings().size(); ++i)
    if (which & (1u << i)) chosen.push_back(orderings()[i]);
  const int distance = int(req.params.at("distance"));
  const int runs = int(req.params.at("runs"));
  const size_t pairs = req.config.total_threads() / 2;
  auto buffers = make_buffers(exec, pairs);
  if (!buffers) return buffers.status();

  // Traced: one launch per ordering, with the run's schedule.
  for (const Ordering& o : chosen) {
    Histogram h{};
    uint64_t missing = 0;
    Trace trace;
    Status s = one_round(exec, o, req.config, distance, *buffers, h, missing, &trace);
    out.launches.push_back(std::move(trace));
    if (!s) return s;
    const std::string tag = std::string("traced ") + o.name;
    out.checks.push_back(make_check(tag + ": every reader recorded what it saw", "0 missing",
                                    std::to_string(missing) + " missing", missing == 0));
    if (o.allowed != 0xF)
      out.checks.push_back(make_check(tag + ": only outcomes the memory model allows",
                                      outcome_set(o.allowed), outcome_set(seen_set(h)),
                                      (seen_set(h) & ~o.allowed) == 0));
    out.results.emplace_back(tag + ", distance " + std::to_string(distance), describe(h));
  }
  for (const Ordering& o : chosen)
    out.results.emplace_back(std::string("allowed by the model, ") + o.name,
                             outcome_set(o.allowed));

  // Many untraced runs. On the emulator, run r under a seeded schedule runs under the run's seed
  // plus r, as a program's repeats of a launch do; lockstep with seed 0 repeats its one order. A
  // GPU repeats a large grid at several distances (neighbouring lanes, neighbouring warps,
  // neighbouring blocks, far apart).
  const bool gpu = exec.backend() == Backend::Gpu;
  LaunchConfig config = req.config;
  std::vector<int> distances = {distance};
  if (gpu) {
    config.grid = {512, 1, 1};
    config.block = {256, 1, 1};
    distances = {1, 32, 256, int(config.total_threads() / 2)};
  }
  auto wide = gpu ? make_buffers(exec, config.total_threads() / 2) : std::move(buffers);
  if (!wide) return wide.status();
  UntracedScope untraced(exec);
  const uint64_t saved_seed = exec.options().seed;
  const bool seeded = saved_seed != 0 || exec.options().schedule != Schedule::Lockstep;
  for (const Ordering& o : chosen) {
    Histogram all{};
    for (int d : distances) {
      Histogram h{};
      uint64_t missing = 0;
      for (int r = 1; r <= runs; ++r) {
        if (seeded) exec.options().seed = saved_seed + uint64_t(r);
        Status s = one_round(exec, o, config, d, *wide, h, missing, nullptr);
        exec.options().seed = saved_seed;
        if (!s) return s;
      }
      for (int i = 0; i < 4; ++i) all[i] += h[i];
      const std::string where = (gpu ? "GPU, " : "emulator, ") + std::to_string(runs) + " runs";
      out.results.emplace_back(
          std::string(o.name) + ", distance " + std::to_string(d) + " (" + where + ")",
          describe(h));
    }
    // What the model forbids must never appear; what it allows may or may not (hardware owes
    // us no particular outcome, and the emulator only ever runs one interleaving at a time).
    if (o.allowed != 0xF)
      out.checks.push_back(make_check(std::string(o.name) + ": no forbidden outcome in any run",
                                      "only " + outcome_set(o.allowed), outcome_set(seen_set(all)),
                                      (seen_set(all) & ~o.allowed) == 0));
    if (!gpu)
      out.checks.push_back(make_check(
          std::string(o.name) + ": the emulator's outcomes are sequentially consistent",
          "never (flag 1 data 0)", std::to_string(all[kWeak]) + " times", all[kWeak] == 0));
    out.results.emplace_back(std::string(o.name) + ": outcomes produced",
                             outcome_set(seen_set(all)));
  }
  return {};
}

}  // namespace coop::lessons::atomic_scopes
