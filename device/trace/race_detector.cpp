// [SECTION] Index
//   Detector: walks the trace in sequence order; barrier phases join vector clocks
//   Phases: resolved at their first departure, when every member has arrived
//   Atomics and fences: release sequences per location, by scope
//   Copies: memcpy_async's accesses, pending from issue to completion
#include "device/trace/race_detector.hpp"

#include <algorithm>
#include <unordered_map>

#include "device/trace/race_phases.hpp"
#include "device/trace/race_shadow.hpp"

namespace coop {
namespace race {
namespace {

// What releases to one atomic location made visible to an acquire that reads it: every release
// in its current release sequence, by the releasing thread's block (any scope) and at device
// scope or wider.
struct AtomicLocation {
  VectorClock device;
  std::unordered_map<uint32_t, VectorClock> by_block;
  bool any = false;
  uint32_t writes = 0;       // atomic writes so far: the last one's write index
  uint32_t chain_start = 0;  // the write index of the atomic store the current chain began at
};

// A memcpy_async, modelled once per copy by its group's rank 0: its destination and source.
struct Copy {
  WordKey dst, src;
  uint64_t dst_address = 0, src_address = 0;
  uint32_t bytes = 0;
};

// What few threads need: fences, relaxed atomic reads, copies in flight.
struct ThreadExtras {
  std::shared_ptr<const VectorClock> fence_release;  // known at its last __threadfence()
  VectorClock relaxed_reads;  // what relaxed atomic reads saw since: a next fence acquires it
  bool has_relaxed_reads = false;
  std::vector<uint32_t> copies;  // issued and not completed, oldest first
};

// A thread that met a phase with the same knowledge as an arrival already counted needs no join.
constexpr size_t kContributedSearch = 16;

class Detector {
 public:
  explicit Detector(const Trace& trace);
  std::vector<Race> run();

 private:
  void on_event(const Event& e);
  void on_access(const Event& e, AccessKind kind);
  void on_atomic(const Event& e);
  void on_fence(uint32_t t);
  void on_copy_issue(const Event& e);
  void on_sync(const Event& e, Category c, PhaseNumbering& numbering);
  void resolve(Phase& p, const PhaseKey& key, const Event& e);
  void arrive(Phase& p, uint32_t t);
  void leave(Phase& p, const PhaseKey& key, uint32_t t, bool member);
  void complete_copies(uint32_t t, size_t keep);
  void carry_relaxed_reads(Phase& p, uint32_t t);
  Stamp stamp(uint32_t t, uint32_t sequence, uint16_t line, AccessKind kind) const;
  std::shared_ptr<const VectorClock> released(uint32_t t) const;
  void learn(uint32_t t, const VectorClock& more);
  WordKey key_of(const Event& e) const;

