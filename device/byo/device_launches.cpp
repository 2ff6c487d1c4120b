// Launches kernels make, on the emulator (device_launches.hpp).
#include "device/byo/device_launches.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "device/emu/emu_api.hpp"
#include "device/launch/device_props.hpp"

namespace coop::byo {
namespace {

// Which of a grid's streams a child was launched into.
enum class StreamKind { BlockNull, Named, PerThread, FireAndForget, Tail };

const char* stream_words(StreamKind k) {
  switch (k) {
    case StreamKind::BlockNull: return "the block's NULL stream";
    case StreamKind::Named: return "a stream the grid created";
    case StreamKind::PerThread: return "cudaStreamPerThread";
    case StreamKind::FireAndForget: return "cudaStreamFireAndForget";
    case StreamKind::Tail: return "cudaStreamTailLaunch";
  }
  return "";
}

// A child launch waiting for its parent grid to finish.
struct Child {
  LaunchRequest request;
  StreamKind kind = StreamKind::BlockNull;
  uint64_t stream = 0;      // which stream of its kind (a block, a thread, a handle, a launch)
  uint32_t block_rank = 0;  // of the launching thread, which orders the queue
  uint64_t sequence = 0;    // in its block's launches
  std::string thread;       // "block (x,y,z), thread (x,y,z)"
};

// A grid while it runs: what its threads launched, and their device-side errors.
struct Grid {
  std::string name;
  std::mutex lock;  // a launch may run its blocks on several OS threads
  std::vector<Child> children;
  std::map<uint32_t, uint64_t> launches_of_block;
  std::map<uint32_t, cudaError_t> errors;  // by the thread's grid-wide id
};

std::vector<Grid*>& running() {  // innermost last; only the host's thread changes it
  static std::vector<Grid*> grids;
  return grids;
}

std::atomic<size_t> g_pending{0};  // launched from a kernel, not yet complete

std::string this_thread_words() {
  const emu::ThreadInfo& t = emu::this_thread();
  return "block (" + t.block_idx.str() + "), thread (" + t.thread_idx.str() + ")";
}

size_t pending_limit() {
  size_t limit = kDefaultPendingLaunches;
  if (cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount) != cudaSuccess)
    limit = kDefaultPendingLaunches;
  return limit;
}

// The launch refused with `error` for the calling thread, and said by what it broke: once for
// each kernel and error, naming the first thread it was refused.
cudaError_t refuse(const LaunchRequest& r, const Grid& parent, cudaError_t error,
                   const std::string& why) {
  static std::mutex said_lock;
  static std::set<std::tuple<std::string, std::string, int>> said;
  {
    std::lock_guard<std::mutex> hold(said_lock);
    if (said.insert({parent.name, r.name, int(error)}).second)
      std::fprintf(stderr,
                   "coopviz: %s: kernel %s (%s, the first such thread) could not launch kernel "
                   "%s: %s (%s, which the launching thread's cudaGetLastError returns)\n",
                   program_file_name().c_str(), parent.name.c_str(), this_thread_words().c_str(),
                   r.name, why.c_str(), cudaGetErrorName(error));
  }
  return keep_device_thread_error(error);
}

}  // namespace

bool launching_from_device() { return emu::in_emulated_thread() && !running().empty(); }

