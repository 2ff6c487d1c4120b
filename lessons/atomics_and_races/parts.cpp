#include "lessons/atomics_and_races/parts.hpp"

#include <algorithm>
#include <limits>
#include <cmath>
#include <numeric>
#include <string>

#include "device/trace/value.hpp"
#include "lessons/atomics_and_races/kernels.hpp"
#include "lessons/race_chain.hpp"
#include "lessons/run_helpers.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::atomics_and_races {
namespace {

// [SECTION] Helpers

// The GPU timing runs use a grid large enough to keep every SM busy for a measurable time.
constexpr uint32_t kTimingBlocks = 4096, kTimingBlock = 256;
constexpr int kTimingRepeats = 3;

LaunchConfig timing_config() {
  LaunchConfig c;
  c.grid = {kTimingBlocks, 1, 1};
  c.block = {kTimingBlock, 1, 1};
  return c;
}

// Launches with the run's tracing and keeps the trace, even when the launch failed.
template <class... P, class... A>
Status launch_kept(PartContext& c, const Kernel<P...>& k, const LaunchConfig& config, A... args) {
  Trace trace;
  Status s = c.exec.launch(k, config, trace, args...);
  c.out.launches.push_back(std::move(trace));
  return s;
}

// The values the threads add, and the sum they add them to, starting at 0.
struct SumBuffers {
  DeviceArray<int> x, s;
};

Result<SumBuffers> sum_buffers(PartContext& c) {
  auto x = upload_array(c.exec, c.x, "x");
  auto s = upload_array(c.exec, std::vector<int>{0}, "s");
  if (!x) return x.status();
  if (!s) return s.status();
  return SumBuffers{std::move(*x), std::move(*s)};
}

template <class T>
Result<T> first_of(const DeviceArray<T>& a) {
  auto host = a.download();
  if (!host) return host.status();
  return host->at(0);
}

int64_t sum_of(const std::vector<int>& x) {
  return std::accumulate(x.begin(), x.end(), int64_t(0));
}

void skipped_timing(PartContext& c, const std::string& what) {
  Check check = make_check(what, "a GPU timing", "measured on a GPU only", false);
  check.skipped = true;
  c.out.checks.push_back(check);
}

std::string ms(double v) {
  return format_float(v, 4) + " ms";
}

// Checks and results for one unprotected read-add-write launch. Racers are threads, or (with
// `per_block`) the first thread of each block.
void report_race(PartContext& c, const std::string& tag, const Trace& t, int final_value,
                 int64_t exact, bool per_block) {
  const char* racer = per_block ? "block" : "thread";
  const uint32_t block = uint32_t(c.req.config.block.x);
  auto names = [&](std::vector<uint32_t> ids) {
    if (per_block)
      for (uint32_t& id : ids) id /= block;
    return describe_ids(ids);
  };
  c.out.checks.push_back(make_check(tag + ": the unprotected sum never exceeds the exact sum",
                                    "<= " + std::to_string(exact), std::to_string(final_value),
                                    final_value <= exact));
  const RaceReport r = analyse_race(t, final_value);
  const size_t racers = r.kept.size() + r.lost_unread.size() + r.lost_later.size();
  c.out.checks.push_back(
      make_check(tag + ": the trace explains the final value",
                 "a chain of reads and writes from 0 to " + std::to_string(final_value),
                 r.problem.empty() ? std::to_string(r.kept.size()) + " of " +
                                         std::to_string(racers) + " shares kept along the chain"
                                   : r.problem,
                 r.problem.empty()));
  c.out.results.emplace_back(tag + ": final / exact",
                             std::to_string(final_value) + " / " + std::to_string(exact));
  if (!r.problem.empty()) return;
  c.out.results.emplace_back(tag + ": updates lost", std::to_string(racers - r.kept.size()) +
                                                         " of " + std::to_string(racers) + " (" +
                                                         std::to_string(exact - final_value) +
                                                         " missing)");
  c.out.results.emplace_back(tag + ": " + racer + "s whose update survived, in order",
                             names(r.kept));
  auto counted = [&](const std::vector<uint32_t>& ids) {
    return ids.empty() ? std::string("0")
                       : std::to_string(ids.size()) + ": " + racer + "s " + names(ids);
  };
  c.out.results.emplace_back(tag + ": overwritten before anyone read them", counted(r.lost_unread));
  c.out.results.emplace_back(tag + ": read only by " + racer + "s whose own update was lost",
                             counted(r.lost_later));
}

}  // namespace

