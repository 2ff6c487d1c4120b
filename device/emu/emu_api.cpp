// [SECTION] Kernel-side emulator services: step points, rendezvous, split barriers, recording,
// shared memory. Everything here runs inside an emulated thread's fiber.
#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "device/emu/memory_checks.hpp"
#include "device/emu/memory_record.hpp"
#include "device/emu/modelled_time.hpp"
#include "device/emu/scheduler_state.hpp"

namespace coop::emu {
using namespace detail;

const char* detail::group_name(GroupKind k) {
  switch (k) {
    case GroupKind::Block: return "thread block";
    case GroupKind::Grid: return "grid";
    case GroupKind::Cluster: return "cluster";
    case GroupKind::Tile: return "tile";
    case GroupKind::Coalesced: return "coalesced group";
    case GroupKind::Labeled: return "labeled partition";
    case GroupKind::Binary: return "binary partition";
    case GroupKind::Stride: return "stride partition";
    case GroupKind::Warp: return "warp";
    default: return "group";
  }
}

Lane& detail::current_lane() {
  if (t_worker == nullptr || t_worker->current == nullptr)
    throw std::logic_error("coop::emu service called outside an emulated kernel thread");
  return *t_worker->current;
}

namespace {

std::string where(const Lane& lane, uint16_t line) {
  std::ostringstream os;
  os << "line " << line << ", thread (" << lane.info.thread_idx.str() << ") of block ("
     << lane.info.block_idx.str() << ")";
  return os.str();
}

// Every member of a group must make the same collective call; warp-sized groups may make it from
// different lines (sm_70+ lets a warp's lanes meet at different call sites of the same operation).
bool same_call(const CollectiveCall& first, const CollectiveCall& call) {
  const bool warp_level = call.group.warp_mask != 0;
  return first.op == call.op && first.kind == call.kind && first.shared_arg == call.shared_arg &&
         (warp_level || first.line == call.line);
}

// Reports built out of line, so that the hot paths that may raise them keep small stack frames:
// with a thousand fibers taking turns, every extra cache line of frame is a miss per switch.
[[noreturn, gnu::cold, gnu::noinline]] void fault_different_calls(const CollectiveCall& first,
                                                                  const CollectiveCall& call) {
  std::ostringstream os;
  os << "members of one " << group_name(call.group.kind) << " reached different collective calls: "
     << call.what << " at line " << call.line << " while others wait in " << first.what
     << " at line " << first.line;
  if (first.shared_arg != call.shared_arg && first.op == call.op)
    os << " with a different argument (every member must pass the same value)";
  os << ". Every thread of a group must make the same collective call.";
  fault(os.str(), call.line);
}

[[noreturn, gnu::cold, gnu::noinline]] void fault_collective_in_split(const CollectiveCall& call) {
  fault(std::string(call.what) + " on a group between its barrier_arrive and barrier_wait: "
        "no collective may run on the group until the wait completes", call.line);
}

[[noreturn, gnu::cold, gnu::noinline]] void fault_duplicate_rank(const CollectiveCall& call,
                                                                 uint32_t rank) {
  fault("inconsistent ranks in " + std::string(call.what) + " (two threads claim rank " +
        std::to_string(rank) + ")", call.line);
}

}  // namespace

PlainStep step_plain(uint16_t line, Op op) {
  Lane& lane = current_lane();
  lane.site = (uint32_t(line) << 8) | uint8_t(op);
  lane.line = line;
  lane.op = op;
  lane.waiting_what = nullptr;
  set_state(lane, LaneState::Pending);
  yield_to_scheduler(lane);
  return lane.released;
}

void detail::access_step(Lane& lane, uint32_t code) {
  lane.site = kAccessSite | code;
  lane.op = Op::None;
  set_state(lane, LaneState::Pending);
  yield_to_scheduler(lane);
}

bool split_pending(const GroupRef& group) {
  Lane& lane = current_lane();
  for (auto& [key, phase] : lane.open_tokens)
    if (key == group.key) return true;
  return false;
}

// A warp operation waits only for the lanes of its group that have not exited (sm_70+: "all
// non-exited threads named in mask must execute the same intrinsic"), which also excuses the lanes
// a partial warp lacks. Larger groups wait for every member.
uint32_t detail::members_needed(const Lane& lane, const GroupRef& group) {
  if (group.warp_mask == 0) return group.size;
  return uint32_t(std::popcount(lane.block->warps[lane.info.warp].live & group.warp_mask));
}

void rendezvous(CollectiveCall& call) {
  Worker& w = *t_worker;
  Lane& lane = current_lane();
  if (!lane.open_tokens.empty() && split_pending(call.group)) fault_collective_in_split(call);
  auto& table = call.group.launch_scope ? w.launch->rendezvous : lane.block->rendezvous;
  // The threads of a block mostly meet the same group in a row (a block barrier, a tile's
  // shuffles): remember the last open rendezvous to skip the hash lookup. Map nodes do not move.
  Block& b = *lane.block;
  const bool cached = !call.group.launch_scope && b.last_rendezvous && b.last_key == call.group.key;
  bool fresh = false;
  Rendezvous* rp;
  if (cached) {
    rp = b.last_rendezvous;
  } else {
    auto [it, inserted] = table.try_emplace(call.group.key);
    rp = &it->second;
    fresh = inserted;
    if (!call.group.launch_scope) {
      b.last_key = call.group.key;
      b.last_rendezvous = rp;
    }
  }
  Rendezvous& r = *rp;
  if (fresh) {
    r.first = &call;
    r.arrived.reserve(call.group.size);
  } else if (!same_call(*r.first, call)) {
    fault_different_calls(*r.first, call);
  }
  call.arrive_time = w.clock;
  call.traced = w.launch->trace;
  lane.call = &call;
  lane.line = call.line;
  lane.waiting_what = call.what;
  r.arrived.push_back(&lane);
  r.latest_cycles = std::max(r.latest_cycles, lane.cycles);
  if (r.arrived.size() < members_needed(lane, call.group)) {
    set_state(lane, LaneState::Waiting);
    yield_to_scheduler(lane);
    // Woken by the scheduler when the members still missing have all exited: this lane completes
    // the call for everyone (finish_exited_rendezvous).
    if (!lane.finish_rendezvous) return;
    lane.finish_rendezvous = false;
  }
  // Last arrival: resolve for everyone, release them, and continue without yielding.
  std::vector<Lane*> arrived = std::move(r.arrived);
  // The members leave together, one step after the latest arrival (modelled_time.hpp).
  const uint64_t leave_at = r.latest_cycles + kCyclesPerStep;
  if (b.last_rendezvous == rp) b.last_rendezvous = nullptr;
  table.erase(call.group.key);
  if (call.resolve) {  // pure barriers need no ordering by rank
    std::vector<CollectiveCall*> by_rank(call.group.size, nullptr);
    for (Lane* l : arrived) {
      const uint32_t rank = l->call->group.rank;
      if (rank >= by_rank.size() || by_rank[rank] != nullptr) fault_duplicate_rank(call, rank);
      by_rank[rank] = l->call;
    }
    {
      // The resolver reads every member's input in this lane's fiber: not this lane's accesses.
      const MemoryRecordingPause pause;
      call.resolve(by_rank);
    }
    if (call.wide_bytes)
      for (Lane* l : arrived)
        std::memcpy(l->call->wide_out, reinterpret_cast<const void*>(l->call->out),
                    call.wide_bytes);
  }
  const uint64_t t = ++w.clock;
  for (Lane* l : arrived) {
    l->cycles = leave_at;
    // Read only for the event (a store into each waiter's suspended frame, a likely miss).
    if (call.traced) l->call->depart_time = t;
    l->call = nullptr;
    l->waiting_what = nullptr;
    if (l != &lane) set_state(*l, LaneState::Runnable);
  }
}

uint64_t split_arrive(const GroupRef& group, uint16_t line) {
  Worker& w = *t_worker;
  Lane& lane = current_lane();
  if (split_pending(group))
    fault("barrier_arrive called twice on one group without barrier_wait in between", line);
  auto& table = group.launch_scope ? w.launch->splits : lane.block->splits;
  SplitBarrier& s = table[group.key];
  if (s.expected == 0) s.expected = group.size;
  s.line = line;
  const uint64_t phase = s.completed;
  lane.open_tokens.emplace_back(group.key, phase);
  if (++s.arrived == s.expected) {
    s.arrived = 0;
    ++s.completed;
    const uint64_t t = ++w.clock;
    for (Lane* waiter : s.waiters) {
      waiter->released.time = t;
      set_state(*waiter, LaneState::Runnable);
    }
    s.waiters.clear();
  }
  return phase;
}

void split_wait(const GroupRef& group, uint64_t token, uint16_t line, uint64_t* arrive_time,
                uint64_t* depart_time) {
  Worker& w = *t_worker;
  Lane& lane = current_lane();
  auto tok = std::find_if(lane.open_tokens.begin(), lane.open_tokens.end(), [&](auto& p) {
    return p.first == group.key && (p.second == token || token == kOldestToken);
  });
  if (tok == lane.open_tokens.end())
    fault("barrier_wait with a token that did not come from this group's barrier_arrive", line);
  token = tok->second;
  lane.open_tokens.erase(tok);
  auto& table = group.launch_scope ? w.launch->splits : lane.block->splits;
  SplitBarrier& s = table[group.key];
  *arrive_time = w.clock;
  if (s.completed > token) {
    *depart_time = w.clock;
    return;
  }
  s.waiters.push_back(&lane);
  lane.line = line;
  lane.waiting_what = "barrier_wait()";
  set_state(lane, LaneState::Waiting);
  yield_to_scheduler(lane);
  *depart_time = lane.released.time;
}

void record(Event& e) {
  // An earlier store of this thread (memory_record.hpp) comes first in its program order.
  flush_pending_store(*t_worker);
  record_as(t_thread->global_id, e);
}

void record_as(uint32_t thread, Event& e) {
  Worker& w = *t_worker;
  LaunchState& L = *w.launch;
  if (!L.request->trace) return;
  e.thread = thread;
  if (w.seq_next == w.seq_end) {
    w.seq_next = L.attempts.fetch_add(Worker::kSequenceBatch, std::memory_order_relaxed);
    w.seq_end = w.seq_next + Worker::kSequenceBatch;
  }
  const uint64_t seq = w.seq_next++;
  ++w.recorded;
  if (seq >= L.event_slots) return;  // counted as dropped, never written
  e.sequence = uint32_t(seq);
  L.events[seq] = e;
}

uint64_t now() { return t_worker->clock; }

void fault(const std::string& message, uint16_t line) {
  Lane& lane = current_lane();
  t_worker->launch->fail(where(lane, line) + ": " + message);
  // The thread never leaves this line: recorded there, so the views show who stopped where.
  Event e{};
  e.kind = EventKind::Fault;
  e.time = t_worker->clock;
  e.line = line;
  e.flags = kFlagStuck;
  record(e);
  set_state(lane, LaneState::Faulted);
  // Never resumed: the launch ends and drops the suspended lanes.
  for (;;) yield_to_scheduler(lane);
}

void* shared_variable(const SharedSlot& slot, size_t bytes, size_t align, size_t element_size) {
  Lane& lane = current_lane();
  LaunchState& L = *t_worker->launch;
  uint32_t n = L.slot_count.load(std::memory_order_acquire);
  uint32_t index = n;
  for (uint32_t i = 0; i < n; ++i)
    if (L.slots[i].slot == &slot) index = i;
  if (index == n) {
    std::lock_guard<std::mutex> lock(L.slot_mutex);
    n = L.slot_count.load(std::memory_order_acquire);
    index = n;
    for (uint32_t i = 0; i < n; ++i)
      if (L.slots[i].slot == &slot) index = i;
    if (index == n) {
      if (n == LaunchState::kMaxSlots)
        fault("more than 64 __shared__ variables in one kernel", slot.line);
      align = std::max<size_t>(align, 1);
      const auto align_up = [align](size_t at) { return (at + align - 1) / align * align; };
      const size_t used = align_up(L.static_used) + bytes;
      const size_t limit = std::max(L.request->device.smem_per_block_optin,
                                    L.request->device.smem_per_block);
      if (L.dynamic_bytes + used > limit)
        fault("__shared__ " + std::string(slot.name) + " (" + std::to_string(bytes) +
              " bytes) takes the block's shared memory past the " + std::to_string(limit) +
              " bytes allowed on " + L.request->device.name, slot.line);
      // Laid out with a guard zone after each variable (memory_checks.hpp); only `used` counts
      // against the limit, as on a GPU.
      const size_t offset = align_up(L.static_top);
      if (L.static_base + offset + bytes + kSharedGuardBytes > L.smem_bytes)
        fault("__shared__ " + std::string(slot.name) + " needs more alignment padding than the "
              "emulator's shared-memory arena leaves", slot.line);
      L.slots[n] = SlotEntry{&slot, offset, bytes, std::max<size_t>(element_size, 1)};
      L.static_used = used;
      L.static_top = offset + bytes + kSharedGuardBytes;
      L.slot_count.store(n + 1, std::memory_order_release);
    }
  }
  const SlotEntry& e = L.slots[index];
  unsigned char* p = lane.block->smem + L.static_base + e.offset;
  if (!(lane.block->smem_touched & (1ull << index))) {
    std::memset(p, 0xA5, e.bytes);  // shared memory starts as garbage, as on a GPU
    lane.block->smem_touched |= 1ull << index;
  }
  return p;
}

void* dynamic_shared(const char* name, size_t element_size) {
  LaunchState& L = *t_worker->launch;
  const char* none = nullptr;
  if (name != nullptr && L.dynamic_name.compare_exchange_strong(none, name))
    L.dynamic_element_size.store(std::max<size_t>(element_size, 1));
  return current_lane().block->smem;
}

int64_t shared_offset(const void* p) {
  const Lane& lane = current_lane();
  const auto* base = lane.block->smem;
  const auto* q = static_cast<const unsigned char*>(p);
  if (q < base || q >= base + t_worker->launch->smem_bytes) return -1;
  return q - base;
}

bool other_block_shared(const void* p, uint32_t* block, uint64_t* offset) {
  const size_t bytes = t_worker->launch->smem_bytes;
  const auto* q = static_cast<const unsigned char*>(p);
  for (const auto& b : t_worker->resident) {
    const auto* base = b->smem;
    if (base == nullptr || q < base || q >= base + bytes) continue;
    *block = b->rank;
    *offset = uint64_t(q - base);
    return true;
  }
  return false;
}

void* map_shared_rank(const void* p, uint32_t cluster_rank, uint16_t line) {
  Lane& lane = current_lane();
  const int64_t offset = shared_offset(p);
  if (offset < 0) fault("map_shared_rank needs a pointer into this block's shared memory", line);
  const Dim3 c = lane.info.cluster_dim;
  if (cluster_rank >= c.count())
    fault("map_shared_rank to block " + std::to_string(cluster_rank) + " of a cluster of " +
          std::to_string(c.count()) + " blocks", line);
  const Dim3 b = lane.info.block_idx;
  const Dim3 origin{b.x / c.x * c.x, b.y / c.y * c.y, b.z / c.z * c.z};
  const Dim3 local{cluster_rank % c.x, (cluster_rank / c.x) % c.y, cluster_rank / (c.x * c.y)};
  const Dim3 g = lane.info.grid_dim;
  const uint64_t rank = (origin.x + local.x) + uint64_t(g.x) * ((origin.y + local.y) +
                                                                uint64_t(g.y) * (origin.z + local.z));
  Block* target = t_worker->find_block(uint32_t(rank));
  if (target == nullptr) fault("cluster block " + std::to_string(rank) + " is not resident", line);
  return target->smem + offset;
}

uint32_t query_shared_rank(const void* p, uint16_t line) {
  const Lane& lane = current_lane();
  const Dim3 c = lane.info.cluster_dim, b = lane.info.block_idx;
  const size_t bytes = t_worker->launch->smem_bytes;
  for (const auto& block : t_worker->resident) {
    const auto* base = block->smem;
    const auto* q = static_cast<const unsigned char*>(p);
    if (q < base || q >= base + bytes) continue;
    const Dim3 i = block->idx;
    if (i.x / c.x != b.x / c.x || i.y / c.y != b.y / c.y || i.z / c.z != b.z / c.z) break;
    return (i.x % c.x) + c.x * ((i.y % c.y) + c.y * (i.z % c.z));
  }
  fault("query_shared_rank: the address is not in the shared memory of a block of this cluster",
        line);
}

void async_copy_commit(const AsyncCopy* copies, size_t count) {
  current_lane().copies.emplace_back(copies, copies + count);
}

void async_copy_stage(const AsyncCopy* copies, size_t count) {
  std::vector<AsyncCopy>& staged = current_lane().staged;
  staged.insert(staged.end(), copies, copies + count);
}

void async_copy_commit_staged() {
  Lane& lane = current_lane();
  lane.copies.push_back(std::move(lane.staged));
  lane.staged.clear();
}

uint32_t async_copy_wait(uint32_t keep) {
  Lane& lane = current_lane();
  auto& batches = lane.copies;
  const size_t land = batches.size() > keep ? batches.size() - keep : 0;
  for (size_t i = 0; i < land; ++i)
    for (const AsyncCopy& c : batches[i]) land_copy(c);
  batches.erase(batches.begin(), batches.begin() + ptrdiff_t(land));
  return uint32_t(batches.size());
}

uint32_t choose(uint32_t count) {
  if (count <= 1 || !t_worker->launch->shuffle) return 0;
  return uint32_t(t_worker->random() % count);
}

}  // namespace coop::emu
