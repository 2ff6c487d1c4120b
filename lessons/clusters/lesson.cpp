// Lesson "clusters": this_cluster, cluster.sync() and distributed shared memory, checked against
// a CPU reference of the ring exchange and of the cluster-wide histogram.
#include <random>
#include <string>

#include "lessons/clusters/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::clusters {
namespace {

enum Part : int64_t { kAll = 0, kRing = 1, kHistogram = 2, kPartCount };

Status validate(const LaunchConfig& c, const Params& p) {
  if (c.block.y != 1 || c.block.z != 1 || c.grid.y != 1 || c.grid.z != 1 || c.cluster.y != 1 ||
      c.cluster.z != 1)
    return Status::error("clusters uses 1D blocks, grids and clusters: got block " + c.block.str() +
                         ", grid " + c.grid.str() + ", cluster " + c.cluster.str());
  if (c.mode != LaunchMode::Cluster)
    return Status::error(std::string("clusters needs a cluster launch: the launch mode is ") +
                         to_string(c.mode));
  if (c.block.x > 1024)
    return Status::error("ring_exchange keeps at most 1024 values per block: got a block of " +
                         std::to_string(c.block.x));
  if (c.grid.x % c.cluster.x != 0)
    return Status::error("grid " + std::to_string(c.grid.x) + " is not a multiple of the cluster " +
                         std::to_string(c.cluster.x));
  if (p.at("bins_per_block") > 1024)
    return Status::error("each block keeps at most 1024 bins: got " +
                         std::to_string(p.at("bins_per_block")));
  return {};
}

// [SECTION] The ring

Status run_ring(Executor& exec, const RunRequest& req, LessonRun& out) {
  const uint32_t block = req.config.block.x, size = req.config.cluster.x;
  const size_t n = req.config.total_threads();
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = int(i);  // each value names its thread
  auto d_input = upload_array(exec, input, "input");
  auto d_from_next = upload_array(exec, std::vector<int>(n, -1), "from_next");
  auto d_ranks = upload_array(exec, std::vector<int>(n, -1), "ranks");
  for (Status s : {d_input.status(), d_from_next.status(), d_ranks.status()})
    if (!s) return s;
  Trace trace;
  Status s = exec.launch(kernels().ring_exchange, req.config, trace, d_input->get(),
                         d_from_next->get(), d_ranks->get());
  out.launches.push_back(std::move(trace));
  if (!s) return s;
  auto from_next = d_from_next->download();
  auto ranks = d_ranks->download();
  if (!from_next) return from_next.status();
  if (!ranks) return ranks.status();
  size_t right_value = 0, right_rank = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t b = uint32_t(i / block), t = uint32_t(i % block);
    const uint32_t rank = b % size, next = b - rank + (rank + 1) % size;
    right_value += (*from_next)[i] == input[size_t(next) * block + t];
    right_rank += (*ranks)[i] == int(rank);
  }
  out.checks.push_back(make_check("ring: block_rank() is the block's place in its cluster",
                                  std::to_string(n) + " of " + std::to_string(n),
                                  std::to_string(right_rank) + " of " + std::to_string(n),
                                  right_rank == n));
  out.checks.push_back(
      make_check("ring: every thread read the next block's shared memory through map_shared_rank",
                 std::to_string(n) + " of " + std::to_string(n),
                 std::to_string(right_value) + " of " + std::to_string(n), right_value == n));
  out.results.emplace_back("clusters", std::to_string(req.config.grid.x / size) + " of " +
                                           std::to_string(size) + " blocks");
  out.results.emplace_back("ring: thread 0 of block 0 read",
                           std::to_string((*from_next)[0]) + " (thread 0 of block " +
                               std::to_string(size > 1 ? 1 : 0) + ")");
  return {};
}

// [SECTION] The histogram

Status run_histogram(Executor& exec, const RunRequest& req, LessonRun& out) {
  const int per_block = int(req.params.at("bins_per_block"));
  const uint32_t block = req.config.block.x, size = req.config.cluster.x;
  const size_t n = req.config.total_threads();
  const int bins = per_block * int(size);
  std::vector<int> values(n);
  std::mt19937 rng(uint32_t(req.params.at("data")));
  std::uniform_int_distribution<int> pick(0, bins - 1);
  for (int& v : values) v = pick(rng);
  auto d_values = upload_array(exec, values, "values");
  auto d_bins = upload_array(exec, std::vector<int>(size_t(bins), 0), "bins");
  if (!d_values) return d_values.status();
  if (!d_bins) return d_bins.status();
  Trace trace;
  Status s = exec.launch(kernels().cluster_histogram, req.config, trace, d_values->get(),
                         d_bins->get(), per_block);
  out.launches.push_back(std::move(trace));
  if (!s) return s;
  auto got = d_bins->download();
  if (!got) return got.status();
  std::vector<int> expect(size_t(bins), 0);
  size_t remote = 0;
  for (size_t i = 0; i < n; ++i) {
    ++expect[size_t(values[i])];
    remote += uint32_t(values[i] / per_block) != (i / block) % size;
  }
  size_t right = 0;
  for (int b = 0; b < bins; ++b) right += (*got)[size_t(b)] == expect[size_t(b)];
  out.checks.push_back(make_check("histogram: every bin equals the CPU's count",
                                  std::to_string(bins) + " of " + std::to_string(bins),
                                  std::to_string(right) + " of " + std::to_string(bins),
                                  right == size_t(bins)));
  // Each thread makes one add into some block's shared memory, each block one per kept bin.
  size_t atomics = 0;
  for (const Event& e : out.launches.back().events) atomics += e.kind == EventKind::Atomic;
  const size_t want = n + size_t(req.config.grid.x) * size_t(per_block);
  out.checks.push_back(make_check(
      "histogram: one shared-memory add per thread, one global add per bin kept",
      std::to_string(want) + " atomics", std::to_string(atomics) + " atomics", atomics == want));
  out.results.emplace_back("histogram: bins", std::to_string(bins) + " (" +
                                                  std::to_string(per_block) + " kept by each of " +
                                                  std::to_string(size) + " blocks)");
  out.results.emplace_back("histogram: adds into another block's shared memory",
                           std::to_string(remote) + " of " + std::to_string(n));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const int64_t part = req.params.at("part");
  if (part == kAll || part == kRing)
    if (Status s = run_ring(exec, req, out); !s) return s;
  if (part == kAll || part == kHistogram)
    if (Status s = run_histogram(exec, req, out); !s) return s;
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "clusters";
  l.order = 130;
  l.title = "Thread block clusters";
  l.level = Level::Advanced;
  l.concepts = {
      "this_cluster",  "cluster.sync", "block_rank", "map_shared_rank", "distributed shared memory",
      "cluster launch"};
  l.min_cc = 90;
  l.params = {
      {"part", kAll, kAll, kPartCount - 1, "0: both kernels; 1 the ring exchange; 2 the histogram"},
      {"bins_per_block", 64, 1, 1024, "histogram: bins each block keeps in its shared memory"},
      {"data", 1, 0, 1 << 30, "seed of the histogram's values"},
  };
  l.default_config.grid = {8, 1, 1};
  l.default_config.block = {128, 1, 1};
  l.default_config.cluster = {4, 1, 1};
  l.default_config.mode = LaunchMode::Cluster;
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::clusters
