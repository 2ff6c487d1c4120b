#include "visual/synthetic_trace.hpp"

#include <algorithm>
#include <tuple>

#include "device/trace/value.hpp"

namespace coop::visual {
namespace {

// The kernel the synthetic events pretend to come from; the line constants below point into it.
constexpr const char* kSource =
    "// Synthetic: a block reduction made up for the visual demo and the frame benchmark.\n"
    "__global__ void synthetic_reduce(const int* input, int* total, int* count) {\n"
    "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  cg::thread_block block = cg::this_thread_block();\n"
    "  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
    "  int val = traced(input[i]);\n"
    "  for (int round = 0; round < rounds; ++round) {\n"
    "    block.sync();  // every write of the round is visible\n"
    "    block.sync();  // every read of the round is done\n"
    "  }\n"
    "  for (int offset = 16; offset > 0; offset /= 2)\n"
    "    val += tile.shfl_down(val, offset);\n"
    "  if (tile.thread_rank() == 0) {\n"
    "    atomicAdd(total, val);\n"
    "    traced(*count) = traced(*count) + 1;  // not atomic: updates get lost\n"
    "  }\n"
    "}\n";
constexpr uint16_t kLineBlock = 4, kLineTile = 5, kLineLoad = 6, kLineSyncWrite = 8,
                   kLineSyncRead = 9, kLineShfl = 12, kLineAtomic = 14, kLineRace = 15;
constexpr uint64_t kInputBase = 0x10000, kTotalAddress = 0x80000, kCountAddress = 0x80004;
constexpr uint32_t kWindow = 4;  // blocks interleaved at a time, as on the emulator

}  // namespace

Trace make_synthetic_trace(const SyntheticTraceSpec& spec) {
  const uint32_t block_threads = std::max(32u, spec.block_threads / 32 * 32);
  const uint32_t warps = block_threads / 32;
  const uint32_t blocks = std::max(1u, spec.blocks);
  Trace trace;
  TraceHeader& h = trace.header;
  h.lesson = "synthetic";
  h.kernel = "synthetic_reduce";
  h.backend = Backend::Emu;
  h.device.name = "synthetic device";
  h.launch.grid = {blocks, 1, 1};
  h.launch.block = {block_threads, 1, 1};
  h.source_file = "synthetic.cuh";
  h.source = kSource;
  h.schedule = "synthetic: " + std::to_string(kWindow) + " blocks interleaved";
  h.buffers = {
      {"input", kInputBase, uint64_t(blocks) * block_threads * 4, ValueType::I32, 4, false},
      {"total", kTotalAddress, 4, ValueType::I32, 4, false},
      {"count", kCountAddress, 4, ValueType::I32, 4, false}};

  // Steps every warp takes; a step lasts warps + 1 clock ticks and warp w acts at tick w, so
  // early warps visibly wait at each barrier for the late ones.
  const uint32_t steps = 3 + 2 * spec.rounds + 5 + 3;
  const uint64_t tick = warps + 1;
  EventVector& ev = trace.events;
  ev.reserve(size_t(blocks) * block_threads * (3 + 2 * spec.rounds + 5) + blocks * warps * 3);
  for (uint32_t b = 0; b < blocks; ++b) {
    const uint64_t t0 = uint64_t(b / kWindow) * steps * tick + b % kWindow;
    for (uint32_t w = 0; w < warps; ++w) {
      int32_t vals[32];
      for (uint32_t lane = 0; lane < 32; ++lane) {
        const uint32_t rank = w * 32 + lane;
        const uint32_t thread = b * block_threads + rank;
        vals[lane] = int32_t(thread % 7 + 1);
        auto base = [&](EventKind kind, uint32_t step, uint16_t line) {
          Event e{};
          e.kind = kind;
          e.thread = thread;
          e.time = t0 + step * tick + w;
          e.line = line;
          e.group_kind = GroupKind::Thread;
          e.group_size = 1;
          return e;
        };
        Event e = base(EventKind::GroupCreate, 0, kLineBlock);
        e.group_kind = GroupKind::Block;
        std::tie(e.group_id, e.rank, e.group_size, e.extra) =
            std::tuple(b, rank, block_threads, pack_meta(0, 1));
        ev.push_back(e);
        e = base(EventKind::GroupCreate, 1, kLineTile);
        e.group_kind = GroupKind::Tile;
        std::tie(e.group_id, e.rank, e.group_size, e.extra) =
            std::tuple(w, lane, 32u, pack_meta(w, warps));
        ev.push_back(e);
        e = base(EventKind::Load, 2, kLineLoad);
        e.address = kInputBase + uint64_t(thread) * 4;
        e.b = to_bits(vals[lane]);
        e.value_type = ValueType::I32;
        ev.push_back(e);
        for (uint32_t r = 0; r < 2 * spec.rounds; ++r) {
          e = base(EventKind::Barrier, 3 + r, r % 2 ? kLineSyncRead : kLineSyncWrite);
          e.group_kind = GroupKind::Block;
          std::tie(e.group_id, e.rank, e.group_size) = std::tuple(b, rank, block_threads);
          e.b = t0 + (3 + r) * tick + warps;  // everyone leaves when the last warp arrived
          ev.push_back(e);
        }
      }
      // The tile's shfl_down tree, computed for real so the values add up.
      for (uint32_t k = 0, offset = 16; offset > 0; ++k, offset /= 2) {
        int32_t next[32];
        for (uint32_t lane = 0; lane < 32; ++lane) {
          const int32_t got = lane + offset < 32 ? vals[lane + offset] : vals[lane];
          Event e{};
          e.kind = EventKind::Collective;
          e.op = Op::ShflDown;
          e.thread = b * block_threads + w * 32 + lane;
          e.time = t0 + (3 + 2 * spec.rounds + k) * tick + w;
          e.line = kLineShfl;
          e.group_kind = GroupKind::Tile;
          std::tie(e.group_id, e.rank, e.group_size, e.extra) = std::tuple(w, lane, 32u, offset);
          e.a = to_bits(vals[lane]);
          e.b = to_bits(got);
          e.value_type = ValueType::I32;
          ev.push_back(e);
          next[lane] = vals[lane] + got;
        }
        std::copy(next, next + 32, vals);
      }
      // Lane 0: the atomic, then the racy read-modify-write (values filled in landing order).
      const uint32_t lane0 = b * block_threads + w * 32;
      const uint64_t after = t0 + (3 + 2 * spec.rounds + 5) * tick + w;
      Event e{};
      e.thread = lane0;
      e.group_kind = GroupKind::Thread;
      e.group_size = 1;
      e.value_type = ValueType::I32;
      e.kind = EventKind::Atomic;
      e.op = Op::AtomicAdd;
      e.flags = kFlagNondeterministic;
      e.address = kTotalAddress;
      e.a = to_bits(vals[0]);
      e.time = after;
      e.line = kLineAtomic;
      ev.push_back(e);
      if (spec.racy_counter) {
        e.op = Op::None;
        e.flags = 0;
        e.address = kCountAddress;
        e.a = 0;
        e.kind = EventKind::Load;
        e.time = after + tick;
        e.line = kLineRace;
        ev.push_back(e);
        e.kind = EventKind::Store;
        e.time = after + 2 * tick;
        ev.push_back(e);
      }
    }
  }
  // Sequence numbers follow time (ties by thread), as a recorder would accept them.
  std::sort(ev.begin(), ev.end(), [](const Event& x, const Event& y) {
    return std::tie(x.time, x.thread, x.kind) < std::tie(y.time, y.thread, y.kind);
  });
  int32_t total = 0, memory_count = 0;
  std::vector<int32_t> loaded(size_t(blocks) * block_threads, 0);
  for (size_t i = 0; i < ev.size(); ++i) {
    Event& e = ev[i];
    e.sequence = uint32_t(i);
    if (e.kind == EventKind::Atomic) {
      e.b = to_bits(total);  // old value: the order the atomics landed
      total += from_bits<int32_t>(e.a);
    } else if (e.address == kCountAddress && e.kind == EventKind::Load) {
      loaded[e.thread] = memory_count;
      e.b = to_bits(memory_count);
    } else if (e.address == kCountAddress && e.kind == EventKind::Store) {
      memory_count = loaded[e.thread] + 1;
      e.a = to_bits(memory_count);
    }
  }
  h.capacity = h.attempts = ev.size();
  finalize_trace(trace);
  return trace;
}

}  // namespace coop::visual
