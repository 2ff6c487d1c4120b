// [SECTION] The emulator's scheduler: creates blocks, steps warps by a schedule, detects deadlock.
//
// Index
//   [SECTION] Lane bookkeeping
//   [SECTION] Fiber switches
//   [SECTION] Blocks: creation and retirement
//   [SECTION] Stepping a warp
//   [SECTION] Deadlock reports
//   [SECTION] The worker loop and emulate()

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>
#include <sstream>
#include <thread>

#include "device/emu/asan_fibers.hpp"
#include "device/emu/fiber_switch.hpp"
#include "device/emu/launch_monitor.hpp"
#include "device/emu/memory_checks.hpp"
#include "device/emu/memory_record.hpp"
#include "device/emu/modelled_time.hpp"
#include "device/emu/scheduler_state.hpp"

namespace coop::emu::detail {

// [SECTION] Lane bookkeeping

void LaunchState::fail(const std::string& message) {
  std::lock_guard<std::mutex> lock(error_mutex);
  if (!failed.exchange(true)) error = message;
}

uint64_t Worker::random() {  // splitmix64: small, fast, and reproducible from the seed
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Block* Worker::find_block(uint32_t rank) {
  for (auto& b : resident)
    if (b->rank == rank) return b.get();
  return nullptr;
}

// [SECTION] Fiber switches (announced to AddressSanitizer in sanitizer builds: asan_fibers.hpp)

namespace {

// Lanes hand over to each other directly, except in AddressSanitizer builds, where a fiber's
// first switch must come from the scheduler's stack (it notes that stack as the one to return to).
#if defined(COOP_ASAN_FIBERS)
constexpr bool kChainLanes = false;
#else
constexpr bool kChainLanes = true;
#endif

// Hands the OS thread to the fiber `to`, leaving the running fiber's context in `mine`; returns
// once some fiber hands it back, having put its own context where it belongs.
void switch_fiber(Worker& worker, boost::context::fiber& to, boost::context::fiber* mine) {
  worker.park = mine;
  boost::context::fiber from = resume_fiber(std::move(to));
  *worker.park = std::move(from);
}

// Where a suspended fiber saved its registers: Boost.Context's fiber holds just that pointer
// (fiber_switch.hpp). Touching it and the frames above it (those the lane returns through to its
// kernel) ahead of the switch hides the cache misses that otherwise dominate a switch (each
// lane's stack is cold by the time the warp comes round again).
void prefetch_context(const Lane& lane) {
  const char* ctx;
  std::memcpy(&ctx, &lane.fiber, sizeof ctx);
  if (ctx)
    for (int i = 0; i < 8; ++i) __builtin_prefetch(ctx + 64 * i);
}

// Order in which a warp's runnable lanes run: ascending by default, shuffled when seeded.
int next_lane(Worker& worker, uint32_t mask) {
  if (!worker.launch->shuffle) return std::countr_zero(mask);
  const int n = std::popcount(mask);
  int pick = int(worker.random() % uint64_t(n));
  for (;; mask &= mask - 1)
    if (pick-- == 0) return std::countr_zero(mask);
}

// The next of the warp's runnable lanes, with the one after it made ready to switch to, and the
// bookkeeping of the one after that on its way (its context pointer is read next time).
Lane& pick_runnable(Worker& worker, Block& block, Warp& warp) {
  const int lane = next_lane(worker, warp.runnable);
  if (uint32_t rest = warp.runnable & ~(1u << lane)) {
    prefetch_context(block.lanes[warp.first + std::countr_zero(rest)]);
    if ((rest &= rest - 1)) __builtin_prefetch(&block.lanes[warp.first + std::countr_zero(rest)]);
  }
  return block.lanes[warp.first + lane];
}

// Who runs, for the kernel-side services, the launch monitor and fault reports.
void begin_step(Worker& worker, Lane& lane) {
  lane.state = LaneState::Runnable;
  t_thread = &lane.info;
  worker.current = &lane;
  worker.last_code.store(0, std::memory_order_relaxed);
  worker.running.store(&lane, std::memory_order_relaxed);
  worker.last_resumed.store(uint64_t(lane.global_id) << 16 | lane.line,
                            std::memory_order_relaxed);
}

void count_step(Worker& worker) {
  worker.steps.store(worker.steps.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void end_step(Worker& worker) {
  worker.running.store(nullptr, std::memory_order_relaxed);
  worker.current = nullptr;
  count_step(worker);
}

}  // namespace

void yield_to_scheduler(Lane& lane) {
  Worker& worker = *t_worker;
  flush_pending_store(worker);
  // The work up to this step point, in modelled cycles; a clock read after it is no spin.
  lane.cycles += kCyclesPerStep;
  lane.spin_step = 0;
  // Within run_lanes the next runnable lane of the warp starts at once, as the scheduler's loop
  // would start it (the same pick, the same bookkeeping).
  Warp* warp = worker.chain_warp;
  if (kChainLanes && warp != nullptr && warp->runnable != 0 &&
      !worker.launch->failed.load(std::memory_order_relaxed)) {
    Lane& next = pick_runnable(worker, *worker.chain_block, *warp);
    count_step(worker);  // begin_step replaces what end_step would clear
    begin_step(worker, next);
    if (&next != &lane) switch_fiber(worker, next.fiber, &lane.fiber);
    return;
  }
  switching_to(&lane.asan_fake_stack, worker.stack_low, worker.stack_size);
  switch_fiber(worker, worker.scheduler, &lane.fiber);
  switched(lane.asan_fake_stack, nullptr, nullptr);
}

namespace {

// Stack allocator that also reports canary damage when a finished thread returns its stack, and
// notes where the stack is for the switch announcements.
struct CheckedStack {
  Worker* worker;
  Lane* lane;
  boost::context::stack_context allocate() {
    boost::context::stack_context sc = worker->pool->allocate();
    lane->stack_low = static_cast<char*>(sc.sp) - sc.size;
    lane->stack_size = sc.size;
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) {
    if (worker->pool->deallocate(sc)) worker->stack_overflow = true;
  }
};

// [SECTION] Blocks: creation and retirement

Dim3 unflatten(uint64_t i, const Dim3& d) {
  return Dim3{uint32_t(i % d.x), uint32_t((i / d.x) % d.y), uint32_t(i / (uint64_t(d.x) * d.y))};
}

std::unique_ptr<Block> make_block(Worker& worker, uint32_t rank) {
  LaunchState& L = *worker.launch;
  const EmuLaunch& req = *L.request;
  auto block = std::make_unique<Block>();
  block->rank = rank;
  block->idx = unflatten(rank, req.config.grid);
  const uint32_t n = L.block_threads;
  block->lanes.resize(n);
  block->warps.resize((n + 31) / 32);
  block->live = n;
  block->smem_storage =
      std::make_unique_for_overwrite<unsigned char[]>(kSharedGuardBytes + L.smem_bytes);
  block->smem = block->smem_storage.get() + kSharedGuardBytes;
  // Dynamic shared memory starts with the same recognisable garbage as static variables.
  std::memset(block->smem, 0xA5, L.dynamic_bytes);
  if (L.check_initialisation) block->smem_written = std::make_unique<unsigned char[]>(L.smem_bytes);
  const Dim3 cluster = req.config.mode == LaunchMode::Cluster ? req.config.cluster : Dim3{};
  for (uint32_t w = 0; w < block->warps.size(); ++w) {
    Warp& warp = block->warps[w];
    warp.first = w * 32;
    warp.count = std::min<uint32_t>(32, n - w * 32);
    warp.live = warp.count == 32 ? 0xffffffffu : ((1u << warp.count) - 1);
    warp.runnable = warp.live;
  }
  for (uint32_t t = 0; t < n; ++t) {
    Lane& lane = block->lanes[t];
    lane.block = block.get();
    ThreadInfo& info = lane.info;
    info.thread_idx = unflatten(t, req.config.block);
    info.block_idx = block->idx;
    info.block_dim = req.config.block;
    info.grid_dim = req.config.grid;
    info.cluster_dim = cluster;
    info.thread_rank = t;
    info.block_rank = rank;
    info.global_id = uint32_t(uint64_t(rank) * n + t);
    info.lane = t % 32;
    info.warp = t / 32;
    lane.lane = uint8_t(info.lane);
    lane.warp = uint16_t(info.warp);
    lane.global_id = info.global_id;
    info.warp_size_here = block->warps[t / 32].count;
    info.block_threads = n;
    info.cooperative = req.config.mode == LaunchMode::Cooperative;
    info.sm = req.device.sm_count > 0 ? rank % uint32_t(req.device.sm_count) : 0;
    lane.fiber = boost::context::fiber(
        std::allocator_arg, CheckedStack{&worker, &lane}, [&lane](boost::context::fiber&& back) {
          Worker& w = *t_worker;
          switched(nullptr, &w.stack_low, &w.stack_size);
          *w.park = std::move(back);
          w.launch->request->body();
          flush_pending_store(w);
          set_state(lane, LaneState::Done);
          switching_to(nullptr, w.stack_low, w.stack_size);
          w.park = &lane.fiber;  // its context ends here: the scheduler empties the slot
          return std::move(w.scheduler);
        });
  }
  start_block_clock(L, *block);
  return block;
}

// [SECTION] Stepping a warp

void resume(Worker& worker, Lane& lane) {
  begin_step(worker, lane);
  switching_to(&worker.asan_fake_stack, lane.stack_low, lane.stack_size);
  switch_fiber(worker, lane.fiber, &worker.scheduler);
  switched(worker.asan_fake_stack, nullptr, nullptr);
  end_step(worker);
}

// Lanes still suspended after a fault or a deadlock are dropped, not unwound: a lane may wait
// where no exception can pass (inside a destructor, which is noexcept; inside a ThreadSanitizer
// hook such as __tsan_read4, which g++ declares nothrow, so the kernel's frames hold no unwind
// entry for the call), and an exception thrown there, ours or Boost.Context's forced unwinding,
// ends the program in std::terminate. So each suspended fiber's handle is never destroyed (that
// would unwind it) and its stack goes back to the pool, whose next fiber starts it afresh (the
// pool clears AddressSanitizer's marks from recycled stacks). The dropped frames' destructors do
// not run, which only a failed launch pays for.
void drop_suspended(Worker& worker) {
  for (auto& block : worker.resident)
    for (Lane& lane : block->lanes) {
      if (!lane.fiber) continue;
      alignas(boost::context::fiber) unsigned char dropped[sizeof(boost::context::fiber)];
      new (dropped) boost::context::fiber(std::move(lane.fiber));  // never destroyed
      boost::context::stack_context sc;
      sc.size = lane.stack_size;
      sc.sp = static_cast<char*>(const_cast<void*>(lane.stack_low)) + lane.stack_size;
      if (worker.pool->deallocate(sc)) worker.stack_overflow = true;
    }
}

// Lets the lanes of `batch` (waiting at one plain step) go on together, at a new moment.
void release(Worker& worker, Block& block, Warp& warp, uint32_t batch) {
  const uint64_t t = ++worker.clock;
  for (uint32_t m = batch; m; m &= m - 1) {
    Lane& l = block.lanes[warp.first + std::countr_zero(m)];
    l.released = PlainStep{batch, t};
    set_state(l, LaneState::Runnable);
  }
}

// The batch: every lane waiting at the same site as a lane chosen among `among`, like one
// instruction issued for the lanes that are converged there.
void release_batch(Worker& worker, Block& block, Warp& warp, uint32_t among) {
  const int chosen = next_lane(worker, among);
  const uint32_t site = block.lanes[warp.first + chosen].site;
  uint32_t batch = 0;
  for (uint32_t m = warp.pending; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    if (block.lanes[warp.first + i].site == site) batch |= 1u << i;
  }
  release(worker, block, warp, batch);
}

// Runs the warp's runnable lanes to their next step points. Returns whether any ran. Each lane
// that stops starts the next itself (yield_to_scheduler); control comes back here when none is
// left, or the launch failed.
bool run_lanes(Worker& worker, Block& block, Warp& warp) {
  bool progress = false;
  worker.chain_block = &block;
  worker.chain_warp = &warp;
  while (warp.runnable && !worker.launch->failed.load(std::memory_order_relaxed)) {
    resume(worker, pick_runnable(worker, block, warp));
    progress = true;
  }
  worker.chain_warp = nullptr;
  return progress;
}

// Lockstep: runs the warp's runnable lanes to their next step points, then releases one batch of
// lanes that wait at the same plain step. Returns whether anything happened.
bool step_warp(Worker& worker, Block& block, Warp& warp) {
  bool progress = run_lanes(worker, block, warp);
  if (warp.pending) {
    release_batch(worker, block, warp, warp.pending);
    progress = true;
  }
  return progress;
}

// The warp's lanes waiting at step points other than those where code asks which lanes are
// converged (coalesced_threads, __activemask: Op::Ballot sites). Under random and its these go
// first, so that lanes merely behind on the same path catch up before such a call, as a warp
// reconverges before it; those asking go on together once no other lane waits to step.
uint32_t pending_elsewhere_than_ballot(const Block& block, const Warp& warp) {
  uint32_t elsewhere = 0;
  for (uint32_t m = warp.pending; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    if (block.lanes[warp.first + i].op != Op::Ballot) elsewhere |= 1u << i;
  }
  return elsewhere;
}

// Random: as lockstep, with the lanes that ask who is converged released last.
void step_warp_random(Worker& worker, Block& block, Warp& warp) {
  run_lanes(worker, block, warp);
  if (!warp.pending) return;
  const uint32_t elsewhere = pending_elsewhere_than_ballot(block, warp);
  release_batch(worker, block, warp, elsewhere ? elsewhere : warp.pending);
}

// Its: a warp's lanes advance one at a time. A step runs one runnable lane to its next step
// point, or else lets one waiting lane through alone; the lanes that ask who is converged go on
// together, last.
void step_lane(Worker& worker, Block& block, Warp& warp) {
  if (warp.runnable) {
    resume(worker, block.lanes[warp.first + next_lane(worker, warp.runnable)]);
    return;
  }
  const uint32_t elsewhere = pending_elsewhere_than_ballot(block, warp);
  if (elsewhere == 0) return release_batch(worker, block, warp, warp.pending);
  release(worker, block, warp, 1u << next_lane(worker, elsewhere));
}

// Wakes one waiter of a warp-level rendezvous whose missing members have all exited since it
// arrived, to complete it (a lane that exits cannot). Returns whether it found one.
bool finish_exited_rendezvous(Worker& worker) {
  for (auto& block : worker.resident)
    for (auto& [key, r] : block->rendezvous) {
      if (r.arrived.empty() || r.first->group.warp_mask == 0) continue;
      Lane& first = *r.arrived.front();
      if (r.arrived.size() < members_needed(first, r.first->group)) continue;
      first.finish_rendezvous = true;
      set_state(first, LaneState::Runnable);
      return true;
    }
  return false;
}

// [SECTION] Deadlock reports

std::string describe_rendezvous(const Rendezvous& r, const std::vector<Lane*>& members) {
  std::ostringstream os;
  const CollectiveCall& c = *r.first;
  std::vector<const Lane*> arrived(r.arrived.begin(), r.arrived.end());
  std::vector<const Lane*> exited, elsewhere;
  for (const Lane* m : members) {
    if (std::find(arrived.begin(), arrived.end(), m) != arrived.end()) continue;
    (m->state == LaneState::Done ? exited : elsewhere).push_back(m);
  }
  // __syncwarp's group is the lanes its mask names: the call is shown with that mask.
  char syncwarp[32];
  std::snprintf(syncwarp, sizeof syncwarp, "__syncwarp(0x%08x)", unsigned(c.group.id));
  const bool warp_barrier = c.kind == EventKind::Barrier && c.group.kind == GroupKind::Warp;
  os << (warp_barrier ? syncwarp : c.what) << " at line " << c.line << ": " << arrived.size()
     << " of " << c.group.size << " threads arrived (" << describe_threads(arrived) << ")";
  if (!exited.empty())
    os << "; " << exited.size() << " exited without arriving (" << describe_threads(exited) << ")";
  if (!elsewhere.empty()) {
    os << "; " << elsewhere.size() << " wait elsewhere (" << describe_threads(elsewhere);
    const Lane* first = elsewhere.front();
    os << ", e.g. at line " << first->line;
    if (first->waiting_what) os << " in " << first->waiting_what;
    os << ")";
  }
  return os.str();
}

bool same_cluster(const Dim3& a, const Dim3& b, const Dim3& c) {
  return a.x / c.x == b.x / c.x && a.y / c.y == b.y / c.y && a.z / c.z == b.z / c.z;
}

// Members of the group a rendezvous is for, found from its first arrival: a warp-level group by
// its lane mask, a grid or cluster by its blocks, a block or tile by its range of thread ranks.
std::vector<Lane*> members_of(Worker& worker, const Rendezvous& r) {
  std::vector<Lane*> out;
  const GroupRef& g = r.first->group;
  const Lane& first = *r.arrived.front();
  Block& block = *first.block;
  if (g.warp_mask) {
    for (uint32_t m = g.warp_mask; m; m &= m - 1)
      out.push_back(&block.lanes[first.info.warp * 32 + std::countr_zero(m)]);
  } else if (g.kind == GroupKind::Grid || g.kind == GroupKind::Cluster) {
    for (auto& b : worker.resident)
      if (g.kind == GroupKind::Grid || same_cluster(b->idx, first.info.block_idx, first.info.cluster_dim))
        for (Lane& l : b->lanes) out.push_back(&l);
  } else {
    const uint32_t lo = first.info.thread_rank - g.rank;
    for (uint32_t t = lo; t < lo + g.size && t < block.lanes.size(); ++t)
      out.push_back(&block.lanes[t]);
  }
  return out;
}

std::string deadlock_report(Worker& worker) {
  std::ostringstream os;
  os << "deadlock: no thread can make progress";
  int shown = 0;
  for (auto& [key, r] : worker.launch->rendezvous) {
    os << "\n  " << (r.first->group.kind == GroupKind::Grid ? "grid-wide " : "cluster-wide ")
       << describe_rendezvous(r, members_of(worker, r));
    ++shown;
  }
  for (auto& [key, s] : worker.launch->splits)
    if (!s.waiters.empty())
      os << "\n  grid- or cluster-wide barrier_wait at line " << s.line << ": " << s.arrived
         << " of " << s.expected << " threads arrived in this phase";
  for (auto& b : worker.resident) {
    for (auto& [key, r] : b->rendezvous) {
      if (shown++ >= 6) break;
      os << "\n  block (" << b->idx.str() << ") " << describe_rendezvous(r, members_of(worker, r));
    }
    for (auto& [key, s] : b->splits) {
      if (s.waiters.empty()) continue;
      os << "\n  block (" << b->idx.str() << ") barrier_wait at line " << s.line << ": "
         << s.arrived << " of " << s.expected << " threads arrived in this phase";
    }
    os << describe_object_barriers(*b);
  }
  return os.str();
}

// Every thread that can never leave the call it waits in is recorded there, marked stuck, so
// the views show who is stuck and on which line, next to the report's words.
void record_stuck(Worker& worker) {
  for (auto& b : worker.resident)
    for (Lane& l : b->lanes) {
      if (l.state != LaneState::Waiting) continue;
      Event e{};
      e.time = worker.clock;
      e.line = l.line;
      e.flags = kFlagStuck;
      e.kind = EventKind::BarrierWait;  // a split barrier's wait, unless it is in a call
      if (const CollectiveCall* c = l.call) {
        e.kind = c->kind;
        e.op = c->op;
        e.group_kind = c->group.kind;
        e.group_id = c->group.id;
        e.rank = c->group.rank;
        e.group_size = c->group.size;
      }
      record_as(l.info.global_id, e);
    }
}

// [SECTION] The worker loop and emulate()

// The unit that starts `u`-th: (a * u + b) mod units, a bijection because a is coprime to units.
uint64_t block_order(const LaunchState& L, uint64_t u) {
  if (L.order_a == 1 && L.order_b == 0) return u;
  return uint64_t((static_cast<unsigned __int128>(L.order_a) * u + L.order_b) % L.units);
}

// Blocks are handed to workers in units: one block, or all blocks of one cluster (which must be
// co-resident so that map_shared_rank and cluster.sync() can work).
void fill_window(Worker& worker, unsigned window_units) {
  LaunchState& L = *worker.launch;
  const LaunchConfig& cfg = L.request->config;
  const bool clustered = cfg.mode == LaunchMode::Cluster;
  const Dim3 c = clustered ? cfg.cluster : Dim3{};
  const uint32_t unit = uint32_t(c.count());
  const Dim3 clusters{cfg.grid.x / c.x, cfg.grid.y / c.y, cfg.grid.z / c.z};
  while (worker.resident.size() < size_t(window_units) * unit) {
    const uint64_t u = L.next_block.fetch_add(1);
    if (u >= L.total_blocks / unit) return;
    const Dim3 origin = unflatten(block_order(L, u), clusters);
    for (uint32_t i = 0; i < unit; ++i) {
      const Dim3 local = unflatten(i, c);
      const uint64_t x = origin.x * c.x + local.x, y = origin.y * c.y + local.y,
                     z = origin.z * c.z + local.z;
      const uint64_t rank = x + uint64_t(cfg.grid.x) * (y + uint64_t(cfg.grid.y) * z);
      worker.resident.push_back(make_block(worker, uint32_t(rank)));
      ++worker.ready_changes;
    }
  }
}

// Drops finished blocks. A cluster's blocks go together: a block's shared memory must outlive
// its cluster peers, which may still read it through map_shared_rank (distributed shared memory).
// A finished block's partitions are checked first: every member of a parent must have made them.
void retire_finished(Worker& worker) {
  auto& res = worker.resident;
  for (auto& b : res) {
    if (b->live != 0 || b->partition_sites.empty()) continue;
    const std::string skipped = skipped_partition(*b);
    b->partition_sites.clear();
    if (!skipped.empty()) worker.launch->fail(skipped);
  }
  ++worker.ready_changes;
  if (worker.launch->request->config.mode != LaunchMode::Cluster) {
    std::erase_if(res, [](const std::unique_ptr<Block>& b) { return b->live == 0; });
    return;
  }
  const Dim3 c = worker.launch->request->config.cluster;
  std::vector<const Block*> busy;
  for (const auto& b : res)
    if (b->live) busy.push_back(b.get());
  std::erase_if(res, [&](const std::unique_ptr<Block>& b) {
    return b->live == 0 && std::none_of(busy.begin(), busy.end(), [&](const Block* o) {
             return same_cluster(o->idx, b->idx, c);
           });
  });
}

void watchdog(Worker& worker) {
  LaunchState& L = *worker.launch;
  const EmuOptions& o = *L.options;
  if (o.max_steps && worker.steps.load(std::memory_order_relaxed) > o.max_steps)
    L.fail("watchdog: the launch took more than " + std::to_string(o.max_steps) +
           " scheduler steps");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - L.start).count();
  // The scheduler has control, so its threads were still taking steps: say how far they got
  // (a thread that never hands control back is the launch monitor's to name).
  if (seconds > o.watchdog_seconds)
    L.fail("watchdog: the launch ran longer than " + std::to_string(int(o.watchdog_seconds)) +
           " s while still making progress (" + launch_progress_words(L, seconds) +
           "): a longer kernel than the time limit allows (--timeout gives it more), or threads "
           "spinning on a value no other thread will change");
}

// Nothing can run: completes a warp rendezvous whose missing members exited, or else records the
// stuck threads and reports the deadlock. Returns whether the launch goes on.
bool recover_or_report_deadlock(Worker& worker) {
  if (finish_exited_rendezvous(worker)) return true;
  record_stuck(worker);
  worker.launch->fail(deadlock_report(worker));
  return false;
}

// The lockstep schedule: every resident warp in turn, each running its lanes to their next step
// points and releasing one batch.
void run_lockstep(Worker& worker, unsigned window_units) {
  LaunchState& L = *worker.launch;
  uint64_t next_check = 1u << 14;
  while (!L.failed.load(std::memory_order_relaxed)) {
    fill_window(worker, window_units);
    if (worker.resident.empty()) break;
    bool progress = false;
    for (auto& block : worker.resident)
      for (Warp& warp : block->warps)
        if (warp.live) progress |= step_warp(worker, *block, warp);
    if (L.failed.load(std::memory_order_relaxed)) break;
    retire_finished(worker);
    if (!progress && !worker.resident.empty()) {
      if (recover_or_report_deadlock(worker)) continue;
      break;
    }
    if (worker.steps >= next_check) {
      next_check = worker.steps + (1u << 14);
      watchdog(worker);
    }
  }
}

// The random and its schedules: each turn steps one warp that can make progress, picked by the
// seeded generator among every resident block's warps, so that warps and blocks interleave
// differently for each seed (and the same way for the same seed: one OS thread, one generator).
void run_seeded(Worker& worker, unsigned window_units) {
  LaunchState& L = *worker.launch;
  const bool its = L.options->schedule == Schedule::Its;
  std::vector<std::pair<Block*, Warp*>> ready;
  uint64_t next_check = 1u << 14, ready_as_of = ~0ull;
  while (!L.failed.load(std::memory_order_relaxed)) {
    fill_window(worker, window_units);
    if (worker.resident.empty()) break;
    // The same list, in the same order, as long as no warp's readiness changed: most steps stop
    // at a load or store and leave every warp as able to move as before.
    if (ready_as_of != worker.ready_changes) {
      ready.clear();
      for (auto& block : worker.resident)
        for (Warp& warp : block->warps)
          if (warp.runnable | warp.pending) ready.emplace_back(block.get(), &warp);
      ready_as_of = worker.ready_changes;
    }
    if (ready.empty()) {
      if (recover_or_report_deadlock(worker)) continue;
      break;
    }
    auto [block, warp] = ready[worker.random() % ready.size()];
    if (its)
      step_lane(worker, *block, *warp);
    else
      step_warp_random(worker, *block, *warp);
    if (block->live == 0) retire_finished(worker);
    if (worker.steps >= next_check) {
      next_check = worker.steps + (1u << 14);
      watchdog(worker);
    }
  }
}

void run_worker(Worker& worker, unsigned window_units) {
  t_worker = &worker;
  LaunchState& L = *worker.launch;
  if (L.record_memory || L.access_steps || L.check_bounds || L.check_initialisation)
    t_recording_worker = &worker;
  if (L.options->schedule == Schedule::Lockstep)
    run_lockstep(worker, window_units);
  else
    run_seeded(worker, window_units);
  if (worker.stack_overflow)
    L.fail("an emulated thread overflowed its " + std::to_string(worker.pool->stack_bytes() / 1024) +
           " KiB stack");
  drop_suspended(worker);
  worker.resident.clear();
  t_worker = nullptr;
  t_recording_worker = nullptr;
}

// A seeded order in which blocks (clusters) start: a multiplier coprime to their number and an
// offset, both drawn from the launch's generator.
void pick_block_order(LaunchState& L, Worker& worker) {
  if (L.units < 2) return;
  do {
    L.order_a = 1 + worker.random() % (L.units - 1);
  } while (std::gcd(L.order_a, L.units) != 1);
  L.order_b = worker.random() % L.units;
}

// The trace header's words for how the launch was scheduled.
std::string describe_schedule(const LaunchState& L, unsigned jobs, unsigned window) {
  const EmuOptions& o = *L.options;
  std::ostringstream os;
  os << to_string(o.schedule) << " schedule, seed " << o.seed << "; "
     << (jobs > 1 ? "parallel" : "deterministic") << ", " << jobs << " OS thread"
     << (jobs > 1 ? "s" : "") << ", " << window << " block" << (window > 1 ? "s" : "")
     << " interleaved per thread";
  if (o.schedule != Schedule::Lockstep && !L.access_steps)
    os << "; loads and stores are not step points in this build";
  return os.str();
}

}  // namespace

std::string describe_threads(const std::vector<const Lane*>& lanes) {
  std::vector<uint32_t> ids;
  for (const Lane* l : lanes) ids.push_back(l->info.thread_rank);
  std::sort(ids.begin(), ids.end());
  std::ostringstream os;
  os << "threads ";
  int ranges = 0;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (ranges++) os << ", ";
    if (ranges > 6) {
      os << "...";
      break;
    }
    os << ids[i];
    if (j > i) os << "-" << ids[j];
    i = j + 1;
  }
  if (!lanes.empty()) os << " of block (" << lanes.front()->info.block_idx.str() << ")";
  return os.str();
}

}  // namespace coop::emu::detail

namespace coop::emu {

Status emulate(const EmuLaunch& req, const EmuOptions& options, Trace& trace) {
  using namespace detail;
  // The random and its schedules are reproducible from their seed because one generator on one
  // OS thread makes every choice; workers on several OS threads would interleave as the host's
  // scheduler decides.
  if (options.schedule != Schedule::Lockstep && options.jobs > 1)
    return Status::error(std::string("the ") + to_string(options.schedule) +
                         " schedule runs on one OS thread so that its seed reproduces it: jobs " +
                         std::to_string(options.jobs) + " is for the lockstep schedule only");
  LaunchState L;
  // Reserve the whole capacity as uninitialised memory: pages become resident only as events land.
  // Each worker may leave at most one sequence batch unused, so that much slack is added.
  const uint64_t slack = uint64_t(std::max(1u, options.jobs)) * Worker::kSequenceBatch;
  L.event_slots = req.trace ? std::min<uint64_t>(req.capacity + slack, 0xffffffffull) : 0;
  trace.events.clear();
  trace.events.resize(L.event_slots);
  L.events = trace.events.data();  // large arrays come in 2 MiB pages (event_memory.hpp)
  L.request = &req;
  L.options = &options;
  L.block_threads = uint32_t(req.config.block.count());
  L.total_blocks = req.config.grid.count();
  L.dynamic_bytes = (req.config.dynamic_smem + 15) / 16 * 16;
  const size_t limit = std::max(req.device.smem_per_block_optin, req.device.smem_per_block);
  // Room for every static variable the block may declare, each with its guard zone, and for
  // their alignment.
  L.static_base = L.dynamic_bytes + kSharedGuardBytes;
  L.smem_bytes = L.static_base + std::max(limit, L.dynamic_bytes) +
                 LaunchState::kMaxSlots * kSharedGuardBytes + 1024;
  L.start = std::chrono::steady_clock::now();
  L.trace = req.trace;
  L.record_memory = req.trace && req.record_memory;
  L.shuffle = options.seed != 0 || options.schedule != Schedule::Lockstep;
  L.access_steps = options.schedule != Schedule::Lockstep && memory_instrumentation_available();
  L.check_bounds = req.check_bounds && memory_instrumentation_available();
  L.check_initialisation = req.check_initialisation && memory_instrumentation_available();
  if (L.record_memory || L.access_steps || L.check_bounds || L.check_initialisation)
    L.globals = global_memory_snapshot();
  L.units = req.config.mode == LaunchMode::Cluster ? L.total_blocks / req.config.cluster.count()
                                                   : L.total_blocks;

  const bool co_resident = req.config.mode != LaunchMode::Normal;
  unsigned jobs = co_resident ? 1 : std::max(1u, options.jobs);
  if (uint64_t(jobs) > L.total_blocks) jobs = unsigned(L.total_blocks);
  unsigned window = options.window;
  if (window == 0) window = std::clamp(512u / std::max(1u, L.block_threads), 1u, 8u);
  if (req.config.mode == LaunchMode::Cooperative) window = unsigned(L.total_blocks);

  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned j = 0; j < jobs; ++j) {
    workers.push_back(std::make_unique<Worker>(options.stack_bytes));
    workers.back()->launch = &L;
    workers.back()->rng = options.seed * 0x2545F4914F6CDD1Dull + j;
  }
  if (options.schedule != Schedule::Lockstep) pick_block_order(L, *workers[0]);
  start_launch_clock(L, uint32_t(std::max(1, req.device.sm_count)), modelled_clock_mhz(req.device));
  {
    std::optional<LaunchMonitor> monitor;
    if (options.progress) monitor.emplace(L, workers);
    if (jobs == 1) {
      run_worker(*workers[0], window);
    } else {
      std::vector<std::thread> threads;
      for (auto& w : workers) threads.emplace_back([&w, window] { run_worker(*w, window); });
      for (auto& t : threads) t.join();
    }
  }
  finish_launch_clock(L);

