// Lesson "memory-access": definition, CPU references and checks. Every load and store is
// recorded on the emulator (LessonDef::records_memory), so the Memory tab and the code view's
// badges show each kernel's sectors per request and bank-conflict ways.
#include <string>
#include <vector>

#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/memory_access/kernels.hpp"
#include "lessons/run_helpers.hpp"

extern const char coop_ncu_memory_access[];

namespace coop::lessons::memory_access {
namespace {

constexpr int kStrides[] = {1, 2, 32};
// The kernels' tile (kTile in memory_access.cuh, which only the kernels' own build includes).
constexpr uint32_t kTile = 32;
constexpr uint32_t kTileThreads = kTile * kTile;

Status validate(const LaunchConfig& c, const Params&) {
  if (Status s = require_1d_launch(c, "memory-access"); !s) return s;
  if (c.block.x % 32 != 0)
    return Status::error(
        "memory-access needs whole warps (a block of a multiple of 32 threads) so "
        "that every request has 32 lanes: got " +
        std::to_string(c.block.x));
  if (c.grid.x > 64)
    return Status::error(
        "memory-access allows at most 64 blocks (the stride-32 read touches 32 "
        "floats per thread): got " +
        std::to_string(c.grid.x));
  return {};
}

// in[i] = i: every value names its own index, so a lane's value in the Memory tab says which
// element it read.
std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(i);
  return v;
}

// Launches `kernel` and keeps its trace; the run stops at the first failed launch.
template <class K, class... Args>
Status launch_kept(Executor& exec, const K& kernel, const LaunchConfig& config, LessonRun& out,
                   Args... args) {
  Trace trace;
  Status launched = exec.launch(kernel, config, trace, args...);
  out.launches.push_back(std::move(trace));
  return launched;
}

// [SECTION] Contiguous and strided global reads.

Status run_strided(Executor& exec, const RunRequest& req, LessonRun& out) {
  const size_t n = req.config.total_threads();
  auto d_in = upload_array(exec, iota(n * size_t(kStrides[2])), "in");
  auto d_out = zero_array<float>(exec, n, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  for (int stride : kStrides) {
    if (Status s = launch_kept(exec, kernels().strided_read, req.config, out, d_in->get(),
                               d_out->get(), stride);
        !s)
      return s;
    auto got = d_out->download();
    if (!got) return got.status();
    // The CPU reference: out[i] is the value at in[i * stride], which is i * stride.
    out.checks.push_back(all_of(
        "stride " + std::to_string(stride) + ": out[i] = in[i * " + std::to_string(stride) + "]", n,
        [&](size_t i) { return (*got)[i] == float(i * size_t(stride)); },
        [&](size_t i) { return "out[" + std::to_string(i) + "] = " + format_float((*got)[i]); }));
  }
  return {};
}

// [SECTION] The transposed tile, without and with padding, and the broadcast.

Status run_transposes(Executor& exec, const RunRequest& req, LessonRun& out) {
  LaunchConfig tiles = req.config;
  tiles.block = {kTileThreads, 1, 1};  // one warp per tile row
  const size_t n = tiles.total_threads();
  auto d_in = upload_array(exec, iota(n), "in");
  auto d_out = zero_array<float>(exec, n, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  const Kernels& k = kernels();
  for (auto* kernel : {&k.transpose_tile, &k.transpose_tile_padded}) {
    if (Status s = d_out->zero(); !s) return s;
    if (Status s = launch_kept(exec, *kernel, tiles, out, d_in->get(), d_out->get()); !s) return s;
    auto got = d_out->download();
    if (!got) return got.status();
    // The CPU reference: element (y, x) of each tile comes from element (x, y) of the same tile.
    const bool padded = kernel == &k.transpose_tile_padded;
    out.checks.push_back(all_of(
        std::string(padded ? "padded tile" : "tile") + ": every element is its transposed twin", n,
        [&](size_t i) {
          const size_t base = i / kTileThreads * kTileThreads, y = i % kTileThreads / kTile,
                       x = i % kTile;
          return (*got)[i] == float(base + x * kTile + y);
        },
        [&](size_t i) { return "out[" + std::to_string(i) + "] = " + format_float((*got)[i]); }));
  }
  return {};
}

Status run_broadcast(Executor& exec, const RunRequest& req, LessonRun& out) {
  const size_t n = req.config.total_threads(), block = req.config.block.x;
  auto d_in = upload_array(exec, iota(req.config.grid.x), "in");
  auto d_out = zero_array<float>(exec, n, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  if (Status s =
          launch_kept(exec, kernels().broadcast_read, req.config, out, d_in->get(), d_out->get());
      !s)
    return s;
  auto got = d_out->download();
  if (!got) return got.status();
  // The CPU reference: thread t of block b writes in[b] * t = b * t.
  out.checks.push_back(all_of(
      "broadcast: out[i] = in[block] * threadIdx.x", n,
      [&](size_t i) { return (*got)[i] == float(i / block) * float(i % block); },
      [&](size_t i) { return "out[" + std::to_string(i) + "] = " + format_float((*got)[i]); }));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  for (auto part : {run_strided, run_transposes, run_broadcast})
    if (Status s = part(exec, req, out); !s) return s;
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "memory-access";
  l.order = 95;
  l.title = "Memory access: coalescing and bank conflicts";
  l.level = Level::Intermediate;
  l.concepts = {"coalescing",     "32-byte sectors", "shared memory banks",
                "bank conflicts", "padding",         "broadcast"};
  l.default_config.grid = {4, 1, 1};
  l.default_config.block = {256, 1, 1};
  l.records_memory = true;
  l.gpu_counters = coop_ncu_memory_access;
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::memory_access
