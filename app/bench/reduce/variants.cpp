#include "app/bench/reduce/variants.hpp"

#include <algorithm>
#include <bit>

#include "lessons/reduction_performance/kernels.hpp"

namespace coop::lessons::reduction_performance {
namespace {

// input, n, total: one atomicAdd per block into *total (zero it first).
using AtomicKernel = decltype(Kernels::seed_atomic);

// [SECTION] The table

enum class Kind {
  SeedAtomic,
  SeedGroup,
  SeedGridSync,
  SeedTile32,
  Interleaved,
  Sequential,
  FirstAdd,
  LastWarp,
  GridStride,
  TileReduce,
  VectorLoads,
  Tuned,
};

struct Entry {
  Kind kind;
  VariantInfo info;
};

const std::vector<Entry>& entries() {
  using F = Family;
  using G = GridRule;
  constexpr LaunchMode N = LaunchMode::Normal, C = LaunchMode::Cooperative;
  static const std::vector<Entry> table = {
      {Kind::SeedAtomic,
       {"seed-atomic", "Seed 1: block tree + atomicAdd",
        "one element per thread, a shared-memory tree per block, one atomicAdd per block", F::Seed,
        N, G::PerElement, 1, 64, true}},
      {Kind::SeedGroup,
       {"seed-group", "Seed 2: the tree over a thread_group",
        "the same tree written once for any cg::thread_group, here the block", F::Seed, N,
        G::PerElement, 1, 64, true}},
      {Kind::SeedGridSync,
       {"seed-grid-sync", "Seed 3: cooperative launch, grid.sync()",
        "block partial sums, grid.sync(), then one thread adds them", F::Seed, C, G::GridStride, 1,
        64, true}},
      {Kind::SeedTile32,
       {"seed-tile32", "Seed 4: grid.sync(), then a 32-thread tile",
        "as seed 3, but a 32-thread tile adds the partial sums with the group tree", F::Seed, C,
        G::GridStride, 1, 64, true}},
      {Kind::Interleaved,
       {"interleaved", "1. Interleaved addressing",
        "tid % (2s) == 0 picks the adders: divergent warps and a slow modulo", F::Progression, N,
        G::PerElement, 1, 64, true}},
      {Kind::Sequential,
       {"sequential", "2. Sequential addressing",
        "the first s threads add: whole warps work or skip, no bank conflicts", F::Progression, N,
        G::PerElement, 1, 64, true}},
      {Kind::FirstAdd,
       {"first-add", "3. First add during load",
        "each thread loads two elements and adds them: half the blocks", F::Progression, N,
        G::PerElement, 2, 64, true}},
      {Kind::LastWarp,
       {"last-warp", "4. Last warp with tile shuffles",
        "the last 64 values are added by one warp in registers, without barriers", F::Progression,
        N, G::PerElement, 2, 64, true}},
      {Kind::GridStride,
       {"grid-stride", "5. Several elements per thread",
        "a grid of a few blocks per SM walks the array; the tree runs once per block",
        F::Progression, N, G::GridStride, 1, 64, true}},
      {Kind::TileReduce,
       {"tile-reduce", "6. cg::reduce over 32-thread tiles",
        "warp-level cg::reduce replaces the shared-memory tree: one barrier", F::Progression, N,
        G::GridStride, 1, 32, false}},
      {Kind::VectorLoads,
       {"vector-loads", "7. float4 loads", "16-byte loads: four elements per load instruction",
        F::Progression, N, G::GridStride, 4, 32, false}},
      {Kind::Tuned,
       {"tuned", "Tuned for bandwidth",
        "four independent float4 loads in flight, last block adds the partial sums", F::Tuned, N,
        G::GridStride, 4 * 4, 32, false}},
  };
  return table;
}

const Entry& entry_of(const VariantInfo& v) {
  for (const Entry& e : entries())
    if (e.info.id == v.id) return e;
  return entries().front();  // unreachable for VariantInfo from variants()
}

GpuKernelEntry gpu_entry(Kind kind) {
  const Kernels& k = kernels();
  switch (kind) {
    case Kind::SeedAtomic:
      return k.seed_atomic.gpu;
    case Kind::SeedGroup:
      return k.seed_group.gpu;
    case Kind::SeedGridSync:
      return k.seed_grid_sync.gpu;
    case Kind::SeedTile32:
      return k.seed_tile32.gpu;
    case Kind::Interleaved:
      return k.interleaved_divergent.gpu;
    case Kind::Sequential:
      return k.sequential.gpu;
    case Kind::FirstAdd:
      return k.first_add.gpu;
    case Kind::LastWarp:
      return k.last_warp_shuffles.gpu;
    case Kind::GridStride:
      return k.grid_stride.gpu;
    case Kind::TileReduce:
      return k.tile_reduce.gpu;
    case Kind::VectorLoads:
      return k.vector_loads.gpu;
    case Kind::Tuned:
      return k.tuned.gpu;
  }
  return {};
}

const AtomicKernel* atomic_kernel(Kind kind) {
  const Kernels& k = kernels();
  switch (kind) {
    case Kind::SeedAtomic:
      return &k.seed_atomic;
    case Kind::SeedGroup:
      return &k.seed_group;
    case Kind::Interleaved:
      return &k.interleaved_divergent;
    case Kind::Sequential:
      return &k.sequential;
    case Kind::FirstAdd:
      return &k.first_add;
    case Kind::LastWarp:
      return &k.last_warp_shuffles;
    case Kind::GridStride:
      return &k.grid_stride;
    case Kind::TileReduce:
      return &k.tile_reduce;
    case Kind::VectorLoads:
      return &k.vector_loads;
    default:
      return nullptr;
  }
}

// kUnroll of reduction_performance.cu; only the error bound uses it here.
constexpr uint64_t kTunedAccumulators = 4;

uint64_t ceil_div(uint64_t a, uint64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}
uint64_t log2_ceil(uint64_t v) {
  return v <= 1 ? 0 : uint64_t(std::bit_width(v - 1));
}

}  // namespace

const char* to_string(Family family) {
  switch (family) {
    case Family::Seed:
      return "seed";
    case Family::Progression:
      return "progression";
    case Family::Tuned:
      return "tuned";
    case Family::Library:
      return "library";
  }
  return "?";
}

const std::vector<VariantInfo>& variants() {
  static const std::vector<VariantInfo> list = [] {
    std::vector<VariantInfo> v;
    for (const Entry& e : entries()) v.push_back(e.info);
    return v;
  }();
  return list;
}

const VariantInfo* find_variant(std::string_view id) {
  for (const VariantInfo& v : variants())
    if (v.id == id) return &v;
  return nullptr;
}

std::string variant_ids() {
  std::string out;
  for (const VariantInfo& v : variants()) out += (out.empty() ? "" : ", ") + v.id;
  return out;
}

// [SECTION] Buffers and launches

Result<ReduceBuffers> make_buffers(Executor& exec, size_t n, size_t max_grid) {
  ReduceBuffers b;
  b.n = n;
  auto input = DeviceArray<float>::create(exec, n, "input");
  auto partials = DeviceArray<float>::create(exec, std::max<size_t>(max_grid, 1), "partials");
  auto done = DeviceArray<unsigned>::create(exec, 1, "blocks_done");
  auto total = DeviceArray<float>::create(exec, 1, "total");
  for (Status s : {input.status(), partials.status(), done.status(), total.status()})
    if (!s.ok()) return s;
  b.input = std::move(*input);
  b.partials = std::move(*partials);
  b.blocks_done = std::move(*done);
  b.total = std::move(*total);
  if (Status s = b.blocks_done.zero(); !s) return s;
  return b;
}

Status check_block(const VariantInfo& v, uint32_t block) {
  if (block < v.min_block || block > 1024)
    return Status::error(v.id + " needs a block of " + std::to_string(v.min_block) +
                         " to 1024 threads: got " + std::to_string(block));
  if (v.power_of_two_block && (block & (block - 1)) != 0)
    return Status::error(v.id +
                         " halves the block each round, so it needs a power-of-two block: "
                         "got " +
                         std::to_string(block));
  if (block % 32 != 0)
    return Status::error(v.id + " works in whole warps: the block must be a multiple of 32, got " +
                         std::to_string(block));
  return {};
}

KernelResources variant_resources(const VariantInfo& v, Executor& exec) {
  const Entry& e = entry_of(v);
  return exec.resources(gpu_entry(e.kind), v.id.c_str());
}

Result<LaunchConfig> variant_config(const VariantInfo& v, const DeviceProps& device,
                                    const KernelResources& resources, uint64_t n, uint32_t block,
                                    uint32_t grid) {
  if (Status s = check_block(v, block); !s) return s;
  if (n == 0) return Status::error("n must be at least 1");
  LaunchConfig c;
  c.block = {block, 1, 1};
  c.mode = v.mode;
  uint64_t blocks = 0;
  if (v.grid_rule == GridRule::PerElement) {
    blocks = ceil_div(n, uint64_t(v.per_thread) * block);
  } else if (grid != 0) {
    blocks = grid;
  } else {
    // One full wave: more blocks would only wait for a free SM, fewer would leave SMs idle.
    const uint64_t resident = max_cooperative_blocks(c, device, resources);
    blocks = std::min(resident, ceil_div(n, uint64_t(v.per_thread) * block));
  }
  if (blocks == 0) blocks = 1;
  if (blocks > device.max_grid_dims.x)
    return Status::error(v.id + " needs " + std::to_string(blocks) +
                         " blocks for n = " + std::to_string(n) + ", more than the grid limit " +
                         std::to_string(device.max_grid_dims.x));
  c.grid = {uint32_t(blocks), 1, 1};
  return c;
}

Result<LaunchConfig> variant_config(const VariantInfo& v, Executor& exec, uint64_t n,
                                    uint32_t block, uint32_t grid) {
  return variant_config(v, exec.device(), variant_resources(v, exec), n, block, grid);
}

Status launch_variant(const VariantInfo& v, Executor& exec, const LaunchConfig& config,
                      ReduceBuffers& b, Trace& trace) {
  const Entry& e = entry_of(v);
  if (b.partials.size() < config.grid.x && e.info.grid_rule == GridRule::GridStride)
    return Status::error("partials holds " + std::to_string(b.partials.size()) +
                         " blocks, the grid has " + std::to_string(config.grid.x));
  const Kernels& k = kernels();
  const float* in = b.input.get();
  if (const AtomicKernel* kernel = atomic_kernel(e.kind)) {
    if (Status s = b.total.zero(); !s) return s;
    return exec.launch(*kernel, config, trace, in, b.n, b.total.get());
  }
  switch (e.kind) {
    case Kind::SeedGridSync:
      return exec.launch(k.seed_grid_sync, config, trace, in, b.n, b.partials.get(), b.total.get());
    case Kind::SeedTile32:
      return exec.launch(k.seed_tile32, config, trace, in, b.n, b.partials.get(), b.total.get());
    case Kind::Tuned:
      return exec.launch(k.tuned, config, trace, in, b.n, b.partials.get(), b.blocks_done.get(),
                         b.total.get());
    default:
      return Status::error("no launcher for " + v.id);
  }
}

Result<float> run_variant(const VariantInfo& v, Executor& exec, const LaunchConfig& config,
                          ReduceBuffers& b, Trace& trace) {
  if (Status s = launch_variant(v, exec, config, b, trace); !s) return s;
  Result<std::vector<float>> total = b.total.download();
  if (!total) return total.status();
  return total->at(0);
}

// [SECTION] Accuracy

uint64_t addition_depth(const VariantInfo& v, uint64_t n, const LaunchConfig& config) {
  const uint64_t block = config.block.x, grid = config.grid.x;
  const uint64_t tree = log2_ceil(block);                 // rounds of a block tree
  const uint64_t per_thread = ceil_div(n, grid * block);  // grid-stride steps of one thread
  const uint64_t warp_trees = 2 * 5;                      // cg::reduce in a warp, then over warps
  switch (entry_of(v).kind) {
    case Kind::SeedAtomic:
    case Kind::SeedGroup:
    case Kind::Interleaved:
    case Kind::Sequential:
      return tree + grid;  // atomics add block sums in sequence
    case Kind::FirstAdd:
    case Kind::LastWarp:
      return 1 + tree + grid;
    case Kind::SeedGridSync:
      return per_thread + tree + grid;
    case Kind::SeedTile32:
      return per_thread + tree + ceil_div(grid, 32) + 5;
    case Kind::GridStride:
      return per_thread + tree + grid;
    case Kind::TileReduce:
      return per_thread + warp_trees + grid;
    case Kind::VectorLoads:
      return ceil_div(per_thread, 4) + 3 + warp_trees + grid;
    case Kind::Tuned:
      // Accumulator chain and tail, float4 halves, the kUnroll accumulators, the block, then the
      // last block's loop over the partial sums and its block sum.
      return ceil_div(per_thread, 4) + 1 + 2 + kTunedAccumulators + warp_trees +
             ceil_div(grid, block) + warp_trees;
  }
  return n;
}

uint64_t cub_addition_depth(uint64_t n, int sm_count) {
  return ceil_div(n, uint64_t(std::max(sm_count, 1)) * 128) + 256;
}

}  // namespace coop::lessons::reduction_performance
