// The one trace record, shared verbatim by nvcc (GPU recorder) and the host compiler (emulator,
// file I/O, visualizer). It is a fixed-size POD so a GPU can write it with four 16-byte stores and
// a file can hold it as raw bytes.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define COOP_HD __host__ __device__
#else
#define COOP_HD
#endif

namespace coop {

// What happened. Each kind documents which Event fields it uses; unused fields are zero.
enum class EventKind : uint8_t {
  None = 0,
  GroupCreate = 1,    // rank/group_size/group_id of the new group; extra = meta rank | meta size << 16
  Barrier = 2,        // sync(): time = arrival, b = departure time, extra = phase (1-based)
  BarrierArrive = 3,  // barrier_arrive(): extra = phase
  BarrierWait = 4,    // barrier_wait(): time = wait start, b = departure time, extra = phase
  Collective = 5,     // reduce/scan/shfl/vote/match: op says which; a = input, b = output
  InvokeOne = 6,      // invoke_one(_broadcast): extra = rank of the chosen thread, b = broadcast value
                      // (0 for invoke_one); a = 1 on the chosen thread
  Atomic = 7,         // op says which; address; a = operand, b = old value (gives landing order)
  Load = 8,           // traced load: address; b = value read
  Store = 9,          // traced store: address; a = value written
  CopyIssue = 10,     // memcpy_async issued: address = destination, a = source address,
                      // extra = bytes the whole group copies
  CopyWait = 11,      // wait/wait_prior<N>: time = wait start, b = departure time, extra = N (the
                      // batches allowed to stay in flight; 0 for wait)
  ThreadBegin = 12,   // first event of a thread in a launch: extra = SM id (GPU) or emulated SM
  ThreadEnd = 13,     // last event of a thread
  Note = 14,          // free-form value a lesson records for the view: a = value, op = lesson tag
  Fault = 15,         // the thread stopped here on an error that ended the launch (the run's
                      // report says which); recorded with kFlagStuck by the emulator only
  Fence = 16,         // __threadfence(): recorded by the emulator only, with its memory recording
                      // (kFlagInstrumented; group_id = code address, as its loads and stores)
  Count
};

// Which kind of group an event refers to (group_kind field).
enum class GroupKind : uint8_t {
  None = 0,
  Thread = 1,     // a single thread (no group)
  Block = 2,      // this_thread_block()
  Grid = 3,       // this_grid()
  Cluster = 4,    // this_cluster()
  Tile = 5,       // tiled_partition (runtime size or thread_block_tile<N>)
  Coalesced = 6,  // coalesced_threads(); group_id holds the member mask within the warp
  Labeled = 7,    // labeled_partition; group_id = label
  Binary = 8,     // binary_partition; group_id = 0 or 1
  Stride = 9,     // stride_partition (coop's own); group_id = residue class
  Warp = 10,      // raw warp intrinsics (__shfl_sync and friends)
  Barrier = 11,   // a cuda::barrier object, or a cuda::pipeline stage's; group_id = its offset in
                  // the block's shared memory (laid out freely by each backend, so traces compare
                  // it as free), group_size = the count given at init, rank = thread rank in block;
                  // the emulator puts the barrier's own phase + 1 in `a` of its arrive, wait and
                  // arrive_and_wait events (one thread may wait on a phase it never arrived in)
  Count
};

// Sub-operation of Collective and Atomic events (op field).
enum class Op : uint8_t {
  None = 0,
  // reduce / scan operators
  Plus = 1,
  Less = 2,
  Greater = 3,
  BitAnd = 4,
  BitOr = 5,
  BitXor = 6,
  // collectives (operator of reduce/scan goes in extra)
  Reduce = 16,
  InclusiveScan = 17,
  ExclusiveScan = 18,
  Shfl = 19,
  ShflUp = 20,
  ShflDown = 21,
  ShflXor = 22,
  Any = 23,
  All = 24,
  Ballot = 25,
  MatchAny = 26,
  MatchAll = 27,
  // atomics
  AtomicAdd = 40,
  AtomicSub = 41,
  AtomicMin = 42,
  AtomicMax = 43,
  AtomicExch = 44,
  AtomicCas = 45,
  AtomicAnd = 46,
  AtomicOr = 47,
  AtomicXor = 48,
  AtomicInc = 49,
  AtomicDec = 50,
  AtomicLoad = 51,
  AtomicStore = 52,
};

// How to read the raw bits of Event::a and Event::b.
enum class ValueType : uint8_t { None = 0, I32, U32, I64, U64, F32, F64, Bool, Mask };

// Event::flags bits.
enum EventFlag : uint16_t {
  kFlagShared = 1u << 0,  // address is an offset in the block's shared memory
  kFlagNondeterministic =
      1u << 1,                // hardware may legally differ from run to run (invoke_one, atomics)
  kFlagScopeBlock = 1u << 2,  // atomic scope (none of the three: device scope)
  kFlagScopeSystem = 1u << 3,
  kFlagOrderRelaxed = 1u << 4,  // memory order of an atomic_ref operation
  kFlagOrderAcquire = 1u << 5,
  kFlagOrderRelease = 1u << 6,
  kFlagOrderSeqCst = 1u << 7,
  kFlagCluster = 1u << 8,      // address is in another block of the cluster (distributed smem):
                               // see cluster_address()
  kFlagScopeThread = 1u << 9,  // atomic scope cuda::thread_scope_thread
  kFlagStuck = 1u << 10,       // the thread waits here forever (a deadlock): the call it is in
                               // (kind, group, line) never completed; b is 0
};

struct Event {
  uint64_t time;        // ns from %globaltimer (GPU) or logical step count (emulator)
  uint64_t a;           // operand / input bits (see kind)
  uint64_t b;           // result / output bits, or departure time for barrier kinds
  uint64_t address;     // memory address, or shared-memory offset when kFlagShared (with
                        // kFlagCluster: cluster_address())
  uint32_t sequence;    // order in which the recorder accepted the event within its launch
  uint32_t thread;      // grid-wide linear thread id: block_linear * block_threads + thread_linear
  uint32_t group_id;    // which group of group_kind (tile index, label, coalesced mask, ...)
  uint32_t rank;        // thread_rank() of the thread in that group
  uint32_t group_size;  // num_threads() of that group
  uint32_t extra;       // kind-specific (phase, meta group, chosen rank, byte count, ...)
  uint16_t line;        // source line in the lesson kernel file
  EventKind kind;
  Op op;
  GroupKind group_kind;
  ValueType value_type;
  uint16_t flags;
};

// An access to another block's shared memory (distributed shared memory, kFlagCluster) keeps the
// owning block's linear index in the address's upper 32 bits and the offset in that block's shared
// memory in the lower 32.
inline uint64_t cluster_address(uint32_t owner_block, uint64_t offset) {
  return uint64_t(owner_block) << 32 | (offset & 0xffffffffu);
}
// Whether an access lies in shared memory: its own block's, or another's of its cluster.
inline bool in_shared_memory(const Event& e) {
  return e.flags & (kFlagShared | kFlagCluster);
}
// The block whose shared memory a shared access lies in, and the offset there.
inline uint32_t shared_owner(const Event& e, uint32_t block_threads) {
  return e.flags & kFlagCluster ? uint32_t(e.address >> 32) : e.thread / block_threads;
}
inline uint64_t shared_offset_of(const Event& e) {
  return e.flags & kFlagCluster ? e.address & 0xffffffffu : e.address;
}

static_assert(sizeof(Event) == 64, "Event must stay 64 bytes: GPU writes it as 4 x 16 B");
static_assert(std::is_trivially_copyable_v<Event>);
static_assert(std::is_standard_layout_v<Event>);

// Kinds whose Event::b is a time (the departure from a barrier or a copy wait), not a value.
COOP_HD constexpr bool records_departure(EventKind k) {
  return k == EventKind::Barrier || k == EventKind::BarrierWait || k == EventKind::CopyWait;
}

// extra field of GroupCreate: meta_group_rank in the low half, meta_group_size in the high half.
COOP_HD constexpr uint32_t pack_meta(uint32_t meta_rank, uint32_t meta_size) {
  return (meta_rank & 0xffffu) | (meta_size << 16);
}
COOP_HD constexpr uint32_t meta_rank_of(uint32_t extra) { return extra & 0xffffu; }
COOP_HD constexpr uint32_t meta_size_of(uint32_t extra) { return extra >> 16; }

// Where a GPU or emulator recorder writes: a fixed-capacity array plus a counter of attempts.
// Events past the capacity are counted (dropped = attempts - capacity) but never written.
struct TraceSink {
  Event* events;                  // capacity slots
  unsigned long long* attempts;   // number of events ever offered (may exceed capacity)
  unsigned long long capacity;
  uint32_t block_threads;         // threads per block, to linearize thread ids
  uint32_t enabled;               // 0: record nothing (untraced timing runs)
};

}  // namespace coop
