// Lesson "tiled-partitions": definition, CPU reference and checks.
#include <algorithm>
#include <string>
#include <vector>

#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/tiled_partitions/kernels.hpp"

namespace coop::lessons::tiled_partitions {
namespace {

constexpr int kWhere = 8;  // ints per thread written by tiles_of_tiles (tiled_partitions.cuh)

Status validate(const LaunchConfig& c, const Params&) {
  const uint64_t n = c.block.count();
  if (n % 128 != 0)
    return Status::error("tiled-partitions cuts every block into tiles of 128 threads: block " +
                         c.block.str() + " has " + std::to_string(n) +
                         " threads, not a multiple of 128");
  if (c.total_threads() > (1u << 20))
    return Status::error("tiled-partitions records every thread: at most 1048576 threads, got " +
                         std::to_string(c.total_threads()));
  return {};
}

// The blog's example: thread 0 of every tile writes its block rank into its own line.
Status run_every_nth(Executor& exec, const RunRequest& req, LessonRun& out) {
  const int tile = int(req.params.at("tile"));
  const LaunchConfig& c = req.config;
  const size_t n = c.block.count(), threads = c.total_threads();
  const size_t per_block = (n + tile - 1) / tile, lines_total = per_block * c.grid.count();
  auto d_lines = DeviceArray<int>::create(exec, lines_total, "lines");
  auto d_ranks = DeviceArray<int>::create(exec, threads, "ranks");
  for (Status s : {d_lines.status(), d_ranks.status()})
    if (!s) return s;
  if (Status s = d_lines->upload(std::vector<int>(lines_total, -1)); !s) return s;  // unprinted
  Trace trace;
  Status launched =
      exec.launch(kernels().every_nth_prints, c, trace, d_lines->get(), d_ranks->get(), tile);
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto lines = d_lines->download();
  auto ranks = d_ranks->download();
  if (!lines) return lines.status();
  if (!ranks) return ranks.status();

  // Line k of a block comes from the thread at block rank k * tile.
  out.checks.push_back(all_of(
      "every tile's rank 0 printed its block rank (k * " + std::to_string(tile) + ")", lines_total,
      [&](size_t k) { return (*lines)[k] == int(k % per_block * tile); },
      [&](size_t k) {
        return "line " + std::to_string(k) + " holds " + std::to_string((*lines)[k]) +
               ", expected " + std::to_string(k % per_block * tile);
      }));
  auto expected_rank = [&](size_t g) {
    const size_t t = g % n, base = t / tile * tile;
    return int(t - base + 1000 * std::min<size_t>(tile, n - base));
  };
  out.checks.push_back(all_of(
      "tiled_partition(block, " + std::to_string(tile) + "): rank = block rank % " +
          std::to_string(tile) + ", size " + std::to_string(tile),
      threads, [&](size_t g) { return (*ranks)[g] == expected_rank(g); },
      [&](size_t g) {
        return "thread " + std::to_string(g) +
               ": rank + 1000 * size = " + std::to_string((*ranks)[g]) + ", expected " +
               std::to_string(expected_rank(g));
      }));

  std::string printed;
  for (size_t k = 0; k < std::min<size_t>(per_block, 6); ++k)
    printed += (k ? ", " : "") + std::to_string((*lines)[k]);
  if (per_block > 6) printed += ", ...";
  out.results.emplace_back("block 0 prints \"Hello from tile rank 0\" from block ranks", printed);
  out.results.emplace_back("tiles per block", std::to_string(per_block));
  return {};
}

// Tiles of 128, cut into 64s, into warps, into quads: each level's meta group.
Status run_tiles_of_tiles(Executor& exec, const RunRequest& req, LessonRun& out) {
  const LaunchConfig& c = req.config;
  const size_t n = c.block.count(), threads = c.total_threads();
  auto d_where = DeviceArray<int>::create(exec, threads * kWhere, "where");
  if (!d_where) return d_where.status();
  if (Status s = d_where->zero(); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().tiles_of_tiles, c, trace, d_where->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto where = d_where->download();
  if (!where) return where.status();

  auto expected = [&](size_t g) {
    const int t = int(g % n);
    return std::vector<int>{t / 128, int(n / 128), t % 128 / 64, 2, t % 64 / 32, t % 32 / 4,
                            8,       t % 4};
  };
  auto row = [&](size_t g) {
    return std::vector<int>(where->begin() + long(g * kWhere),
                            where->begin() + long((g + 1) * kWhere));
  };
  auto join = [](const std::vector<int>& v) {
    std::string s;
    for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
  };
  out.checks.push_back(all_of(
      "meta_group_rank/size at each level: 128 of the block, 64 of the 128, warp of the 64, "
      "quad of the warp",
      threads, [&](size_t g) { return row(g) == expected(g); },
      [&](size_t g) {
        return "thread " + std::to_string(g) + " wrote " + join(row(g)) + ", expected " +
               join(expected(g));
      }));
  // Every barrier event names a tile of exactly its level's size.
  const Trace& t = out.launches.back();
  const size_t barriers =
      count_events(t, [](const Event& e) { return e.kind == EventKind::Barrier; });
  const size_t right_size = count_events(t, [](const Event& e) {
    return e.kind == EventKind::Barrier && e.group_kind == GroupKind::Tile &&
           (e.group_size == 4 || e.group_size == 32 || e.group_size == 64 || e.group_size == 128);
  });
  out.checks.push_back(make_check("four barriers per thread, each on a tile of 4, 32, 64 or 128",
                                  std::to_string(4 * threads) + " tile barriers",
                                  std::to_string(right_size) + " of " + std::to_string(barriers),
                                  barriers == 4 * threads && right_size == barriers));
  out.results.emplace_back("tiles of 128 per block", std::to_string(n / 128));
  out.results.emplace_back("quads per block", std::to_string(n / 4));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  if (Status s = run_every_nth(exec, req, out); !s) return s;
  if (Status s = run_tiles_of_tiles(exec, req, out); !s) return s;
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "tiled-partitions";
  l.order = 20;
  l.title = "Tiled partitions: tiles, and tiles of tiles";
  l.level = Level::Beginner;
  l.concepts = {"tiled_partition", "thread_block_tile", "meta_group_rank",
                "meta_group_size", "multi-warp tiles",  "tiles of tiles"};
  l.params = {
      {"tile", 4, 1, 32, "runtime tile size of every_nth_prints (a power of two, 1 to 32)", true},
  };
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {256, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::tiled_partitions
