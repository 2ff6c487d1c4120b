// [SECTION] CUDA Graphs kept and replayed on the host (graphs.hpp): graphs built node by node,
// instantiated and launched. Stream capture: graph_capture.cpp.
//
// Index
//   [SECTION] State and nodes
//   [SECTION] The kernel registry
//   [SECTION] Building graphs node by node
//   [SECTION] Instantiating and launching
#define COOP_BYO_KEEP_CUDA_NAMES 1
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "device/byo/graph_state.hpp"

// [SECTION] State and nodes

namespace coop::byo::graph_detail {

State& state() {
  static State s;
  return s;
}

cudaError_t say(cudaError_t e, const std::string& why) {
  std::fprintf(stderr, "coopviz: %s\n", why.c_str());
  return e;
}

cudaError_t add_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                     size_t count, std::unique_ptr<CUgraphNode_st> node) {
  State& s = state();
  if (!out || !s.graphs.count(graph) || (count && !deps)) return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i)
    if (!deps[i] || deps[i]->graph != graph) return cudaErrorInvalidValue;
  node->graph = graph;
  node->dependencies.assign(deps, deps + count);
  *out = node.get();
  graph->nodes.push_back(std::move(node));
  return cudaSuccess;
}

cudaError_t capture_node(Capture& c, std::unique_ptr<CUgraphNode_st> node) {
  cudaGraphNode_t added = nullptr;
  const cudaError_t e = add_node(&added, c.graph, c.tail.data(), c.tail.size(), std::move(node));
  if (e == cudaSuccess) c.tail = {added};
  return e;
}

cudaMemcpy3DParms linear_copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, bytes, bytes, 1);
  p.extent = make_cudaExtent(bytes, 1, 1);
  p.kind = kind;
  return p;
}

Capture* capture_of(cudaStream_t stream) {
  auto& captures = state().captures;
  auto it = captures.find(stream);
  return it == captures.end() ? nullptr : &it->second;
}

}  // namespace coop::byo::graph_detail

namespace coop::byo {

// A copy of a 3D copy's parameters as the emulator and CUDA both run them, row by row between
// pitched pointers (arrays are not supported: the emulator has none).
cudaError_t copy_3d(const cudaMemcpy3DParms& p) {
  if (p.srcArray || p.dstArray) return cudaErrorNotSupported;
  const cudaExtent e = p.extent;
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y) {
      auto* dst = static_cast<char*>(p.dstPtr.ptr) + p.dstPos.x +
                  ((p.dstPos.z + z) * p.dstPtr.ysize + p.dstPos.y + y) * p.dstPtr.pitch;
      auto* src = static_cast<const char*>(p.srcPtr.ptr) + p.srcPos.x +
                  ((p.srcPos.z + z) * p.srcPtr.ysize + p.srcPos.y + y) * p.srcPtr.pitch;
      if (const cudaError_t err = ::cudaMemcpy(dst, src, e.width, p.kind); err != cudaSuccess)
        return err;
    }
  return cudaSuccess;
}

}  // namespace coop::byo

namespace {

using namespace coop::byo::graph_detail;  // NOLINT: this file's own state

cudaError_t run_set(const cudaMemsetParams& p) {
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return cudaErrorInvalidValue;
  const size_t rows = std::max<size_t>(p.height, 1);
  std::vector<unsigned char> row(size_t(p.width) * p.elementSize);
  for (size_t i = 0; i < p.width; ++i)
    std::memcpy(row.data() + i * p.elementSize, &p.value,
                p.elementSize);  // little-endian low bytes
  for (size_t r = 0; r < rows; ++r)
    if (const cudaError_t e = ::cudaMemcpy(static_cast<char*>(p.dst) + r * p.pitch, row.data(),
                                           row.size(), cudaMemcpyHostToDevice);
        e != cudaSuccess)
      return e;
  return cudaSuccess;
}

}  // namespace

