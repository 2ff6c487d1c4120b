// [SECTION] Stream capture (graphs.hpp): the work a stream is given between
// cudaStreamBeginCapture and cudaStreamEndCapture becomes nodes of a graph instead of running,
// each after the stream's last captured work; events recorded in a capture are the points other
// streams fork from (and so join it) and join at.
#define COOP_BYO_KEEP_CUDA_NAMES 1
#include <cuda_runtime.h>

#include <algorithm>

#include "device/byo/graph_state.hpp"

namespace coop::byo {

using namespace graph_detail;  // NOLINT: the graphs' state

bool capturing(cudaStream_t stream) {
  std::lock_guard<std::mutex> hold(state().lock);
  return capture_of(stream) != nullptr;
}

cudaError_t capture_launch(cudaStream_t stream, const void* function, dim3 grid, dim3 block,
                           size_t smem, BoundLaunch launch) {
  std::lock_guard<std::mutex> hold(state().lock);
  Capture* c = capture_of(stream);
  if (!c) return cudaErrorStreamCaptureImplicit;
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = cudaGraphNodeTypeKernel;
  node->launch = std::move(launch);
  node->kernel.func = const_cast<void*>(function);
  node->kernel.gridDim = grid;
  node->kernel.blockDim = block;
  node->kernel.sharedMemBytes = unsigned(smem);
  return capture_node(*c, std::move(node));
}

// Stream-ordered allocation in a capture becomes alloc and free nodes, as CUDA records it: the
// memory is taken now, for the captured work to name, and is the graph's (graph_memory), kept
// for each launch of the graph whatever frees it.
cudaError_t capture_alloc(cudaStream_t stream, void** ptr, size_t bytes) {
  if (!ptr || bytes == 0) return cudaErrorInvalidValue;
  void* memory = nullptr;
  if (const cudaError_t e = ::cudaMalloc(&memory, bytes); e != cudaSuccess) return e;
  auto node = node_of(cudaGraphNodeTypeMemAlloc);
  node->alloc.bytesize = bytes;
  node->alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  node->alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  node->alloc.dptr = memory;
  cudaError_t e = cudaErrorStreamCaptureImplicit;
  {
    std::lock_guard<std::mutex> hold(state().lock);
    if (Capture* c = capture_of(stream)) e = capture_node(*c, std::move(node));
    if (e == cudaSuccess) state().graph_memory.insert(memory);
  }
  if (e != cudaSuccess) {
    ::cudaFree(memory);  // outside the lock: the emulator's cudaFree asks graph_memory
    return e;
  }
  *ptr = memory;
  return cudaSuccess;
}

cudaError_t capture_free(cudaStream_t stream, void* memory) {
  if (!memory) return cudaErrorInvalidValue;
  auto node = node_of(cudaGraphNodeTypeMemFree);
  node->freed = memory;
  std::lock_guard<std::mutex> hold(state().lock);
  Capture* c = capture_of(stream);
  return c ? capture_node(*c, std::move(node)) : cudaErrorStreamCaptureImplicit;
}

}  // namespace coop::byo

using namespace coop::byo::graph_detail;  // NOLINT: the graphs' state

cudaError_t coop_byo_cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode) {
  if (stream == nullptr)  // the legacy default stream cannot be captured
    return say(
        cudaErrorStreamCaptureUnsupported,
        "cudaStreamBeginCapture: the default stream cannot be captured; use a created stream");
  std::lock_guard<std::mutex> hold(state().lock);
  State& s = state();
  if (s.captures.count(stream)) return cudaErrorIllegalState;
  Capture c;
  c.graph = new CUgraph_st;
  s.graphs.insert(c.graph);
  c.origin = stream;
  c.id = s.next_capture++;
  s.captures[stream] = c;
  return cudaSuccess;
}

