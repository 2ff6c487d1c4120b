// Lesson "collectives": reduce with the six operators, scans, invoke_one(_broadcast), and the
// hardware-accelerated reduce timed against software on a GPU. CPU reference and checks.
#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "lessons/collectives/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::collectives {
namespace {

// [SECTION] CPU reference

// The layout constants of collectives.cuh (the kernel file is not host code; the lesson test
// checks that these match its text).
constexpr int kOps = 7;
constexpr int kMaxCount = 4;

const char* const kOpNames[kOps] = {"plus (sum)", "less (minimum)", "greater (maximum)", "bit_and",
                                    "bit_or",     "bit_xor",        "running maximum"};

// What every lane of a 32-value tile should hold for each slot of reduce_six_ways.
std::vector<int> cpu_six_ways(const int* v) {
  std::vector<int> out(32 * kOps);
  int sum = 0, lo = v[0], hi = v[0], all = ~0, any = 0, odd = 0;
  for (int l = 0; l < 32; ++l) {
    sum += v[l];
    lo = std::min(lo, v[l]);
    hi = std::max(hi, v[l]);
    all &= v[l];
    any |= v[l];
    odd ^= v[l];
  }
  int running = v[0];
  for (int l = 0; l < 32; ++l) {
    running = std::max(running, v[l]);
    const int row[kOps] = {sum, lo, hi, all, any, odd, running};
    std::copy(row, row + kOps, &out[l * kOps]);
  }
  return out;
}

// Tile sum of (value + lane) repeated `rounds` times, modulo 2^32, as the sum_* kernels do it.
unsigned cpu_rounds(const unsigned* v, int rounds) {
  std::vector<unsigned> lane(v, v + 32);
  for (int r = 0; r < rounds; ++r) {
    unsigned s = 0;
    for (unsigned l = 0; l < 32; ++l) s += lane[l] + l;
    std::fill(lane.begin(), lane.end(), s);
  }
  return lane[0];
}

std::string list(const std::vector<int>& v, size_t max = 8) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < max; ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return s + (v.size() > max ? " ..." : "");
}

// [SECTION] Launch rules

Status validate(const LaunchConfig& c, const Params&) {
  if (Status s = require_1d_launch(c, "collectives"); !s) return s;
  if (c.block.x % 32 != 0)
    return Status::error("collectives works on whole 32-thread tiles: block size " +
                         std::to_string(c.block.x) + " is not a multiple of 32");
  if (c.grid.x > 1024)
    return Status::error("collectives allows at most 1024 blocks in its traced runs: got " +
                         std::to_string(c.grid.x));
  return {};
}

// [SECTION] The run