// [SECTION] 1. The race

Status run_race(PartContext& c) {
  auto b = sum_buffers(c);
  if (!b) return b.status();
  const Kernels& k = kernels();
  if (Status s = launch_kept(c, k.racy_sum, c.req.config, b->x.get(), b->s.get()); !s) return s;
  auto final_value = first_of(b->s);
  if (!final_value) return final_value.status();
  report_race(c, "race", c.out.launches.back(), *final_value, sum_of(c.x), false);

  // The same race on a __shared__ total, block by block.
  const uint32_t block = c.req.config.block.x;
  const uint32_t blocks = uint32_t(c.req.config.grid.count());
  auto totals = zero_array<int>(c.exec, blocks, "block_totals");
  if (!totals) return totals.status();
  if (Status s = launch_kept(c, k.racy_block_sum, c.req.config, b->x.get(), totals->get()); !s)
    return s;
  auto got = totals->download();
  if (!got) return got.status();
  uint32_t short_blocks = 0, impossible = 0;
  int64_t lost = 0;
  for (uint32_t g = 0; g < blocks; ++g) {
    int64_t exact = 0;
    int smallest = std::numeric_limits<int>::max();
    for (uint32_t t = 0; t < block; ++t) {
      exact += c.x[size_t(g) * block + t];
      smallest = std::min(smallest, c.x[size_t(g) * block + t]);
    }
    short_blocks += (*got)[g] < exact;
    // The last write holds some thread's old + x, so at least one value survives.
    impossible += (*got)[g] > exact || (*got)[g] < smallest;
    lost += exact - (*got)[g];
  }
  c.out.checks.push_back(make_check(
      "shared-memory race: every block total lies between one value and the exact sum",
      count_of(blocks, blocks) + " blocks", count_of(blocks - impossible, blocks) + " blocks",
      impossible == 0));
  c.out.results.emplace_back("shared-memory race: blocks that lost updates",
                             count_of(short_blocks, blocks) + " (" + std::to_string(lost) +
                                 " lost in all)");
  return {};
}

// [SECTION] 2. atomicAdd and its tickets

Status run_atomic(PartContext& c) {
  const size_t n = c.x.size();
  auto b = sum_buffers(c);
  auto d_before = DeviceArray<int>::create(c.exec, n, "before");
  if (!b) return b.status();
  if (!d_before) return d_before.status();
  const Kernels& k = kernels();
  if (Status s =
          launch_kept(c, k.atomic_sum, c.req.config, b->x.get(), b->s.get(), d_before->get());
      !s)
    return s;
  auto total = first_of(b->s);
  auto before = d_before->download();
  if (!total) return total.status();
  if (!before) return before.status();
  const int64_t exact = sum_of(c.x);
  c.out.checks.push_back(make_check("atomic: the sum is exact", std::to_string(exact),
                                    std::to_string(*total), *total == exact));
  // Sorting by the value each add found gives the landing order; atomicity means each add
  // found exactly what the previous one left.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return (*before)[a] < (*before)[b]; });
  size_t breaks = 0;
  int64_t running = 0;
  for (uint32_t t : order) {
    breaks += (*before)[t] != running;
    running = (*before)[t] + int64_t(c.x[t]);
  }
  breaks += running != *total;
  c.out.checks.push_back(make_check(
      "atomic: every add found what the previous one left (the tickets chain from 0 to the sum)",
      "0 breaks", std::to_string(breaks) + " breaks", breaks == 0));
  size_t recorded = 0, agree = 0;
  for (const Event& e : c.out.launches.back().events) {
    if (e.kind != EventKind::Atomic) continue;
    ++recorded;
    agree += e.thread < n && from_bits<int>(e.b) == (*before)[e.thread];
  }
  c.out.checks.push_back(make_check("atomic: each recorded old value is what atomicAdd returned",
                                    std::to_string(n) + " of " + std::to_string(n),
                                    std::to_string(agree) + " of " + std::to_string(recorded),
                                    agree == n && recorded == n));
  c.out.results.emplace_back("atomic: final / exact",
                             std::to_string(*total) + " / " + std::to_string(exact));
  c.out.results.emplace_back("atomic: threads in landing order", describe_ids(order, 12));
  return {};
}

