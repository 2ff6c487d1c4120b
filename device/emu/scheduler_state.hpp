// Internal state of an emulated launch: lanes (threads), warps, blocks, rendezvous points, and
// the worker that schedules them. Only scheduler.cpp and emu_api.cpp include this.
#pragma once

#include <boost/context/fiber.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/emu/emu_api.hpp"
#include "device/emu/emulator.hpp"
#include "device/emu/memory_record.hpp"
#include "device/emu/modelled_time.hpp"
#include "device/emu/stack_pool.hpp"

namespace coop::emu::detail {

enum class LaneState : uint8_t {
  Runnable,  // will run at the warp's next step
  Pending,   // waits at a plain step point (lock-step batch)
  Waiting,   // waits at a rendezvous or split barrier
  Done,      // returned from the kernel
  Faulted,   // stopped by fault(); the launch is being aborted
};

struct Block;
struct Worker;

// The fields a step touches come first, in one cache line (the struct is aligned to it): with
// hundreds of lanes taking turns, each line a step reads is a likely miss.
struct alignas(64) Lane {
  boost::context::fiber fiber;  // the suspended thread
  Block* block = nullptr;
  CollectiveCall* call = nullptr;  // its part in an open rendezvous
  // Modelled SM cycles (modelled_time.hpp), and the clock-read spin in progress: the step of
  // its last read (0: the thread did something else since) and where the spin began.
  uint64_t cycles = 0;
  uint64_t spin_step = 0;
  uint32_t site = 0;  // plain-step key: line and op, or an access's code (kAccessSite)
  uint16_t warp = 0;  // info.warp and info.lane, here for set_state
  uint8_t lane = 0;
  LaneState state = LaneState::Runnable;
  uint16_t line = 0;            // where it waits, for reports
  Op op = Op::None;
  bool finish_rendezvous = false;  // woken to complete a rendezvous whose other members exited
  uint32_t global_id = 0;          // info.global_id, here for the launch monitor's note
  const char* waiting_what = nullptr;
  ThreadInfo info{};
  PlainStep released{};
  uint64_t spin_from = 0;
  // The fiber's stack, and AddressSanitizer's record of its frames while it is switched out
  // (used only in sanitizer builds, where every switch is announced to ASan).
  const void* stack_low = nullptr;
  size_t stack_size = 0;
  void* asan_fake_stack = nullptr;
  // Split barriers this thread has arrived at and not yet waited on: (group key, phase).
  std::vector<std::pair<uint64_t, uint64_t>> open_tokens;
  // memcpy_async batches committed and not yet waited for, oldest first.
  std::vector<std::vector<AsyncCopy>> copies;
  // Copies issued and not yet committed to a batch or handed to a barrier.
  std::vector<AsyncCopy> staged;
};

struct Warp {
  uint32_t first = 0;      // index of lane 0 in Block::lanes
  uint32_t count = 0;      // lanes in this warp
  uint32_t runnable = 0;   // lane masks by state
  uint32_t pending = 0;
  uint32_t live = 0;       // not Done
};

struct Rendezvous {
  CollectiveCall* first = nullptr;  // the first arrival defines what everyone must call
  std::vector<Lane*> arrived;
  uint64_t latest_cycles = 0;  // the latest arrival's modelled cycle: everyone leaves at it
};

struct SplitBarrier {
  uint32_t expected = 0;
  uint32_t arrived = 0;     // in the current phase
  uint64_t completed = 0;   // phases completed so far
  std::vector<std::pair<uint64_t, uint64_t>> completion_time;  // (phase, time), recent only
  std::vector<Lane*> waiters;
  uint16_t line = 0;
};

// A cuda::barrier object (emu_api.hpp): who arrived in the current phase, who waits, and the
// copies that land when the phase completes.
struct ObjectBarrier {
  uint32_t init_count = 0;  // expected arrivals given at init
  uint32_t expected = 0;    // per phase, after arrive_and_drop
  uint32_t pending = 0;     // arrivals the current phase still needs
  uint64_t completed = 0;   // phases completed so far
  uint16_t init_line = 0;
  uint16_t wait_line = 0;
  std::vector<Lane*> arrived;  // in the current phase, for deadlock reports
  std::vector<Lane*> waiters;
  std::vector<AsyncCopy> copies;
};

// A partition call site of one parent group in a block (note_partition): how many times each
// thread of the block made it, and how many it is excused (a lane of a warp-level parent that had
// exited when another lane made it, as a warp operation excuses exited lanes on sm_70+).
struct PartitionSite {
  uint16_t line = 0;
  const char* what = "";
  GroupKind parent_kind = GroupKind::Block;
  uint32_t first = 0, size = 0;         // the parent's thread ranks [first, first + size), or
  uint32_t warp = 0, warp_mask = 0;     // its lanes of one warp, when warp_mask is not 0
  std::vector<uint32_t> made, excused;  // by thread rank in the block
};

struct Block {
  uint32_t rank = 0;
  Dim3 idx;
  std::vector<Lane> lanes;
  std::vector<Warp> warps;
  uint32_t live = 0;
  // The block's shared memory: `smem` points into `smem_storage` past a guard zone
  // (memory_checks.hpp), so that a negative index lands in the guard, not in the heap.
  std::unique_ptr<unsigned char[]> smem_storage;
  unsigned char* smem = nullptr;
  // Its initialisation shadow, one byte per byte of the arena (check_initialisation only).
  std::unique_ptr<unsigned char[]> smem_written;
  uint64_t smem_touched = 0;  // slots whose initial pattern has been written
  std::unordered_map<uint64_t, Rendezvous> rendezvous;
  std::unordered_map<uint64_t, SplitBarrier> splits;
  std::unordered_map<int64_t, ObjectBarrier> objects;  // cuda::barrier by shared-memory offset
  std::unordered_map<uint64_t, PartitionSite> partition_sites;  // by parent and line
  uint64_t last_key = 0;                   // the rendezvous met last, to skip the lookup
  Rendezvous* last_rendezvous = nullptr;
};

struct SlotEntry {
  const SharedSlot* slot = nullptr;
  size_t offset = 0;  // from LaunchState::static_base
  size_t bytes = 0;
  size_t element_size = 1;  // of an array's elements, for reports (s[-1])
};

// Shared by all workers of one launch.
struct LaunchState {
  // Slot `sequence` of the trace's event array, sized to the capacity before the launch and
  // written directly by whichever worker recorded the event, as the GPU recorder writes its buffer.
  Event* events = nullptr;
  uint64_t event_slots = 0;  // capacity plus one sequence batch per worker
  const EmuLaunch* request = nullptr;
  const EmuOptions* options = nullptr;
  bool trace = false;  // events are recorded (the request's trace)
  // Whether a warp's lanes run in a seeded order and seeded choices are made (choose()): with a
  // seed under lockstep, always under the random and its schedules.
  bool shuffle = false;
  // Shared and global accesses are step points (random and its schedules; memory_hooks.cpp).
  bool access_steps = false;
  // Blocks (clusters in a cluster launch) start in the order unit -> (a * unit + b) mod units:
  // the identity under lockstep, a seeded permutation (a coprime to units) otherwise.
  uint64_t order_a = 1, order_b = 0;
  uint64_t units = 0;
  uint32_t block_threads = 0;
  uint64_t total_blocks = 0;
  // Per-block arena: the dynamic array first, a guard zone, then the static variables, each
  // followed by a guard zone (memory_checks.hpp).
  size_t smem_bytes = 0;
  size_t dynamic_bytes = 0;     // aligned dynamic size
  size_t static_base = 0;       // where the static variables begin
  // The dynamic array as the kernel declares it (extern __shared__ T name[]), for reports: the
  // first declaration seen.
  std::atomic<const char*> dynamic_name{nullptr};
  std::atomic<size_t> dynamic_element_size{1};
  std::atomic<uint64_t> attempts{0};
  std::atomic<uint64_t> next_block{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::string error;
  // Static __shared__ layout, shared by every block so offsets match across blocks.
  static constexpr size_t kMaxSlots = 64;
  SlotEntry slots[kMaxSlots];
  std::atomic<uint32_t> slot_count{0};
  size_t static_top = 0;   // the layout's end, guard zones included
  size_t static_used = 0;  // what the variables take without them (the block's limit counts this)
  std::mutex slot_mutex;
  // Grid- and cluster-scope rendezvous (single-worker launches only).
  std::unordered_map<uint64_t, Rendezvous> rendezvous;
  std::unordered_map<uint64_t, SplitBarrier> splits;
  std::chrono::steady_clock::time_point start;
  // Memory recording (memory_record.hpp): on for this launch, and the global allocations known
  // at its start as sorted [begin, end) ranges.
  bool record_memory = false;
  std::vector<GlobalRange> globals;
  // Memory checks (memory_checks.hpp), from the request.
  bool check_bounds = false;
  bool check_initialisation = false;
  // Modelled time (modelled_time.hpp): the clock rate, each SM's clock (the cycle its next block
  // starts at), the latest cycle a finished block reached, and how many blocks have finished.
  int clock_mhz = 1000;
  uint64_t start_cycles = 0;
  uint32_t sm_count = 1;
  std::unique_ptr<std::atomic<uint64_t>[]> sm_cycles;
  std::atomic<uint64_t> latest_cycles{0};
  std::atomic<uint64_t> blocks_done{0};

  void fail(const std::string& message);
};

struct Worker {
  LaunchState* launch = nullptr;
  StackPoolHandle pool;
  std::vector<std::unique_ptr<Block>> resident;
  uint64_t clock = 0;
  // Scheduler steps (lane resumptions); read by the launch monitor from another OS thread
  // (launch_monitor.hpp), as is the lane running now.
  std::atomic<uint64_t> steps{0};
  std::atomic<const Lane*> running{nullptr};
  std::atomic<uint32_t> last_code{0};  // the running lane's last checked access (memory_hooks)
  // The lane resumed last, as (global id << 16 | the line it left): kept after the launch's
  // lanes are gone, for the monitor's word on where threads were.
  std::atomic<uint64_t> last_resumed{0};
  // Sequence numbers are taken from the launch's counter a batch at a time, so that workers do
  // not fight over one cache line per event; the unused tail of the last batch is a gap that
  // emulate() closes up afterwards.
  static constexpr uint64_t kSequenceBatch = 256;
  uint64_t seq_next = 0, seq_end = 0;
  uint64_t recorded = 0;  // events offered by this worker (kept or not)
  uint64_t rng = 0;
  // Raised whenever a resident warp starts or stops having lanes that can move, and when blocks
  // come or go: the seeded schedules rebuild their list of warps to pick from only then.
  uint64_t ready_changes = 0;
  bool stack_overflow = false;
  // Above zero while the running lane is in code that must finish before any other lane runs (a
  // cuda::barrier's completion function): its accesses are not step points (NoAccessSteps).
  int no_access_steps = 0;
  Lane* current = nullptr;
  // Fibers hand the OS thread to each other (scheduler.cpp, switch_fiber): the scheduler's context
  // while a lane runs, and where the context of the fiber that switched last belongs (its own
  // slot: a lane's `fiber`, or `scheduler`), for whichever fiber wakes to put it there.
  boost::context::fiber scheduler;
  boost::context::fiber* park = nullptr;
  // The warp whose runnable lanes run now (run_lanes): a lane that stops starts the next of them
  // itself, without a round trip through the scheduler's stack.
  Block* chain_block = nullptr;
  Warp* chain_warp = nullptr;
  // The running lane's last store, recorded once its value is in memory (flush_pending_store).
  Event pending_store{};
  const void* pending_address = nullptr;
  // The scheduler's own stack, as AddressSanitizer reported it when a fiber first started.
  const void* stack_low = nullptr;
  size_t stack_size = 0;
  void* asan_fake_stack = nullptr;