  const Trace& trace_;
  uint32_t block_threads_;
  std::vector<uint32_t> clusters_;
  std::vector<ThreadState> threads_;
  ShadowMemory shadow_;
  std::unordered_map<PhaseKey, Phase, PhaseKeyHash> phases_;
  std::vector<uint32_t> block_phases_, cluster_phases_;
  uint32_t grid_phases_ = 0;
  std::unordered_map<uint32_t, ThreadExtras> extras_;
  std::unordered_map<WordKey, AtomicLocation, WordKeyHash> atomics_;
  std::vector<Copy> copies_;
};

uint32_t threads_seen(const Trace& trace) {
  uint32_t most = 0;
  for (const Event& e : trace.events) most = std::max(most, e.thread + 1);
  return most;
}

Detector::Detector(const Trace& trace)
    : trace_(trace),
      block_threads_(uint32_t(std::max<uint64_t>(trace.header.launch.block.count(), 1))),
      clusters_(clusters_of_blocks(trace.header.launch)),
      threads_(threads_seen(trace)),
      shadow_(trace, threads_),
      block_phases_(clusters_.size() + 1),
      cluster_phases_(clusters_.size() + 1) {
  const auto nothing = std::make_shared<const VectorClock>();
  for (ThreadState& s : threads_) s.known = nothing;
}

std::vector<Race> Detector::run() {
  // First pass: who meets in each phase whose members are not simply every thread of a scope.
  PhaseNumbering numbering(block_threads_, clusters_);
  for (const Event& e : trace_.events) {
    const std::optional<Category> c = category_of(e);
    if (!c) continue;
    const PhaseKey key = numbering.key(e, *c);
    const bool rendezvous_member = *c == Category::Rendezvous && !whole_scope(e.group_kind);
    const bool object_member = *c == Category::Object && e.kind == EventKind::Barrier;
    if (rendezvous_member || object_member) phases_[key].members.push_back(e.thread);
  }
  PhaseNumbering walk(block_threads_, clusters_);
  for (const Event& e : trace_.events) {
    if (e.thread >= threads_.size()) continue;
    if (const std::optional<Category> c = category_of(e))
      on_sync(e, *c, walk);
    else
      on_event(e);
  }
  return shadow_.races();
}

void Detector::on_event(const Event& e) {
  switch (e.kind) {
    case EventKind::Load:
      return on_access(e, AccessKind::Read);
    case EventKind::Store:
      return on_access(e, AccessKind::Write);
    case EventKind::Atomic:
      return on_atomic(e);
    case EventKind::Fence:
      return on_fence(e.thread);
    case EventKind::CopyIssue:
      return on_copy_issue(e);
    case EventKind::CopyWait:  // a thread's own wait (thread-scope pipeline)
      return complete_copies(e.thread, e.extra);
    case EventKind::ThreadEnd:
      threads_[e.thread].ended = true;
      return;
    default:
      return;
  }
}

Stamp Detector::stamp(uint32_t t, uint32_t sequence, uint16_t line, AccessKind kind) const {
  const ThreadState& s = threads_[t];
  Stamp x;
  x.thread = t;
  x.clock = s.clock;
  x.grid = s.grid;
  x.block = s.block;
  x.cluster = s.cluster;
  x.sequence = sequence;
  x.line = line;
  x.kind = kind;
  return x;
}

WordKey Detector::key_of(const Event& e) const {
  const bool shared = in_shared_memory(e);
  return WordKey{shared, shared ? shared_owner(e, block_threads_) : 0, 0};
}

void Detector::on_access(const Event& e, AccessKind kind) {
  const uint32_t bytes = access_bytes(e);
  if (bytes == 0) return;
  shadow_.access(key_of(e), shared_offset_of(e), bytes, stamp(e.thread, e.sequence, e.line, kind));
}

std::shared_ptr<const VectorClock> Detector::released(uint32_t t) const {
  auto k = std::make_shared<VectorClock>(*threads_[t].known);
  k->raise_thread(t, threads_[t].clock);
  return k;
}

void Detector::learn(uint32_t t, const VectorClock& more) {
  auto k = std::make_shared<VectorClock>(*threads_[t].known);
  k->join(more);
  threads_[t].known = std::move(k);
}

// [SECTION] Phases

void Detector::on_sync(const Event& e, Category c, PhaseNumbering& numbering) {
  const PhaseKey key = numbering.key(e, c);
  Phase& p = phases_[key];
  const uint32_t t = e.thread;
  if (e.kind == EventKind::BarrierArrive) {
    // A cuda::barrier's arrival is when the copies this thread gave it land, at the latest.
    if (c == Category::Object) complete_copies(t, 0);
    arrive(p, t);
    return;
  }
  if (!p.done) resolve(p, key, e);
  // Waits of split and object barriers arrived earlier (their BarrierArrive); everything else
  // arrived at this call and met the others at resolution.
  const bool member = c == Category::Rendezvous || e.kind == EventKind::Barrier;
  leave(p, key, t, member);
}

void Detector::arrive(Phase& p, uint32_t t) {
  ThreadState& s = threads_[t];
  if (!p.done) {
    carry_relaxed_reads(p, t);
    if (p.contributed.empty() || p.contributed.back() != s.known) {
      p.arrived.join(*s.known);
      p.contributed.push_back(s.known);
    }
    p.own.emplace_back(t, s.clock);
  }
  ++s.clock;
}

// Every member has arrived once the first of them leaves: what they knew is joined once.
void Detector::resolve(Phase& p, const PhaseKey& key, const Event& e) {
  VectorClock all = std::move(p.arrived);
  std::vector<VectorClock::Entry> own = std::move(p.own);
  // cg::wait lands each member's copies but its newest `extra` batches; arrive_and_wait all.
  const bool lands = e.kind == EventKind::CopyWait || key.category == Category::Object;
  const size_t keep = key.category == Category::Object ? 0 : e.extra;
  auto take = [&](uint32_t u) {
    if (lands) complete_copies(u, keep);
    carry_relaxed_reads(p, u);
    const ThreadState& s = threads_[u];
    if (p.contributed.empty() || p.contributed.back() != s.known) {
      all.join(*s.known);
      p.contributed.push_back(s.known);
    }
    own.emplace_back(u, s.clock);
  };
  if (key.category == Category::Rendezvous && whole_scope(key.kind)) {
    // Every thread of the scope that has not exited takes part; if none has exited the phase
    // is complete and is kept as one number.
    bool complete = true;
    auto take_block = [&](uint64_t b) {
      const uint64_t first = b * block_threads_,
                     end = std::min<uint64_t>(first + block_threads_, threads_.size());
      for (uint64_t u = first; u < end; ++u) {
        if (threads_[u].ended)
          complete = false;
        else
          take(uint32_t(u));
      }
      if (end - std::min(first, end) < block_threads_) complete = false;
    };
    if (key.kind == GroupKind::Block)
      take_block(key.scope);
    else
      for (uint64_t b = 0; b < clusters_.size(); ++b)
        if (key.kind == GroupKind::Grid || clusters_[b] == key.scope) take_block(b);
    if (complete) {
      own.clear();  // the phase number says more than the members' clocks
      if (key.kind == GroupKind::Grid) {
        p.complete_phases = ++grid_phases_;
        all.forget_below_grid();
        all.raise_grid(p.complete_phases);
      } else if (key.kind == GroupKind::Block && key.scope < block_phases_.size()) {
        p.complete_phases = ++block_phases_[key.scope];
        all.raise_block(uint32_t(key.scope), p.complete_phases);
        all.forget_threads(uint32_t(key.scope * block_threads_),
                           uint32_t((key.scope + 1) * block_threads_));
      } else if (key.kind == GroupKind::Cluster && key.scope < cluster_phases_.size()) {
        p.complete_phases = ++cluster_phases_[key.scope];
        all.raise_cluster(uint32_t(key.scope), p.complete_phases);
      }
    }
  } else {
    for (uint32_t u : p.members)
      if (u < threads_.size()) take(u);
  }
  all.raise_threads(own);
  p.done = std::make_shared<const VectorClock>(std::move(all));
  p.members = {};
}

void Detector::leave(Phase& p, const PhaseKey& key, uint32_t t, bool member) {
  ThreadState& s = threads_[t];
  const size_t n = std::min(p.contributed.size(), kContributedSearch);
  const bool counted =
      std::find(p.contributed.end() - long(n), p.contributed.end(), s.known) != p.contributed.end();
  if (counted)
    s.known = p.done;
  else
    learn(t, *p.done);
  if (member) ++s.clock;
  if (p.has_relaxed_reads) {
    ThreadExtras& x = extras_[t];
    x.relaxed_reads.join(p.relaxed_reads);
    x.has_relaxed_reads = true;
  }
  if (p.complete_phases == 0) return;
  if (key.kind == GroupKind::Grid) s.grid = p.complete_phases;
  if (key.kind == GroupKind::Block) s.block = p.complete_phases;
  if (key.kind == GroupKind::Cluster) s.cluster = p.complete_phases;
}

// [SECTION] Atomics and fences

void Detector::carry_relaxed_reads(Phase& p, uint32_t t) {
  auto it = extras_.find(t);
  if (it == extras_.end() || !it->second.has_relaxed_reads) return;
  p.relaxed_reads.join(it->second.relaxed_reads);
  p.has_relaxed_reads = true;
}

void Detector::on_atomic(const Event& e) {
  const uint32_t t = e.thread, block = t / block_threads_;
  const bool load = e.op == Op::AtomicLoad, store = e.op == Op::AtomicStore;
  WordKey where = key_of(e);
  where.word = shared_offset_of(e) / 4;
  AtomicLocation& loc = atomics_[where];
  if (!store) shadow_.observe(t, where, loc.chain_start, loc.writes);
  Stamp access = stamp(t, e.sequence, e.line, AccessKind::Atomic);
  if (!load) {
    access.write_index = ++loc.writes;
    if (store) loc.chain_start = loc.writes;
    if (loc.chain_start == 0) loc.chain_start = 1;
  }
  shadow_.access(key_of(e), shared_offset_of(e), access_bytes(e), access);
  if (e.flags & kFlagScopeThread) return;  // orders no other thread
  const bool block_scope = e.flags & kFlagScopeBlock;
  const bool acquire = e.flags & (kFlagOrderAcquire | kFlagOrderSeqCst);
  const bool release = e.flags & (kFlagOrderRelease | kFlagOrderSeqCst);
  if (!store && loc.any) {
    VectorClock seen;
    if (auto it = loc.by_block.find(block); it != loc.by_block.end()) seen.join(it->second);
    if (!block_scope) seen.join(loc.device);
    if (acquire) {
      learn(t, seen);
    } else {
      ThreadExtras& x = extras_[t];
      x.relaxed_reads.join(seen);
      x.has_relaxed_reads = true;
    }
  }
  if (load) return;
  std::shared_ptr<const VectorClock> published;
  if (release) {
    published = released(t);
    ++threads_[t].clock;
  } else if (auto it = extras_.find(t); it != extras_.end()) {
    published = it->second.fence_release;  // a fence before a relaxed write releases
  }
  // A plain atomic store starts a new release sequence; a read-modify-write continues it.
  if (store) {
    loc.device = VectorClock();
    loc.by_block.clear();
    loc.any = false;
  }
  if (!published) return;
  loc.by_block[block].join(*published);
  if (!block_scope) loc.device.join(*published);
  loc.any = true;
}

void Detector::on_fence(uint32_t t) {
  ThreadExtras& x = extras_[t];
  if (x.has_relaxed_reads) {
    learn(t, x.relaxed_reads);
    x.relaxed_reads = VectorClock();
    x.has_relaxed_reads = false;
  }
  x.fence_release = released(t);
  ++threads_[t].clock;
}

// [SECTION] Copies

void Detector::on_copy_issue(const Event& e) {
  if (e.rank != 0) return;  // the group's rank 0 stands for the whole copy
  Copy c;
  c.dst = key_of(e);
  c.src = WordKey{false, 0, 0};
  c.dst_address = shared_offset_of(e);
  c.src_address = e.a;
  c.bytes = e.extra;
  if (c.bytes == 0) return;
  copies_.push_back(c);
  const uint32_t id = uint32_t(copies_.size());
  Stamp write = stamp(e.thread, e.sequence, e.line, AccessKind::Write);
  write.copy = id;
  write.pending = true;
  shadow_.access(c.dst, c.dst_address, c.bytes, write);
  Stamp read = write;
  read.kind = AccessKind::Read;
  shadow_.access(c.src, c.src_address, c.bytes, read);
  extras_[e.thread].copies.push_back(id);
}

void Detector::complete_copies(uint32_t t, size_t keep) {
  auto it = extras_.find(t);
  if (it == extras_.end() || it->second.copies.size() <= keep) return;
  std::vector<uint32_t>& pending = it->second.copies;
  const size_t landing = pending.size() - keep;
  const Stamp done = stamp(t, 0, 0, AccessKind::Write);
  for (size_t i = 0; i < landing; ++i) {
    const Copy& c = copies_[pending[i] - 1];
    shadow_.complete_copy(pending[i], c.dst, c.dst_address, c.bytes, done);
    shadow_.complete_copy(pending[i], c.src, c.src_address, c.bytes, done);
  }
  pending.erase(pending.begin(), pending.begin() + long(landing));
}

}  // namespace
}  // namespace race

std::vector<Race> find_races(const Trace& trace) {
  return race::Detector(trace).run();
}

}  // namespace coop