// [SECTION] 3. A block-local sum, then one atomic per block

Status run_staged(PartContext& c) {
  const uint32_t blocks = uint32_t(c.req.config.grid.x);
  auto b = sum_buffers(c);
  if (!b) return b.status();
  const Kernels& k = kernels();
  const int64_t exact = sum_of(c.x);
  if (Status s = launch_kept(c, k.staged_sum, c.req.config, b->x.get(), b->s.get(), 1); !s)
    return s;
  auto total = first_of(b->s);
  if (!total) return total.status();
  size_t atomics = 0;
  for (const Event& e : c.out.launches.back().events) atomics += e.kind == EventKind::Atomic;
  c.out.checks.push_back(make_check("staged: the sum is exact", std::to_string(exact),
                                    std::to_string(*total), *total == exact));
  c.out.checks.push_back(make_check("staged: one atomic per block", std::to_string(blocks),
                                    std::to_string(atomics), atomics == blocks));
  c.out.results.emplace_back(
      "staged: atomics issued",
      std::to_string(atomics) + " (one per thread would be " + std::to_string(c.x.size()) + ")");

  if (c.exec.backend() != Backend::Gpu) {
    skipped_timing(c, "staged: time against one atomic per thread");
    return {};
  }
  const size_t big = size_t(kTimingBlocks) * kTimingBlock;
  auto d_ones = upload_array(c.exec, std::vector<int>(big, 1), "x (timing)");
  auto d_before = DeviceArray<int>::create(c.exec, big, "before (timing)");
  if (!d_ones) return d_ones.status();
  if (!d_before) return d_before.status();
  auto per_thread = best_untraced_ms(c.exec, k.atomic_sum, timing_config(), kTimingRepeats,
                                   d_ones->get(), b->s.get(), d_before->get());
  auto per_block = best_untraced_ms(c.exec, k.staged_sum, timing_config(), kTimingRepeats,
                                  d_ones->get(), b->s.get(), 1);
  if (!per_thread) return per_thread.status();
  if (!per_block) return per_block.status();
  c.out.results.emplace_back("GPU time, " + std::to_string(big) + " values: one atomic per thread",
                             ms(*per_thread));
  c.out.results.emplace_back("GPU time, " + std::to_string(big) + " values: one atomic per block",
                             ms(*per_block));
  return {};
}

// [SECTION] 4. The seed's warning: the same kernel with s[0] = s[0] + local loses block sums

Status run_staged_race(PartContext& c) {
  auto b = sum_buffers(c);
  if (!b) return b.status();
  const Kernels& k = kernels();
  if (Status s = launch_kept(c, k.staged_sum, c.req.config, b->x.get(), b->s.get(), 0); !s)
    return s;
  auto racy = first_of(b->s);
  if (!racy) return racy.status();
  report_race(c, "staged unprotected", c.out.launches.back(), *racy, sum_of(c.x), true);
  return {};
}

// [SECTION] 5. Contention