  explicit Worker(size_t stack_bytes) : pool(take_stack_pool(stack_bytes)) {}
  uint64_t random();
  Block* find_block(uint32_t rank);
};

inline thread_local Worker* t_worker = nullptr;

// A recorded store's value is read once it is in memory: at the lane's next access, before its
// next event, and whenever it leaves the processor (memory_record.hpp).
inline void flush_pending_store(Worker& worker) {
  if (worker.pending_address != nullptr) record_pending_store(worker);
}

// Step-site keys of shared and global accesses: the access instruction's code offset with this
// bit, apart from the (line, op) keys of plain steps.
inline constexpr uint32_t kAccessSite = 0x80000000u;

// A shared or global access by the running lane under a schedule where accesses are step points:
// waits until the scheduler releases it (with the warp's lanes at the same instruction under
// random, alone under its). `code` is the instruction's offset in the executable.
void access_step(Lane& lane, uint32_t code);

// While one exists, the running lane's accesses are not step points: it is inside an operation
// that completes before any other thread may go on.
class NoAccessSteps {
 public:
  explicit NoAccessSteps(Worker& worker) : worker_(worker) { ++worker_.no_access_steps; }
  ~NoAccessSteps() { --worker_.no_access_steps; }
  NoAccessSteps(const NoAccessSteps&) = delete;
  NoAccessSteps& operator=(const NoAccessSteps&) = delete;