cudaError_t launch_from_device(const LaunchRequest& r) {
  Grid& parent = *running().back();
  const Dim3 g = r.shape.grid, b = r.shape.block;
  const DeviceProps& d = emulated_device();
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0 ||
      b.count() > uint64_t(d.max_threads_per_block))
    return refuse(r, parent, cudaErrorInvalidConfiguration,
                  "grid (" + g.str() + ") and block (" + b.str() + ") are not a launch CUDA takes");
  // Outstanding: made and not complete, the grids launched above this one among them. The place
  // is taken at once, so that blocks run on several OS threads never make more than the limit.
  const size_t limit = pending_limit();
  size_t outstanding = g_pending.load();
  while (outstanding < limit && !g_pending.compare_exchange_weak(outstanding, outstanding + 1)) {
  }
  if (outstanding >= limit)
    return refuse(r, parent, cudaErrorLaunchPendingCountExceeded,
                  std::to_string(limit) +
                      " device-side launches were already outstanding (made, and their grids not "
                      "complete with all their descendants: any grids launched above this one "
                      "count), cudaLimitDevRuntimePendingLaunchCount's limit, which the host's "
                      "cudaDeviceSetLimit raises before its first launch");
  const emu::ThreadInfo& t = emu::this_thread();
  Child c;
  c.request = r;
  c.request.stream = nullptr;
  c.block_rank = t.block_rank;
  c.thread = this_thread_words();
  const auto handle = reinterpret_cast<uintptr_t>(r.stream);
  if (r.stream == nullptr || r.stream == cudaStreamLegacy) {
    c.kind = StreamKind::BlockNull;
    c.stream = t.block_rank;
  } else if (r.stream == cudaStreamPerThread) {
    c.kind = StreamKind::PerThread;
    c.stream = t.global_id;
  } else if (r.stream == cudaStreamFireAndForget) {
    c.kind = StreamKind::FireAndForget;
  } else if (r.stream == cudaStreamTailLaunch) {
    c.kind = StreamKind::Tail;
  } else {
    c.kind = StreamKind::Named;
    c.stream = handle;
  }
  std::lock_guard<std::mutex> hold(parent.lock);
  c.sequence = parent.launches_of_block[t.block_rank]++;
  if (c.kind == StreamKind::FireAndForget) c.stream = parent.children.size();
  parent.children.push_back(std::move(c));
  return cudaSuccess;
}

namespace {

// A grid of the tree whose threads have all finished: its children, in the order they run, each
// run with its descendants before the next; and the first error among them.
struct Level {
  int depth = 0;                // a grid the host launched is at 0, its children at 1, ...
  std::string words;            // how its children's traces name it
  std::vector<Child> children;  // as launched
  std::vector<Child*> order;    // as they run
  size_t next = 0;
  cudaError_t first = cudaSuccess;
};

// Runs grid `r` at `depth`. Once its threads have all finished it is complete when its children
// are: when it ran, its children are put in order as the next level of `tree`.
cudaError_t run_and_order(const LaunchRequest& r, cudaError_t (*run)(const LaunchRequest&),
                          int depth, std::vector<Level>& tree) {
  Grid grid;
  grid.name = r.name;
  const size_t before = traced_launches();
  running().push_back(&grid);
  const cudaError_t ran = run(r);
  running().pop_back();
  if (ran != cudaSuccess) {
    g_pending.fetch_sub(grid.children.size());  // they never run, as on a GPU
    return ran;
  }
  Level& level = tree.emplace_back();
  level.depth = depth;
  level.children = std::move(grid.children);
  std::vector<Child>& children = level.children;
  level.words =
      traced_launches() > before
          ? "launch " + std::to_string(before + 1) + " (kernel " + r.name + ")"
          : "an untraced launch of kernel " + std::string(r.name) + " <<<" +
                r.shape.grid.str() + ", " + r.shape.block.str() + ">>>";
  std::stable_sort(children.begin(), children.end(), [](const Child& a, const Child& b) {
    return std::tie(a.block_rank, a.sequence) < std::tie(b.block_rank, b.sequence);
  });
  // The streams in the order their first launch was made, each a queue; the tail launches after.
  std::vector<std::vector<Child*>> streams;
  std::map<std::pair<StreamKind, uint64_t>, size_t> stream_of;
  std::vector<Child*> tail;
  for (Child& c : children) {
    if (c.kind == StreamKind::Tail) {
      tail.push_back(&c);
      continue;
    }
    auto [it, fresh] = stream_of.try_emplace({c.kind, c.stream}, streams.size());
    if (fresh) streams.emplace_back();
    streams[it->second].push_back(&c);
  }
  std::vector<Child*>& order = level.order;
  if (seeded_device_order()) {
    // Any interleaving of the streams, each in its own order: drawn from the run's seed.
    std::mt19937_64 random(device_order_seed() * 0x9E3779B97F4A7C15ull + before);
    std::vector<size_t> next(streams.size(), 0);
    std::vector<size_t> open;
    for (size_t s = 0; s < streams.size(); ++s) open.push_back(s);
    while (!open.empty()) {
      const size_t pick = size_t(random() % open.size());
      const size_t s = open[pick];
      order.push_back(streams[s][next[s]++]);
      if (next[s] == streams[s].size()) open.erase(open.begin() + long(pick));
    }
  } else {
    for (Child& c : children)
      if (c.kind != StreamKind::Tail) order.push_back(&c);
  }
  order.insert(order.end(), tail.begin(), tail.end());
  return cudaSuccess;
}

}  // namespace