Status run_contention(PartContext& c) {
  const int spread = int(c.req.params.at("spread"));
  const size_t n = c.x.size();
  auto d_counters = DeviceArray<int>::create(c.exec, size_t(spread), "counters");
  if (!d_counters) return d_counters.status();
  if (Status s = d_counters->zero(); !s) return s;
  const Kernels& k = kernels();
  if (Status s = launch_kept(c, k.spread_add, c.req.config, d_counters->get(), spread); !s)
    return s;
  auto counters = d_counters->download();
  if (!counters) return counters.status();
  size_t wrong = 0;
  for (int a = 0; a < spread; ++a) {
    const size_t expect = n / size_t(spread) + (size_t(a) < n % size_t(spread) ? 1 : 0);
    wrong += size_t((*counters)[size_t(a)]) != expect;
  }
  c.out.checks.push_back(make_check("contention: every counter got one add per thread mapped to it",
                                    "0 wrong counters", std::to_string(wrong) + " wrong counters",
                                    wrong == 0));
  const size_t used = std::min<size_t>(size_t(spread), n);
  c.out.results.emplace_back("contention: atomics per address",
                             "up to " + std::to_string((n + used - 1) / used) + " on each of " +
                                 std::to_string(used) + (used == 1 ? " address" : " addresses"));
  if (c.exec.backend() != Backend::Gpu) {
    skipped_timing(c, "contention: time of one address against many");
    return {};
  }
  const int big = int(kTimingBlocks * kTimingBlock);
  auto d_wide = DeviceArray<int>::create(c.exec, size_t(big), "counters (timing)");
  if (!d_wide) return d_wide.status();
  for (int spread_here : {1, 32, 1024, big}) {
    auto t = best_untraced_ms(c.exec, k.spread_add, timing_config(), kTimingRepeats, d_wide->get(),
                            spread_here);
    if (!t) return t.status();
    c.out.results.emplace_back("GPU time, " + std::to_string(big) + " atomicAdds on " +
                                   std::to_string(spread_here) + " address" +
                                   (spread_here > 1 ? "es" : ""),
                               ms(*t));
  }
  return {};
}

// [SECTION] 6. A float counter at 2^24

Status run_float(PartContext& c) {
  const uint32_t n = uint32_t(c.x.size());
  const uint32_t limit = 1u << 24;  // 16777216: above it, consecutive floats are 2 apart
  const uint32_t start = limit - uint32_t(c.req.params.at("headroom"));
  auto d_float = upload_array(c.exec, std::vector<float>{float(start)}, "float_count");
  auto d_int = upload_array(c.exec, std::vector<unsigned>{start}, "int_count");
  if (!d_float) return d_float.status();
  if (!d_int) return d_int.status();
  const Kernels& k = kernels();
  if (Status s = launch_kept(c, k.count_both, c.req.config, d_float->get(), d_int->get()); !s)
    return s;
  auto f = first_of(*d_float);
  auto i = first_of(*d_int);
  if (!f) return f.status();
  if (!i) return i.status();
  const uint64_t exact = uint64_t(start) + n;
  const float expect_f = float(std::min<uint64_t>(exact, limit));
  c.out.checks.push_back(make_check("float: the unsigned counter counts every add",
                                    std::to_string(exact), std::to_string(*i), *i == exact));
  c.out.checks.push_back(make_check("float: the float counter stops at 2^24",
                                    format_float(expect_f, 10), format_float(*f, 10),
                                    *f == expect_f));
  // Every float add that found 2^24 already there left it unchanged, whatever the order.
  const uint32_t stuck_expected = n > limit - start ? n - (limit - start) : 0;
  uint32_t stuck = 0;
  for (const Event& e : c.out.launches.back().events)
    stuck += e.kind == EventKind::Atomic && e.value_type == ValueType::F32 &&
             from_bits<float>(e.b) == float(limit);
  c.out.checks.push_back(make_check("float: adds that found 16777216 and changed nothing",
                                    std::to_string(stuck_expected), std::to_string(stuck),
                                    stuck == stuck_expected));
  c.out.results.emplace_back("float: counters started at", std::to_string(start));
  c.out.results.emplace_back("float: unsigned / float counter after " + std::to_string(n) + " adds",
                             std::to_string(*i) + " / " + format_float(*f, 10));
  c.out.results.emplace_back("float: 16777216 + 1.0f", format_float(float(limit) + 1.0f, 10));
  return {};
}

}  // namespace coop::lessons::atomics_and_races