 private:
  Worker& worker_;
};

// Suspends the running lane and returns to the scheduler; returns when the lane runs again (a
// lane still suspended when the launch ends is dropped, never resumed: scheduler.cpp).
void yield_to_scheduler(Lane& lane);

// Arrivals a rendezvous of `group` needs before it completes (emu_api.cpp).
uint32_t members_needed(const Lane& lane, const GroupRef& group);

// The lane whose fiber is running (a kernel-side service was called outside one: logic_error).
Lane& current_lane();

// Lane state changes keep the warp's masks in step. Inline: every barrier arrival and release
// makes one.
inline void set_state(Lane& lane, LaneState state) {
  Warp& w = lane.block->warps[lane.warp];
  const uint32_t bit = 1u << lane.lane;
  const bool could_move = w.runnable | w.pending;
  w.runnable &= ~bit;
  w.pending &= ~bit;
  if (state == LaneState::Runnable) w.runnable |= bit;
  if (state == LaneState::Pending) w.pending |= bit;
  if (could_move != bool(w.runnable | w.pending)) ++t_worker->ready_changes;
  if (state == LaneState::Done && lane.state != LaneState::Done) {
    w.live &= ~bit;
    if (--lane.block->live == 0) finish_block_clock(*t_worker->launch, *lane.block);
  }
  lane.state = state;
}

// The first partition of `block` that a member of its parent skipped, in words naming the line
// and the threads ("" if none); checked once the block's threads have all finished.
std::string skipped_partition(const Block& block);

// "thread block", "tile", ...: a group's kind in a report.
const char* group_name(GroupKind kind);

// "threads 0-15, 32-47 of block (1,0,0)"
std::string describe_threads(const std::vector<const Lane*>& lanes);

// Deadlock report lines for the cuda::barrier objects of `block` that threads wait on.
std::string describe_object_barriers(const Block& block);

}  // namespace coop::emu::detail
