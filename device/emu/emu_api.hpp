// The emulator's contract with kernel code: what a traced call (coop::cg on the host) may ask of
// the scheduler. Every function here is called from inside an emulated thread's fiber.
//
// Execution model (see scheduler.cpp): each CUDA thread is a fiber; a warp's lanes run in
// lock-step between *step points*. A step point is either
//   - a plain step (atomics, traced loads/stores, coalesced_threads): lanes waiting at the same
//     source site are released together as one "instruction", so they all read before any writes;
//   - a rendezvous (barriers and collectives): the lane waits until every member of its group has
//     arrived at the same call, then a resolver computes all members' results at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "device/launch/dims.hpp"
#include "device/trace/event.hpp"

// coop's own kernel-side code that builds events and calls the emulator (device/emu/cg): kept
// out of the memory instrumentation (memory_record.hpp), whose hooks would otherwise be called
// for every field it writes in the thread's frame, recording or not. GCC calls such a function
// from an instrumented kernel instead of inlining it, which costs far less.
#define COOP_EMU_UNRECORDED __attribute__((no_sanitize("thread")))

namespace coop::emu {

// Identity of the running thread, readable without a scheduler round trip.
// What kernels read most (their indices, and a block barrier's group) fills the first 64 bytes.
struct ThreadInfo {
  Dim3 thread_idx;          // threadIdx
  Dim3 block_idx;           // blockIdx
  Dim3 block_dim;           // blockDim
  Dim3 grid_dim;            // gridDim
  uint32_t thread_rank;     // linear index within the block
  uint32_t block_rank;      // linear index of the block within the grid
  uint32_t block_threads;   // threads per block
  uint32_t global_id;       // grid-wide linear id (the trace's Event::thread)
  Dim3 cluster_dim;         // cluster dimensions in blocks (1,1,1 without clusters)
  uint32_t lane;            // thread_rank % 32
  uint32_t warp;            // thread_rank / 32
  uint32_t warp_size_here;  // lanes in this thread's warp (last warp may be partial)
  uint32_t sm;              // the SM this block was placed on by the emulated scheduler
  bool cooperative;         // launched with cudaLaunchCooperativeKernel semantics
};

inline thread_local const ThreadInfo* t_thread = nullptr;
inline const ThreadInfo& this_thread() { return *t_thread; }

// Which threads form a group, for rendezvous matching and deadlock reports.
struct GroupRef {
  GroupKind kind = GroupKind::Block;
  uint32_t id = 0;          // Event::group_id
  uint32_t rank = 0;        // calling thread's rank in the group
  uint32_t size = 0;        // number of members
  uint64_t key = 0;         // identity of the member set within its scope
  bool launch_scope = false;  // grid and cluster groups span blocks
  uint32_t warp_mask = 0;   // members within the caller's warp when the group fits in one warp
};

// One thread's part in a collective operation.
struct CollectiveCall;
using Resolver = void (*)(std::span<CollectiveCall* const> by_rank);

struct CollectiveCall {
  GroupRef group;
  uint16_t line = 0;
  Op op = Op::None;            // what is being done, for mismatch checks and reports
  EventKind kind = EventKind::Barrier;
  const char* what = "";       // "sync()", "reduce()", ... for reports
  Resolver resolve = nullptr;  // null: a pure barrier
  uint64_t in = 0;             // this thread's input bits
  uint64_t arg = 0;            // per-thread argument (source lane, delta, label, ...)
  uint64_t shared_arg = 0;     // argument all members must agree on (operator, tile size, ...)
  uint64_t out = 0;            // result bits, written by the resolver
  uint64_t out2 = 0;           // second result (e.g. match_all predicate, label group size)
  // A value over 8 bytes (a uint4 shuffled): in holds its address, the resolver puts the address
  // of the value this member receives in out, and the bytes are copied to wide_out before any
  // member goes on (the values live in the members' suspended frames).
  uint32_t wide_bytes = 0;
  void* wide_out = nullptr;
  uint64_t arrive_time = 0;
  uint64_t depart_time = 0;
  // Whether the launch records events, set on arrival: an untraced launch's members go on
  // without building the event they would record (a third of a barrier's cost otherwise).
  bool traced = true;