  // Close the gaps left by unused sequence batches, renumber, and keep the first `capacity`
  // events, as the GPU recorder does.
  uint64_t attempts = 0;
  std::vector<std::pair<uint64_t, uint64_t>> gaps;
  for (auto& w : workers) {
    attempts += w->recorded;
    if (w->seq_next < w->seq_end) gaps.emplace_back(w->seq_next, w->seq_end);
  }
  std::sort(gaps.begin(), gaps.end());
  const uint64_t written = std::min(L.attempts.load(), L.event_slots);
  uint64_t out = 0, in = 0;
  for (size_t g = 0; g <= gaps.size(); ++g) {
    const uint64_t stop = g < gaps.size() ? std::min(gaps[g].first, written) : written;
    if (stop > in) {
      if (out != in) std::memmove(&trace.events[out], &trace.events[in], (stop - in) * sizeof(Event));
      out += stop - in;
    }
    if (g < gaps.size()) in = std::max(in, std::min(gaps[g].second, written));
  }
  const uint64_t kept = std::min<uint64_t>(out, req.trace ? req.capacity : 0);
  trace.events.resize(kept);
  number_events(trace.events.data(), kept, L.record_memory, trace.header.buffers);
  if (!req.trace) attempts = 0;
  trace.header.capacity = req.capacity;
  trace.header.attempts = attempts;
  trace.header.schedule = describe_schedule(L, jobs, window);
  if (L.failed) return Status::error(L.error);
  return {};
}

}  // namespace coop::emu