// Ends the capture that began on `stream`, with every stream that joined it.
cudaError_t coop_byo_cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (!graph) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  State& s = state();
  Capture* c = capture_of(stream);
  if (!c) return cudaErrorIllegalState;
  if (c->origin != stream) return cudaErrorStreamCaptureUnmatched;
  *graph = c->graph;
  const cudaGraph_t ended = c->graph;
  std::erase_if(s.captures, [ended](const auto& entry) { return entry.second.graph == ended; });
  std::erase_if(s.events, [ended](const auto& entry) { return entry.second.graph == ended; });
  return cudaSuccess;
}

cudaError_t coop_byo_cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (!status) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  *status = capture_of(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                              unsigned long long* id, cudaGraph_t* graph,
                                              const cudaGraphNode_t** dependencies,
                                              const cudaGraphEdgeData** edges, size_t* count) {
  if (!status) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  Capture* c = capture_of(stream);
  *status = c ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (!c) return cudaSuccess;
  if (id) *id = c->id;
  if (graph) *graph = c->graph;
  if (dependencies) *dependencies = c->tail.data();
  if (edges) *edges = nullptr;
  if (count) *count = c->tail.size();
  return cudaSuccess;
}

cudaError_t coop_byo_cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                                     cudaStream_t stream) {
  {
    std::lock_guard<std::mutex> hold(state().lock);
    if (Capture* c = capture_of(stream)) {
      auto node = std::make_unique<CUgraphNode_st>();
      node->type = cudaGraphNodeTypeMemcpy;
      node->copy = linear_copy(dst, src, bytes, kind);
      return capture_node(*c, std::move(node));
    }
  }
  return ::cudaMemcpyAsync(dst, src, bytes, kind, stream);
}

cudaError_t coop_byo_cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream) {
  {
    std::lock_guard<std::mutex> hold(state().lock);
    if (Capture* c = capture_of(stream)) {
      auto node = std::make_unique<CUgraphNode_st>();
      node->type = cudaGraphNodeTypeMemset;
      node->set.dst = dst;
      node->set.value = unsigned(value) & 0xffu;
      node->set.elementSize = 1;
      node->set.width = bytes;
      node->set.height = 1;
      node->set.pitch = bytes;
      return capture_node(*c, std::move(node));
    }
  }
  return ::cudaMemsetAsync(dst, value, bytes, stream);
}

cudaError_t coop_byo_cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
  {
    std::lock_guard<std::mutex> hold(state().lock);
    if (Capture* c = capture_of(stream)) {
      if (!fn) return cudaErrorInvalidValue;
      auto node = std::make_unique<CUgraphNode_st>();
      node->type = cudaGraphNodeTypeHost;
      node->host = {fn, data};
      return capture_node(*c, std::move(node));
    }
  }
  return ::cudaLaunchHostFunc(stream, fn, data);
}

// In a capture, an event marks the stream's tail, for other streams to fork from or join at.
cudaError_t coop_byo_cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  {
    std::lock_guard<std::mutex> hold(state().lock);
    if (Capture* c = capture_of(stream)) {
      state().events[event] = *c;
      return cudaSuccess;
    }
    state().events.erase(event);
  }
  return ::cudaEventRecord(event, stream);
}

// Waiting on an event recorded in a capture: the stream joins that capture (a fork), or, already
// in it, its next work also depends on the event's point (a join).
cudaError_t coop_byo_cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  {
    std::lock_guard<std::mutex> hold(state().lock);
    State& s = state();
    auto recorded = s.events.find(event);
    if (recorded != s.events.end()) {
      const Capture& at = recorded->second;
      Capture* c = capture_of(stream);
      if (!c) {
        Capture joined = at;
        s.captures[stream] = joined;
        return cudaSuccess;
      }
      if (c->graph != at.graph) return cudaErrorStreamCaptureIsolation;
      for (cudaGraphNode_t n : at.tail)
        if (std::find(c->tail.begin(), c->tail.end(), n) == c->tail.end()) c->tail.push_back(n);
      return cudaSuccess;
    }
    if (capture_of(stream)) return cudaSuccess;  // an event from outside: already complete
  }
  return ::cudaStreamWaitEvent(stream, event, flags);
}