namespace coop::byo::graph_detail {

// A memory alloc node's memory was allocated when the node was made (its address is the node's
// parameter), and a free node leaves it to the program's end: the graph may run again.
cudaError_t run_node(const CUgraphNode_st& n, cudaStream_t stream) {
  switch (n.type) {
    case cudaGraphNodeTypeKernel:
      return n.launch();
    case cudaGraphNodeTypeMemcpy:
      return coop::byo::copy_3d(n.copy);
    case cudaGraphNodeTypeMemset:
      return run_set(n.set);
    case cudaGraphNodeTypeHost:
      n.host.fn(n.host.userData);
      return cudaSuccess;
    case cudaGraphNodeTypeEventRecord:
      return ::cudaEventRecord(n.event, stream);
    case cudaGraphNodeTypeWaitEvent:
      return ::cudaStreamWaitEvent(stream, n.event, 0);
    default:
      return cudaSuccess;
  }
}

std::unique_ptr<CUgraph_st> copy_graph(const CUgraph_st& original) {
  auto made = std::make_unique<CUgraph_st>();
  std::map<cudaGraphNode_t, cudaGraphNode_t> copy_of;
  for (const auto& n : original.nodes) {
    auto copy = std::make_unique<CUgraphNode_st>(*n);
    copy->graph = made.get();
    if (n->child) {
      made->children.push_back(copy_graph(*n->child));
      copy->child = made->children.back().get();
      state().graphs.insert(copy->child);
    }
    copy_of[n.get()] = copy.get();
    made->nodes.push_back(std::move(copy));
  }
  for (const auto& n : made->nodes)
    for (auto& d : n->dependencies) d = copy_of.at(d);
  return made;
}

void forget_children(const CUgraph_st& graph) {
  for (const auto& child : graph.children) {
    forget_children(*child);
    state().graphs.erase(child.get());
  }
}

// Kahn's order; a child graph's nodes are ordered the same way where the child node stands.
bool order_nodes(const CUgraph_st& graph, CUgraphExec_st& exec) {
  std::map<cudaGraphNode_t, size_t> waiting;
  for (const auto& n : graph.nodes) waiting[n.get()] = n->dependencies.size();
  std::vector<cudaGraphNode_t> ready;
  for (const auto& n : graph.nodes)
    if (n->dependencies.empty()) ready.push_back(n.get());
  for (size_t i = 0; i < ready.size(); ++i) {
    if (ready[i]->child) {
      if (!order_nodes(*ready[i]->child, exec)) return false;
    } else {
      exec.order.push_back(*ready[i]);
      exec.source.push_back(ready[i]);
    }
    for (const auto& n : graph.nodes)
      if (std::count(n->dependencies.begin(), n->dependencies.end(), ready[i]) &&
          --waiting[n.get()] == 0)
        ready.push_back(n.get());
  }
  return ready.size() == graph.nodes.size();
}

}  // namespace coop::byo::graph_detail

namespace coop::byo {

// [SECTION] The kernel registry

void register_kernel(const void* function, const char* name, KernelBinder binder) {
  std::lock_guard<std::mutex> hold(state().lock);
  state().kernels.try_emplace(function, Registered{name, std::move(binder)});
}

}  // namespace coop::byo

using namespace coop::byo::graph_detail;  // NOLINT: this file's own state

// [SECTION] Building graphs node by node

namespace coop::byo::graph_detail {

std::unique_ptr<CUgraphNode_st> node_of(cudaGraphNodeType type) {
  auto made = std::make_unique<CUgraphNode_st>();
  made->type = type;
  return made;
}

cudaError_t bind_kernel(CUgraphNode_st& node, const cudaKernelNodeParams* params) {
  if (!params || !params->kernelParams) return cudaErrorInvalidValue;
  auto it = state().kernels.find(params->func);
  if (it == state().kernels.end()) return cudaErrorInvalidDeviceFunction;
  node.kernel = *params;
  node.kernel.kernelParams = nullptr;  // copied into the launch now, as CUDA copies them
  node.launch = it->second.bind(params->gridDim, params->blockDim, params->sharedMemBytes,
                                params->kernelParams);
  return cudaSuccess;
}

}  // namespace coop::byo::graph_detail

namespace {

cudaError_t add_locked(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                       size_t count, std::unique_ptr<CUgraphNode_st> made) {
  std::lock_guard<std::mutex> hold(state().lock);
  return add_node(node, graph, deps, count, std::move(made));
}

}  // namespace

cudaError_t coop_byo_cudaGraphCreate(cudaGraph_t* graph, unsigned flags) {
  if (!graph || flags != 0) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  *graph = new CUgraph_st;
  state().graphs.insert(*graph);
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphDestroy(cudaGraph_t graph) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.erase(graph)) return cudaErrorInvalidValue;
  forget_children(*graph);
  delete graph;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, size_t count,
                                            const cudaKernelNodeParams* params) {
  if (!params) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  auto it = state().kernels.find(params->func);
  if (it == state().kernels.end())
    return say(cudaErrorInvalidDeviceFunction,
               "cudaGraphAddKernelNode: the kernel at " + std::to_string(uintptr_t(params->func)) +
                   " was never named where the program casts it to void* ((void*)kernel), so "
                   "coopviz does not know which kernel it is");
  if (!params->kernelParams)
    return say(cudaErrorNotSupported,
               "cudaGraphAddKernelNode: arguments passed in `extra` are not supported; pass "
               "kernelParams");
  auto made = node_of(cudaGraphNodeTypeKernel);
  if (const cudaError_t e = bind_kernel(*made, params); e != cudaSuccess) return e;
  return add_node(node, graph, dependencies, count, std::move(made));
}

