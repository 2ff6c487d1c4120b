#include "app/bench/reduce/variants.hpp"

#include <algorithm>

#include "lessons/reduction_performance/kernels.hpp"

namespace coop::lessons::reduction_performance {
namespace {

// input, n, total: one atomicAdd per block into *total (zero it first).
using AtomicKernel = decltype(Kernels::seed_atomic);

// [SECTION] The table

// In reduction::kVariants' order, so a Kind is also the variant's index there.
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

Family family_of(reduction::Family f) {
  return f == reduction::kSeed ? Family::Seed : f == reduction::kTuned ? Family::Tuned
                                                                        : Family::Progression;
}

// The lesson program's table (reduction_variants.h) as the benchmark describes a variant.
const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = [] {
    std::vector<Entry> t;
    for (int k = 0; k < reduction::kVariantCount; ++k) {
      const reduction::Variant& v = reduction::kVariants[k];
      t.push_back({Kind(k),
                   {v.id, v.title, v.idea, family_of(v.family),
                    v.cooperative ? LaunchMode::Cooperative : LaunchMode::Normal,
                    v.grid_rule == reduction::kGridStride ? GridRule::GridStride
                                                          : GridRule::PerElement,
                    v.per_thread, v.min_block, v.power_of_two_block}});
    }
    return t;
  }();
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
  const std::string why = reduction::check_block(reduction::kVariants[int(entry_of(v).kind)], block);
  return why.empty() ? Status{} : Status::error(why);
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
    blocks = reduction::ceil_div(n, uint64_t(v.per_thread) * block);
  } else if (grid != 0) {
    blocks = grid;
  } else {
    // One full wave: more blocks would only wait for a free SM, fewer would leave SMs idle.
    const uint64_t resident = max_cooperative_blocks(c, device, resources);
    blocks = std::min(resident, reduction::ceil_div(n, uint64_t(v.per_thread) * block));
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
  return reduction::addition_depth(int(entry_of(v).kind), n, config.grid.x, config.block.x);
}

}  // namespace coop::lessons::reduction_performance
