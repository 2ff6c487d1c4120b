// Lesson "warp-collectives": shuffles, votes and matches on a 32-thread tile, and the shfl_down
// tree reduction. CPU reference and checks.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"
#include "lessons/warp_collectives/kernels.hpp"

namespace coop::lessons::warp_collectives {
namespace {

// [SECTION] CPU reference: what each lane of one warp gets back

// Results per lane in lanes_move, as warp_collectives.cuh lays them out (the kernel file is not
// host code; the lesson test checks that this matches its text).
constexpr int kSlots = 10;

struct Moves {
  int src, delta, lane_mask;
};

std::vector<int> cpu_lanes_move(const int* v, const Moves& m) {
  std::vector<int> out(32 * kSlots);
  bool any = false, all = true;
  uint32_t ballot = 0;
  for (int l = 0; l < 32; ++l) {
    any |= v[l] == 117;
    all &= v[l] >= 100;
    if (v[l] % 2 == 0) ballot |= 1u << l;
  }
  uint32_t same_everywhere = ~0u;
  for (int l = 0; l < 32; ++l)
    if (v[l] % 4 != v[0] % 4) same_everywhere = 0;
  for (int l = 0; l < 32; ++l) {
    uint32_t match = 0;
    for (int o = 0; o < 32; ++o)
      if (v[o] % 4 == v[l] % 4) match |= 1u << o;
    const int row[kSlots] = {v[m.src],
                             l >= m.delta ? v[l - m.delta] : v[l],
                             l + m.delta < 32 ? v[l + m.delta] : v[l],
                             v[l ^ m.lane_mask],
                             int(any),
                             int(all),
                             int(ballot),
                             int(match),
                             int(same_everywhere),
                             same_everywhere != 0};
    std::copy(row, row + kSlots, &out[size_t(l) * kSlots]);
  }
  return out;
}

// The shfl_down tree exactly as the kernel runs it, every lane's value after the last step.
std::vector<int> cpu_warp_tree(const int* in) {
  std::vector<int> v(in, in + 32), next(32);
  for (int offset = 16; offset > 0; offset /= 2) {
    for (int l = 0; l < 32; ++l) next[l] = v[l] + (l + offset < 32 ? v[l + offset] : v[l]);
    v = next;
  }
  return v;
}

std::string lanes(const std::vector<int>& v, size_t first, size_t stride, bool hex = false) {
  std::string s;
  for (size_t l = 0; l < 32; ++l) {
    char buf[16];
    std::snprintf(buf, sizeof buf, hex ? "%08x" : "%d", v[first + l * stride]);
    s += (l ? " " : "") + std::string(buf);
  }
  return s;
}

// [SECTION] Launch rules and the run

Status validate(const LaunchConfig& c, const Params&) {
  if (Status s = require_1d_launch(c, "warp-collectives"); !s) return s;
  if (c.block.x % 32 != 0)
    return Status::error("warp-collectives works on whole warps: block size " +
                         std::to_string(c.block.x) + " is not a multiple of 32");
  if (c.grid.x > 1024)
    return Status::error("warp-collectives allows at most 1024 blocks: got " +
                         std::to_string(c.grid.x));
  return {};
}

// values=0: 100 + lane; 1: random 100..139; 2: one value per warp (100 + warp index).
std::vector<int> make_values(size_t n, int64_t kind, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = kind == 0   ? 100 + int(i % 32)
           : kind == 1 ? 100 + int(rng() % 40)
                       : 100 + int(i / 32 % 100);
  return v;
}

const char* const kSlotNames[kSlots] = {
    "shfl", "shfl_up", "shfl_down", "shfl_xor",  "any",
    "all",  "ballot",  "match_any", "match_all", "match_all's predicate"};

Status run_moves(Executor& exec, const RunRequest& req, const std::vector<int>& values,
                 LessonRun& out) {
  const size_t n = values.size(), warps = n / 32;
  const Moves m{int(req.params.at("src")), int(req.params.at("delta")), int(req.params.at("xor"))};
  auto d_in = upload_array(exec, values, "in");
  auto d_out = zero_array<int>(exec, n * kSlots, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().lanes_move, req.config, trace, d_in->get(), d_out->get(),
                                m.src, m.delta, m.lane_mask);
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto got = d_out->download();
  if (!got) return got.status();
  std::vector<size_t> good(kSlots, 0);
  std::vector<int> warp0;
  for (size_t w = 0; w < warps; ++w) {
    const std::vector<int> expect = cpu_lanes_move(&values[w * 32], m);
    if (w == 0) warp0 = expect;
    for (size_t l = 0; l < 32; ++l)
      for (int k = 0; k < kSlots; ++k)
        good[size_t(k)] +=
            expect[l * kSlots + size_t(k)] == (*got)[(w * 32 + l) * kSlots + size_t(k)];
  }
  for (int k = 0; k < kSlots; ++k)
    out.checks.push_back(make_check(
        std::string(kSlotNames[k]) + ": every lane got what the CPU predicts",
        count_of(n, n) + " lanes", count_of(good[size_t(k)], n) + " lanes", good[size_t(k)] == n));
  out.results.emplace_back("warp 0 values, lanes 0..31", lanes(values, 0, 1));
  out.results.emplace_back("shfl(v, " + std::to_string(m.src) + ")", lanes(*got, 0, kSlots));
  out.results.emplace_back("shfl_up(v, " + std::to_string(m.delta) + ")", lanes(*got, 1, kSlots));
  out.results.emplace_back("shfl_down(v, " + std::to_string(m.delta) + ")", lanes(*got, 2, kSlots));
  out.results.emplace_back("shfl_xor(v, " + std::to_string(m.lane_mask) + ")",
                           lanes(*got, 3, kSlots));
  out.results.emplace_back("any(v == 117), all(v >= 100)",
                           std::to_string((*got)[4]) + ", " + std::to_string((*got)[5]));
  out.results.emplace_back("ballot(v % 2 == 0)", lanes(*got, 6, kSlots, true).substr(0, 8));
  out.results.emplace_back("match_any(v % 4), lanes 0..31", lanes(*got, 7, kSlots, true));
  out.results.emplace_back(
      "match_all(v % 4): mask, predicate",
      lanes(*got, 8, kSlots, true).substr(0, 8) + ", " + std::to_string((*got)[9]));
  return {};
}

Status run_sum(Executor& exec, const RunRequest& req, const std::vector<int>& values,
               LessonRun& out) {
  const size_t n = values.size(), warps = n / 32;
  auto d_in = upload_array(exec, values, "in");
  auto d_partial = zero_array<int>(exec, n, "partial");
  auto d_sums = zero_array<int>(exec, warps, "sums");
  if (Status s = first_error({d_in.status(), d_partial.status(), d_sums.status()}); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().warp_sum, req.config, trace, d_in->get(),
                                d_partial->get(), d_sums->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto partial = d_partial->download();
  auto sums = d_sums->download();
  if (Status s = first_error({partial.status(), sums.status()}); !s) return s;
  size_t good_sums = 0, good_lanes = 0;
  for (size_t w = 0; w < warps; ++w) {
    int sum = 0;
    for (size_t l = 0; l < 32; ++l) sum += values[w * 32 + l];
    good_sums += (*sums)[w] == sum;
    const std::vector<int> tree = cpu_warp_tree(&values[w * 32]);
    for (size_t l = 0; l < 32; ++l) good_lanes += (*partial)[w * 32 + l] == tree[l];
  }
  out.checks.push_back(make_check("lane 0 holds its warp's sum after five shfl_down steps",
                                  count_of(warps, warps) + " warps",
                                  count_of(good_sums, warps) + " warps", good_sums == warps));
  out.checks.push_back(make_check("every other lane holds the partial sum the CPU tree predicts",
                                  count_of(n, n) + " lanes", count_of(good_lanes, n) + " lanes",
                                  good_lanes == n));
  out.results.emplace_back("warp sums", [&] {
    std::string s;
    for (size_t w = 0; w < warps && w < 8; ++w) s += (w ? " " : "") + std::to_string((*sums)[w]);
    return s;
  }());
  out.results.emplace_back("warp 0 lanes after the tree", lanes(*partial, 0, 1));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const std::vector<int> values = make_values(req.config.total_threads(), req.params.at("values"),
                                              uint32_t(req.params.at("data")));
  if (Status s = run_moves(exec, req, values, out); !s) return s;
  if (Status s = run_sum(exec, req, values, out); !s) return s;
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "warp-collectives";
  l.order = 70;
  l.title = "Warp-level tile collectives: shuffles, votes, matches";
  l.level = Level::Intermediate;
  l.concepts = {"thread_block_tile<32>",
                "shfl",
                "shfl_up",
                "shfl_down",
                "shfl_xor",
                "any",
                "all",
                "ballot",
                "match_any",
                "match_all",
                "warp reduction"};
  l.params = {
      {"src", 5, 0, 31, "shfl: the lane every lane reads"},
      {"delta", 2, 0, 31, "shfl_up / shfl_down: how many lanes values move"},
      {"xor", 1, 0, 31, "shfl_xor: the lane mask (1 swaps neighbours, 16 swaps the warp's halves)"},
      {"values", 0, 0, 2, "0: 100 + lane; 1: random 100..139; 2: one value per warp (100 + warp)"},
      {"data", 1, 0, 1 << 30, "seed of the random values (values=1)"},
  };
  l.default_config.grid = {1, 1, 1};
  l.default_config.block = {64, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::warp_collectives