cudaError_t coop_byo_cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                  cudaKernelNodeParams* params) {
  if (!node || !params || node->type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
  *params = node->kernel;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                  const cudaKernelNodeParams* params) {
  if (!node || node->type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  return bind_kernel(*node, params);
}

cudaError_t coop_byo_cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, size_t count,
                                            const cudaMemcpy3DParms* params) {
  if (!params) return cudaErrorInvalidValue;
  if (params->srcArray || params->dstArray)
    return say(cudaErrorNotSupported, "cudaGraphAddMemcpyNode: CUDA arrays are not supported");
  auto made = node_of(cudaGraphNodeTypeMemcpy);
  made->copy = *params;
  return add_locked(node, graph, dependencies, count, std::move(made));
}

cudaError_t coop_byo_cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                              const cudaGraphNode_t* dependencies, size_t count,
                                              void* dst, const void* src, size_t bytes,
                                              cudaMemcpyKind kind) {
  const cudaMemcpy3DParms p = linear_copy(dst, src, bytes, kind);
  return coop_byo_cudaGraphAddMemcpyNode(node, graph, dependencies, count, &p);
}

cudaError_t coop_byo_cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, size_t count,
                                            const cudaMemsetParams* params) {
  if (!params || !params->dst) return cudaErrorInvalidValue;
  auto made = node_of(cudaGraphNodeTypeMemset);
  made->set = *params;
  return add_locked(node, graph, dependencies, count, std::move(made));
}

cudaError_t coop_byo_cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                          const cudaGraphNode_t* dependencies, size_t count,
                                          const cudaHostNodeParams* params) {
  if (!params || !params->fn) return cudaErrorInvalidValue;
  auto made = node_of(cudaGraphNodeTypeHost);
  made->host = *params;
  return add_locked(node, graph, dependencies, count, std::move(made));
}

cudaError_t coop_byo_cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                           const cudaGraphNode_t* dependencies, size_t count) {
  return add_locked(node, graph, dependencies, count, node_of(cudaGraphNodeTypeEmpty));
}

cudaError_t coop_byo_cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                              const cudaGraphNode_t* to, const cudaGraphEdgeData*,
                                              size_t count) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.count(graph) || (count && (!from || !to))) return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph)
      return cudaErrorInvalidValue;
    auto& deps = to[i]->dependencies;
    if (std::find(deps.begin(), deps.end(), from[i]) == deps.end()) deps.push_back(from[i]);
  }
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.count(graph) || !count) return cudaErrorInvalidValue;
  if (nodes)
    for (size_t i = 0; i < std::min(*count, graph->nodes.size()); ++i)
      nodes[i] = graph->nodes[i].get();
  *count = graph->nodes.size();
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes,
                                           size_t* count) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.count(graph) || !count) return cudaErrorInvalidValue;
  size_t found = 0;
  for (const auto& n : graph->nodes) {
    if (!n->dependencies.empty()) continue;
    if (nodes && found < *count) nodes[found] = n.get();
    ++found;
  }
  *count = found;
  return cudaSuccess;
}

// A new graph with a copy of every node, its dependencies pointing at the copies.
cudaError_t coop_byo_cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  if (!clone) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.count(original)) return cudaErrorInvalidValue;
  *clone = copy_graph(*original).release();
  state().graphs.insert(*clone);
  return cudaSuccess;
}

// [SECTION] Instantiating and launching

// The nodes in an order their dependencies allow (order_nodes), or cudaErrorInvalidValue for a
// cycle.
cudaError_t coop_byo_cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long) {
  if (!exec) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.count(graph)) return cudaErrorInvalidValue;
  auto made = std::make_unique<CUgraphExec_st>();
  if (!order_nodes(*graph, *made))
    return say(cudaErrorInvalidValue,
               "cudaGraphInstantiate: the graph's dependencies form a cycle");
  *exec = made.release();
  state().execs.insert(*exec);
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                   unsigned long long flags) {
  return coop_byo_cudaGraphInstantiate(exec, graph, flags);
}

cudaError_t coop_byo_cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
  std::lock_guard<std::mutex> hold(state().lock);
  return state().execs.count(exec) ? cudaSuccess : cudaErrorInvalidValue;
}

// Runs every node, each kernel node as one (traced) launch; the first failure stops the rest.
cudaError_t coop_byo_cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  {
    std::lock_guard<std::mutex> hold(state().lock);
    if (!state().execs.count(exec)) return cudaErrorInvalidValue;
    if (capture_of(stream))
      return say(cudaErrorStreamCaptureUnsupported,
                 "cudaGraphLaunch into a stream being captured: CUDA refuses it too "
                 "(cudaErrorStreamCaptureUnsupported); add the graph with "
                 "cudaGraphAddChildGraphNode");
  }
  for (const CUgraphNode_st& node : exec->order)
    if (const cudaError_t e = run_node(node, stream); e != cudaSuccess) return e;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphExecDestroy(cudaGraphExec_t exec) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().execs.erase(exec)) return cudaErrorInvalidValue;
  delete exec;
  return cudaSuccess;
}