cudaError_t launch_tree(const LaunchRequest& r, cudaError_t (*run)(const LaunchRequest&)) {
  // Depth first, each level a grid whose children are still running: a chain as deep as the
  // pending-launch limit allows is a vector of levels, not a recursion on the host's stack.
  std::vector<Level> tree;
  const cudaError_t ran = run_and_order(r, run, 0, tree);
  if (ran != cudaSuccess) return ran;
  cudaError_t done = cudaSuccess;  // the first error of the level that last completed
  bool completed = false;          // whether the top level's current child just completed
  while (!tree.empty()) {
    Level& top = tree.back();
    if (completed) {
      // A child complete with all its descendants: its launch is outstanding no longer.
      if (top.first == cudaSuccess) top.first = done;
      g_pending.fetch_sub(1);
      ++top.next;
      completed = false;
    }
    if (top.next == top.order.size()) {
      done = top.first;
      tree.pop_back();
      completed = true;
      continue;
    }
    if (top.first != cudaSuccess) {
      completed = true;  // a failed grid's remaining children never run, as on a GPU
      done = top.first;
      continue;
    }
    const Child& c = *top.order[top.next];
    label_next_launch({{"launched by", top.words},
                       {"launching thread", c.thread},
                       {"device stream", stream_words(c.kind)},
                       {"launch depth", std::to_string(top.depth + 1)}});
    const size_t levels = tree.size();
    const cudaError_t child = run_and_order(c.request, run, top.depth + 1, tree);
    if (tree.size() == levels) {  // it failed, and has no level of its own
      completed = true;
      done = child;
    }
  }
  return done;
}

cudaError_t device_thread_error(bool clear) {
  Grid& grid = *running().back();
  std::lock_guard<std::mutex> hold(grid.lock);
  auto it = grid.errors.find(emu::this_thread().global_id);
  if (it == grid.errors.end()) return cudaSuccess;
  const cudaError_t e = it->second;
  if (clear) grid.errors.erase(it);
  return e;
}

cudaError_t keep_device_thread_error(cudaError_t error) {
  Grid& grid = *running().back();
  std::lock_guard<std::mutex> hold(grid.lock);
  grid.errors[emu::this_thread().global_id] = error;
  return error;
}

cudaError_t create_device_stream(cudaStream_t* stream, unsigned flags) {
  if (!stream || flags != cudaStreamNonBlocking) return keep_device_thread_error(cudaErrorInvalidValue);
  // A handle no host stream has: a grid's streams are its own, and only name its queues.
  static std::atomic<uint64_t> made{0};
  *stream = reinterpret_cast<cudaStream_t>(uintptr_t(0xCD9ull << 48 | (++made << 4)));
  return cudaSuccess;
}

cudaError_t destroy_device_stream(cudaStream_t stream) {
  // Its launches still run, in order: the queue outlives the handle.
  if (!stream) return keep_device_thread_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

}  // namespace coop::byo
