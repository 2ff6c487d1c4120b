// [SECTION] cuda::barrier objects: phases of arrivals, waits that block the fiber, and the copies
// a phase carries (memcpy_async with a barrier, a pipeline stage's commit). Runs inside fibers.
#include <algorithm>
#include <cstring>
#include <string>

#include "device/emu/memory_checks.hpp"
#include "device/emu/scheduler_state.hpp"

namespace coop::emu {
using namespace detail;

namespace {

// The barrier's state in the calling block. Barriers live in shared memory, where a block's
// threads can all reach them; one elsewhere would be shared by blocks the emulator runs apart.
ObjectBarrier& find(const void* bar, uint16_t line, bool creating = false) {
  const int64_t offset = shared_offset(bar);
  if (offset < 0)
    fault(
        "cuda::barrier outside __shared__ memory: the emulator runs barriers that live in "
        "the block's shared memory",
        line);
  auto& objects = current_lane().block->objects;
  auto it = objects.find(offset);
  if (it == objects.end()) {
    if (!creating)
      fault("cuda::barrier used before init(&bar, count): its memory holds no barrier yet", line);
    it = objects.try_emplace(offset).first;
  }
  return it->second;
}

// The arrival that completes a phase: the phase's copies land (the phase could not complete
// before them), then every waiter goes on.
void complete_phase(ObjectBarrier& b) {
  for (const AsyncCopy& c : b.copies) land_copy(c);
  b.copies.clear();
  b.arrived.clear();
  ++b.completed;
  b.pending = b.expected;
  const uint64_t t = ++t_worker->clock;
  for (Lane* waiter : b.waiters) {
    waiter->released.time = t;
    set_state(*waiter, LaneState::Runnable);
  }
  b.waiters.clear();
}

}  // namespace

void barrier_init(const void* bar, uint32_t expected, uint16_t line) {
  ObjectBarrier& b = find(bar, line, true);
  if (!b.waiters.empty()) fault("init() of a cuda::barrier that threads are waiting on", line);
  b = ObjectBarrier{};
  b.init_count = b.expected = b.pending = expected;
  b.init_line = line;
  if (expected == 0) fault("init(&bar, 0): a cuda::barrier needs at least one arrival", line);
}

uint32_t barrier_expected(const void* bar, uint16_t line) {
  return find(bar, line).init_count;
}

uint64_t barrier_arrive(const void* bar, uint32_t count, bool drop, uint16_t line,
                        void (*on_complete)(void*), void* context) {
  ObjectBarrier& b = find(bar, line);
  if (count == 0 || count > b.pending)
    fault("arrive(" + std::to_string(count) + ") on a cuda::barrier whose phase " +
              std::to_string(b.completed) + " needs " + std::to_string(b.pending) +
              " more arrivals: more arrivals than expected are undefined on a GPU",
          line);
  const uint64_t phase = b.completed;
  b.arrived.push_back(&current_lane());
  b.pending -= count;
  if (drop) b.expected -= count;
  if (b.pending == 0) {
    if (on_complete) {
      // The completion function runs before the phase completes, while no other thread may
      // arrive: nothing preempts it.
      const NoAccessSteps atomic(*t_worker);
      on_complete(context);
    }
    complete_phase(b);
  }
  return phase;
}

void barrier_wait(const void* bar, uint64_t phase, uint16_t line, const char* what,
                  uint64_t* arrive_time, uint64_t* depart_time) {
  ObjectBarrier& b = find(bar, line);
  *arrive_time = *depart_time = t_worker->clock;
  if (phase > b.completed)
    fault(std::string(what) + " for a phase the barrier has not reached yet", line);
  if (b.completed > phase) return;
  Lane& lane = current_lane();
  b.waiters.push_back(&lane);
  b.wait_line = line;
  lane.line = line;
  lane.waiting_what = what;
  set_state(lane, LaneState::Waiting);
  yield_to_scheduler(lane);
  lane.waiting_what = nullptr;
  *depart_time = lane.released.time;
}

void barrier_attach_copies(const void* bar, const AsyncCopy* copies, size_t count, uint16_t line) {
  ObjectBarrier& b = find(bar, line);
  b.copies.insert(b.copies.end(), copies, copies + count);
}

void barrier_attach_staged(const void* bar, uint16_t line) {
  Lane& lane = current_lane();
  barrier_attach_copies(bar, lane.staged.data(), lane.staged.size(), line);
  lane.staged.clear();
}

}  // namespace coop::emu

namespace coop::emu::detail {

// Deadlock report lines for the block's cuda::barrier objects that threads wait on: the
// waiters, and the block's threads that have not arrived in the phase (exited or stuck elsewhere).
std::string describe_object_barriers(const Block& block) {
  std::string out;
  for (const auto& [offset, b] : block.objects) {
    if (b.waiters.empty()) continue;
    std::vector<const Lane*> waiting(b.waiters.begin(), b.waiters.end()), exited, elsewhere;
    for (const Lane& l : block.lanes) {
      if (std::find(b.arrived.begin(), b.arrived.end(), &l) != b.arrived.end()) continue;
      (l.state == LaneState::Done ? exited : elsewhere).push_back(&l);
    }
    out += "\n  block (" + block.idx.str() + ") cuda::barrier (initialised at line " +
           std::to_string(b.init_line) + " for " + std::to_string(b.init_count) +
           " arrivals) waited on at line " + std::to_string(b.wait_line) + ": phase " +
           std::to_string(b.completed) + " still needs " + std::to_string(b.pending) +
           " arrivals; " + std::to_string(waiting.size()) + " wait (" + describe_threads(waiting) +
           ")";
    if (!exited.empty()) out += "; not arrived, exited: " + describe_threads(exited);
    if (!elsewhere.empty()) {
      const Lane* first = elsewhere.front();
      out += "; not arrived: " + describe_threads(elsewhere) + ", e.g. at line " +
             std::to_string(first->line);
      if (first->waiting_what) out += std::string(" in ") + first->waiting_what;
    }
  }
  return out;
}

}  // namespace coop::emu::detail