Status run_reductions(Executor& exec, const RunRequest& req, const std::vector<int>& values,
                      LessonRun& out) {
  const size_t n = values.size(), tiles = n / 32;
  auto d_in = upload_array(exec, values, "in");
  auto d_out = zero_array<int>(exec, n * kOps, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  Trace trace;
  Status launched =
      exec.launch(kernels().reduce_six_ways, req.config, trace, d_in->get(), d_out->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto got = d_out->download();
  if (!got) return got.status();
  std::vector<size_t> good(kOps, 0);
  for (size_t t = 0; t < tiles; ++t) {
    const std::vector<int> expect = cpu_six_ways(&values[t * 32]);
    for (size_t l = 0; l < 32; ++l)
      for (int k = 0; k < kOps; ++k)
        good[k] += expect[l * kOps + k] == (*got)[(t * 32 + l) * kOps + k];
  }
  for (int k = 0; k < kOps; ++k)
    out.checks.push_back(make_check(std::string(k < 6 ? "reduce " : "inclusive_scan ") +
                                        kOpNames[k] + ": every lane equals the CPU",
                                    count_of(n, n) + " lanes", count_of(good[k], n) + " lanes",
                                    good[k] == n));
  out.results.emplace_back("tile 0 inputs",
                           list(std::vector<int>(values.begin(), values.begin() + 32), 32));
  for (int k = 0; k < 6; ++k)
    out.results.emplace_back(std::string("tile 0, ") + kOpNames[k], std::to_string((*got)[k]));
  return {};
}

Status run_scans(Executor& exec, const RunRequest& req, const std::vector<int>& counts,
                 LessonRun& out) {
  const size_t n = counts.size(), tiles = n / 32;
  auto d_counts = upload_array(exec, counts, "counts");
  auto d_starts = zero_array<int>(exec, n, "starts");
  auto d_ends = zero_array<int>(exec, n, "ends");
  auto d_packed = upload_array(exec, std::vector<int>(n * kMaxCount, -1), "packed");
  if (Status s =
          first_error({d_counts.status(), d_starts.status(), d_ends.status(), d_packed.status()});
      !s)
    return s;
  Trace trace;
  Status launched = exec.launch(kernels().pack_runs, req.config, trace, d_counts->get(),
                                d_starts->get(), d_ends->get(), d_packed->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto starts = d_starts->download();
  auto ends = d_ends->download();
  auto packed = d_packed->download();
  if (Status s = first_error({starts.status(), ends.status(), packed.status()}); !s) return s;
  size_t good_starts = 0, good_ends = 0, good_lists = 0;
  for (size_t t = 0; t < tiles; ++t) {
    int running = 0;
    std::vector<int> expect(32 * kMaxCount, -1);
    for (size_t l = 0; l < 32; ++l) {
      const size_t i = t * 32 + l;
      good_starts += (*starts)[i] == running;
      for (int k = 0; k < counts[i]; ++k) expect[size_t(running + k)] = int(l);
      running += counts[i];
      good_ends += (*ends)[i] == running;
    }
    good_lists +=
        std::equal(expect.begin(), expect.end(), packed->begin() + long(t * expect.size()));
  }
  out.checks.push_back(make_check("exclusive_scan: each run starts after the counts of lower lanes",
                                  count_of(n, n) + " lanes", count_of(good_starts, n) + " lanes",
                                  good_starts == n));
  out.checks.push_back(make_check("inclusive_scan: each run ends after its own count",
                                  count_of(n, n) + " lanes", count_of(good_ends, n) + " lanes",
                                  good_ends == n));
  out.checks.push_back(make_check("packed lists equal the CPU's, with no gaps or overlaps",
                                  count_of(tiles, tiles) + " tiles",
                                  count_of(good_lists, tiles) + " tiles", good_lists == tiles));
  out.results.emplace_back("tile 0 counts",
                           list(std::vector<int>(counts.begin(), counts.begin() + 32), 32));
  out.results.emplace_back("tile 0 starts",
                           list(std::vector<int>(starts->begin(), starts->begin() + 32), 32));
  out.results.emplace_back(
      "tile 0 packed", list(std::vector<int>(packed->begin(), packed->begin() + (*ends)[31]), 96));
  return {};
}

Status run_invoke(Executor& exec, const RunRequest& req, LessonRun& out) {
  const size_t n = req.config.total_threads(), tiles = n / 32;
  auto d_chosen = zero_array<int>(exec, tiles, "chosen");
  auto d_runs = zero_array<int>(exec, tiles, "runs");
  auto d_heard = zero_array<int>(exec, n, "heard");
  if (Status s = first_error({d_chosen.status(), d_runs.status(), d_heard.status()}); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().one_for_all, req.config, trace, d_chosen->get(),
                                d_runs->get(), d_heard->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto chosen = d_chosen->download();
  auto runs = d_runs->download();
  auto heard = d_heard->download();
  if (Status s = first_error({chosen.status(), runs.status(), heard.status()}); !s) return s;
  size_t once = 0, valid = 0, agreed = 0;
  std::vector<int> broadcast(tiles);
  for (size_t t = 0; t < tiles; ++t) {
    once += (*runs)[t] == 1;
    valid += (*chosen)[t] >= 0 && (*chosen)[t] < 32;
    broadcast[t] = (*heard)[t * 32];
    bool same = broadcast[t] >= 0 && broadcast[t] < 32;
    for (size_t l = 0; l < 32; ++l) same &= (*heard)[t * 32 + l] == broadcast[t];
    agreed += same;
  }
  const std::string all_tiles = count_of(tiles, tiles) + " tiles";
  out.checks.push_back(make_check("invoke_one ran its job exactly once per tile", all_tiles,
                                  count_of(once, tiles) + " tiles", once == tiles));
  out.checks.push_back(make_check("invoke_one chose a lane of the tile (0..31)", all_tiles,
                                  count_of(valid, tiles) + " tiles", valid == tiles));
  out.checks.push_back(make_check("invoke_one_broadcast: all 32 lanes heard the chosen lane's rank",
                                  all_tiles, count_of(agreed, tiles) + " tiles", agreed == tiles));
  out.results.emplace_back("invoke_one chose, per tile", list(*chosen));
  out.results.emplace_back("invoke_one_broadcast chose, per tile", list(broadcast));
  out.results.emplace_back(
      "who chooses", exec.backend() == Backend::Gpu
                         ? "the hardware (elect.sync on cc 9.0+): it may change between runs, "
                           "though it usually does not"
                         : "the emulator: rank 0 with seed 0, other lanes with other seeds (this "
                           "run: seed " +
                               std::to_string(req.seed) + ")");
  return {};
}

// The three tile sums, once each and traced on both backends, then timed untraced on a GPU.
using SumKernel = decltype(Kernels::sum_hardware);
const char* const kSumNames[3] = {"cg::reduce, 4-byte", "shfl_xor loop", "cg::reduce, 8-byte"};

Status run_sums_once(Executor& exec, const LaunchConfig& config, int rounds, bool timed,
                     uint32_t seed, LessonRun& out, std::vector<double>* ms) {
  const Kernels& k = kernels();
  const SumKernel* ways[3] = {&k.sum_hardware, &k.sum_shuffles, &k.sum_wide};
  const size_t n = config.total_threads();
  std::mt19937 rng(seed);
  std::vector<unsigned> in(n);
  for (unsigned& x : in) x = rng() % 1000;
  std::vector<unsigned> expect(n / 32);  // each tile's sum after `rounds` rounds
  for (size_t t = 0; t < expect.size(); ++t) expect[t] = cpu_rounds(&in[t * 32], rounds);
  auto d_in = upload_array(exec, in, "in");
  auto d_out = zero_array<unsigned>(exec, n, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  const unsigned* input = d_in->get();
  for (int w = 0; w < 3; ++w) {
    if (Status s = d_out->zero(); !s) return s;
    if (timed) {
      auto best = best_untraced_ms(exec, *ways[w], config, 5, input, d_out->get(), rounds);
      if (!best) return best.status();
      ms->push_back(*best);
    } else {
      Trace trace;
      Status launched = exec.launch(*ways[w], config, trace, input, d_out->get(), rounds);
      const size_t per_lane = count_events(trace, EventKind::Collective) / std::max<size_t>(n, 1);
      out.results.emplace_back(std::string("warp collectives per lane: ") + kSumNames[w],
                               std::to_string(per_lane));
      out.launches.push_back(std::move(trace));
      if (!launched) return launched;
    }
    auto got = d_out->download();
    if (!got) return got.status();
    size_t good = 0;
    for (size_t t = 0; t < n / 32; ++t)
      for (size_t l = 0; l < 32; ++l) good += (*got)[t * 32 + l] == expect[t];
    out.checks.push_back(make_check(
        std::string(timed ? "timed " : "") + kSumNames[w] + ": every lane holds its tile's sum" +
            (rounds > 1 ? " after " + std::to_string(rounds) + " rounds" : ""),
        count_of(n, n) + " lanes", count_of(good, n) + " lanes", good == n));
  }
  return {};
}

Status run_sums(Executor& exec, const RunRequest& req, LessonRun& out) {
  const uint32_t seed = uint32_t(req.params.at("data")) + 2;
  if (Status s = run_sums_once(exec, req.config, 1, false, seed, out, nullptr); !s) return s;
  if (exec.backend() != Backend::Gpu) {
    out.checks.push_back(measured_on_gpu_only("hardware reduce timed against two software ways"));
    return {};
  }
  const DeviceProps& d = exec.device();
  LaunchConfig big = req.config;
  big.grid.x = uint32_t(std::max(1, d.sm_count) * 16);
  big.block.x = 256;
  const int rounds = int(req.params.at("rounds"));
  std::vector<double> ms;
  if (Status s = run_sums_once(exec, big, rounds, true, seed, out, &ms); !s) return s;
  const double reductions = double(big.total_threads() / 32) * rounds;
  for (int w = 0; w < 3; ++w)
    out.results.emplace_back(std::string("time: ") + kSumNames[w],
                             format_float(ms[size_t(w)], 4) + " ms (" +
                                 format_float(reductions / (ms[size_t(w)] * 1e6), 4) +
                                 " billion warp reductions per second)");
  out.results.emplace_back("speed-up of the hardware reduce over the shfl_xor loop",
                           format_float(ms[1] / ms[0], 3) + "x");
  out.results.emplace_back("timed launches", std::to_string(big.grid.x) +
                                                 " blocks x 256 threads, " +
                                                 std::to_string(rounds) + " rounds each, on " +
                                                 d.name + " (cc " + d.cc_string() + ")");
  if (d.cc_major < 8)
    out.results.emplace_back("note", "below cc 8.0 there is no redux.sync: every variant shuffles");
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const size_t n = req.config.total_threads();
  std::mt19937 rng(uint32_t(req.params.at("data")));
  // Values 256..511 share bit 8, so bit_and keeps it and the other bitwise results vary.
  std::vector<int> values(n), counts(n);
  for (int& v : values) v = 256 + int(rng() % 256);
  for (int& c : counts) c = int(rng() % kMaxCount);
  if (Status s = run_reductions(exec, req, values, out); !s) return s;
  if (Status s = run_scans(exec, req, counts, out); !s) return s;
  if (Status s = run_invoke(exec, req, out); !s) return s;
  if (Status s = run_sums(exec, req, out); !s) return s;
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "collectives";
  l.order = 60;
  l.title = "Collectives: reduce, scan and invoke_one";
  l.level = Level::Intermediate;
  l.concepts = {"reduce",         "plus/less/greater", "bit_and/bit_or/bit_xor", "inclusive_scan",
                "exclusive_scan", "invoke_one",        "invoke_one_broadcast",   "redux.sync"};
  l.params = {
      {"data", 1, 0, 1 << 30, "seed of the random input values and counts"},
      {"rounds", 256, 1, 4096,
       "GPU timing only: dependent reductions per lane in the timed launches"},
  };
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {64, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::collectives