  CollectiveCall() = default;
  // Member by member: g++ zeroes an aggregate with `rep stos` before filling it in, which cost
  // a twentieth of an untraced launch's barriers. Unrecorded, as the cg code that builds it: an
  // instrumented constructor is not inlined there, and calls a hook for every member it sets.
  COOP_EMU_UNRECORDED CollectiveCall(const GroupRef& group, uint16_t line, Op op, EventKind kind,
                                     const char* what, Resolver resolve, uint64_t in, uint64_t arg,
                                     uint64_t shared_arg, uint32_t wide_bytes, void* wide_out)
      : group(group), line(line), op(op), kind(kind), what(what), resolve(resolve), in(in),
        arg(arg), shared_arg(shared_arg), wide_bytes(wide_bytes), wide_out(wide_out) {}
};

// Result of a plain step: which lanes of the warp executed it together, and when.
struct PlainStep {
  uint32_t mask;   // lanes released together (the active mask at this instruction)
  uint64_t time;   // logical time of the release
};

// Waits at a plain step point identified by (line, op); returns the lanes released with it.
PlainStep step_plain(uint16_t line, Op op);

// Arrives at a rendezvous with the other members of call.group; returns once all have arrived
// and (if given) the resolver has filled call.out. Reports deadlock or mismatch instead of hanging.
void rendezvous(CollectiveCall& call);

// Notes that the calling thread made a partition of `parent` at `line` (a tile of at most 32
// threads, which each thread computes alone: no meeting). Every member of the parent must make
// it; when the block finishes, a member that did not is reported, naming the line and threads.
void note_partition(const GroupRef& parent, uint16_t line, const char* what);

// Split barrier: arrive returns at once with the phase token; wait blocks until that phase of
// the group's barrier has been reached by every member. kOldestToken waits on the calling thread's
// oldest open arrival on the group (cluster_group::barrier_wait() takes no token).
inline constexpr uint64_t kOldestToken = ~0ull;
uint64_t split_arrive(const GroupRef& group, uint16_t line);
void split_wait(const GroupRef& group, uint64_t token, uint16_t line, uint64_t* arrive_time,
                uint64_t* depart_time);

// Marks the group as having an outstanding split-barrier arrival by this thread, so that a
// collective on the group before the matching wait is reported as misuse.
bool split_pending(const GroupRef& group);

// Records an event for the calling thread; fills sequence and thread.
void record(Event& event);
// The same for thread `thread` of the launch (the scheduler recording for a suspended lane).
void record_as(uint32_t thread, Event& event);

// An atomic of `bytes` at `p` by the calling thread at `line`, checked as a load and a store are
// when the launch checks memory (memory_checks.hpp); `overwrites` when the old value does not
// matter (a store, an exchange), so that it may initialise memory.
void check_atomic(const void* p, uint32_t bytes, bool overwrites, int line);

// A library's store of `bytes` at `p` by the calling thread, made by code compiled without the
// instrumentation so as to stay out of the trace (the emulator's CUB primitives): the bytes count
// as written for the launch's initialisation check, as an instrumented store's would, and nothing
// is recorded. On the host (a device-wide call run there) it is the host's write.
void library_wrote(const void* p, size_t bytes);

// A library's read of `bytes` at `p` in program memory, made by `call` (the emulator's CUB: code
// compiled without the instrumentation, or a device-wide call's reads on the host): with memory
// checked, bytes nothing wrote stop the program as a thread's read of them would, the report
// naming `call` and the program's line of it (`file` and `line`, or, when `file` is null, the
// innermost frame of the program's own code on the call stack). In a kernel it is the calling
// thread's read; on the host, the library's.
void library_read(const void* p, size_t bytes, const char* call, const char* file = nullptr,
                  unsigned line = 0);

// The current logical time (the order of events, not a clock a kernel reads).
uint64_t now();

// [SECTION] Modelled time (modelled_time.hpp): what a kernel's clock reads see. `line` is where
// the kernel reads it, for reports of where a thread was.
// clock64(): the calling thread's SM cycle count; a run of reads with nothing else between them
// is a spin-wait, and each read moves the count on further.
uint64_t clock_cycles(uint16_t line);
// %globaltimer: ns, the same count at the emulated device's clock rate.
uint64_t globaltimer_ns(uint16_t line);
// __nanosleep(ns): the thread's clock moves on by at least `ns`, and other threads get a turn.
void nanosleep_for(uint64_t ns, uint16_t line);
// Whether the caller is an emulated thread (host code reading clock() gets the C library's).
bool in_emulated_thread();

// Stops the launch with an error naming the line (the emulator's "trap").
[[noreturn]] void fault(const std::string& message, uint16_t line);

// Per-declaration key of a __shared__ variable (the lowering tool creates one per declaration).
struct SharedSlot {
  const char* name;
  uint16_t line;
};

// The calling block's copy of a __shared__ variable of `bytes` bytes (an array of elements of
// `element_size` bytes: fault reports name s[-1] rather than a byte offset).
void* shared_variable(const SharedSlot& slot, size_t bytes, size_t align, size_t element_size = 1);

// The calling block's dynamic shared memory (extern __shared__), `dynamic_smem` bytes; `name` and
// the element size are the declaration's, for fault reports.
void* dynamic_shared(const char* name = nullptr, size_t element_size = 1);

// Offset of a pointer inside the calling block's shared memory, or -1 if it is not shared.
int64_t shared_offset(const void* p);

// Where `p` lies if it is in the shared memory of another resident block (distributed shared
// memory, reached through map_shared_rank): that block's linear index and the offset there.
bool other_block_shared(const void* p, uint32_t* block, uint64_t* offset);

// Pointer to the same shared offset in another block of the calling thread's cluster.
void* map_shared_rank(const void* p, uint32_t cluster_rank, uint16_t line);

// Block rank within the calling thread's cluster of the block whose shared memory holds `p`.
uint32_t query_shared_rank(const void* p, uint16_t line);

// One thread's share of a memcpy_async: bytes it will copy when its batch completes.
struct AsyncCopy {
  void* dst;
  const void* src;
  size_t bytes;
};

// Commits the calling thread's copies of one memcpy_async call as one batch (cp.async's commit
// group). The copies land when the thread waits for the batch, which is one legal moment: a GPU
// may land them any time before the wait returns, so reading the destination early is a race.
void async_copy_commit(const AsyncCopy* copies, size_t count);

// Lands all but the `keep` newest batches of the calling thread; returns how many stay pending.
uint32_t async_copy_wait(uint32_t keep);

// Copies issued without a commit (cp.async before cp.async.commit_group): they stay with the
// calling thread until async_copy_commit_staged makes them one batch, or a barrier takes them.
void async_copy_stage(const AsyncCopy* copies, size_t count);
void async_copy_commit_staged();

// [SECTION] cuda::barrier objects (also the stages of a cuda::pipeline). A barrier is an arrival
// count with phases, kept by the scheduler under the object's offset in the block's shared memory
// (the emulator supports barriers in __shared__ memory, where CUDA programs put them).

// init(&bar, expected): a fresh barrier in phase 0 expecting `expected` arrivals per phase.
void barrier_init(const void* bar, uint32_t expected, uint16_t line);
// The count given at init, for the trace; faults on a barrier that was never initialised.
uint32_t barrier_expected(const void* bar, uint16_t line);
// Arrives `count` times and returns the phase the arrivals belong to. `drop` also lowers the count
// of every later phase by `count` (arrive_and_drop). The arrival that completes a phase runs
// on_complete(context) first (the barrier's completion function), then lands the phase's copies
// and releases its waiters.
uint64_t barrier_arrive(const void* bar, uint32_t count, bool drop, uint16_t line,
                        void (*on_complete)(void*) = nullptr, void* context = nullptr);
// Blocks until phase `phase` of the barrier has completed (at once if it has); `what` names the
// call in deadlock reports.
void barrier_wait(const void* bar, uint64_t phase, uint16_t line, const char* what,
                  uint64_t* arrive_time, uint64_t* depart_time);
// Copies that land when the barrier's current phase completes (memcpy_async with a barrier): the
// phase cannot complete before them, so that is the latest moment a GPU may land them.
void barrier_attach_copies(const void* bar, const AsyncCopy* copies, size_t count, uint16_t line);
// The same for the calling thread's staged copies (a pipeline stage's producer_commit).
void barrier_attach_staged(const void* bar, uint16_t line);

// Chooses one of `count` candidates: 0 by default, seeded otherwise (legal hardware freedom).
uint32_t choose(uint32_t count);

}  // namespace coop::emu
