// [SECTION] The rest of a graph's node kinds and questions (graphs.hpp): child graphs, event
// record and wait nodes, memory alloc and free nodes; what a node is and what it depends on;
// changing an instantiated graph's nodes (cudaGraphExec*SetParams, cudaGraphExecUpdate).
//
// Index
//   [SECTION] Child graph, event and memory nodes
//   [SECTION] Nodes and edges
//   [SECTION] Changing an instantiated graph
#define COOP_BYO_KEEP_CUDA_NAMES 1
#include <cuda_runtime.h>

#include <algorithm>

#include "device/byo/graph_state.hpp"

using namespace coop::byo::graph_detail;  // NOLINT: the graphs' own state

// [SECTION] Child graph, event and memory nodes

// CUDA copies the child graph into the node: later changes to `child` do not reach it.
cudaError_t coop_byo_cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                const cudaGraphNode_t* dependencies, size_t count,
                                                cudaGraph_t child) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.count(child) || child == graph) return cudaErrorInvalidValue;
  auto made = node_of(cudaGraphNodeTypeGraph);
  std::unique_ptr<CUgraph_st> copy = copy_graph(*child);
  made->child = copy.get();
  const cudaError_t e = add_node(node, graph, dependencies, count, std::move(made));
  if (e != cudaSuccess) {
    forget_children(*copy);
    return e;
  }
  state().graphs.insert(copy.get());
  graph->children.push_back(std::move(copy));
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* graph) {
  if (!node || !graph || node->type != cudaGraphNodeTypeGraph) return cudaErrorInvalidValue;
  *graph = node->child;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                 const cudaGraphNode_t* dependencies,
                                                 size_t count, cudaEvent_t event) {
  if (!event) return cudaErrorInvalidValue;
  auto made = node_of(cudaGraphNodeTypeEventRecord);
  made->event = event;
  std::lock_guard<std::mutex> hold(state().lock);
  return add_node(node, graph, dependencies, count, std::move(made));
}

cudaError_t coop_byo_cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                               const cudaGraphNode_t* dependencies, size_t count,
                                               cudaEvent_t event) {
  if (!event) return cudaErrorInvalidValue;
  auto made = node_of(cudaGraphNodeTypeWaitEvent);
  made->event = event;
  std::lock_guard<std::mutex> hold(state().lock);
  return add_node(node, graph, dependencies, count, std::move(made));
}

// The address is the node's from the start (CUDA fixes it when the node is made, so later nodes
// can name it); the memory stays until the program ends, whatever free nodes say, since the
// graph may be launched again and CUDA gives the same address each time.
cudaError_t coop_byo_cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                              const cudaGraphNode_t* dependencies, size_t count,
                                              cudaMemAllocNodeParams* params) {
  if (!params || params->bytesize == 0) return cudaErrorInvalidValue;
  void* memory = nullptr;
  if (const cudaError_t e = ::cudaMalloc(&memory, params->bytesize); e != cudaSuccess) return e;
  auto made = node_of(cudaGraphNodeTypeMemAlloc);
  params->dptr = memory;
  made->alloc = *params;
  cudaError_t e;
  {
    std::lock_guard<std::mutex> hold(state().lock);
    e = add_node(node, graph, dependencies, count, std::move(made));
    if (e == cudaSuccess) state().graph_memory.insert(memory);
  }
  // Freed outside the lock: the emulator's cudaFree asks graph_memory, which takes it.
  if (e != cudaSuccess) {
    ::cudaFree(memory);
    params->dptr = nullptr;
  }
  return e;
}

bool coop::byo::graph_memory(const void* memory) {
  std::lock_guard<std::mutex> hold(state().lock);
  return state().graph_memory.count(memory) != 0;
}

cudaError_t coop_byo_cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                    cudaMemAllocNodeParams* params) {
  if (!node || !params || node->type != cudaGraphNodeTypeMemAlloc) return cudaErrorInvalidValue;
  *params = node->alloc;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                             const cudaGraphNode_t* dependencies, size_t count,
                                             void* memory) {
  if (!memory) return cudaErrorInvalidValue;
  auto made = node_of(cudaGraphNodeTypeMemFree);
  made->freed = memory;
  std::lock_guard<std::mutex> hold(state().lock);
  return add_node(node, graph, dependencies, count, std::move(made));
}

cudaError_t coop_byo_cudaDeviceGraphMemTrim(int) { return cudaSuccess; }

// [SECTION] Nodes and edges

cudaError_t coop_byo_cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (!node || !type) return cudaErrorInvalidValue;
  *type = node->type;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                                  cudaGraphEdgeData* edges, size_t* count) {
  if (!node || !count) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  for (size_t i = 0; nodes && i < std::min(*count, node->dependencies.size()); ++i) {
    nodes[i] = node->dependencies[i];
    if (edges) edges[i] = {};
  }
  *count = node->dependencies.size();
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                                    cudaGraphEdgeData* edges, size_t* count) {
  if (!node || !count) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  size_t found = 0;
  for (const auto& n : node->graph->nodes)
    if (std::count(n->dependencies.begin(), n->dependencies.end(), node)) {
      if (nodes && found < *count) {
        nodes[found] = n.get();
        if (edges) edges[found] = {};
      }
      ++found;
    }
  *count = found;
  return cudaSuccess;
}

// Every edge, from a dependency to the node that waits for it.
cudaError_t coop_byo_cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from,
                                       cudaGraphNode_t* to, cudaGraphEdgeData* edges,
                                       size_t* count) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().graphs.count(graph) || !count || (from == nullptr) != (to == nullptr))
    return cudaErrorInvalidValue;
  size_t found = 0;
  for (const auto& n : graph->nodes)
    for (cudaGraphNode_t d : n->dependencies) {
      if (from && found < *count) {
        from[found] = d;
        to[found] = n.get();
        if (edges) edges[found] = {};
      }
      ++found;
    }
  *count = found;
  return cudaSuccess;
}

// The node goes, and with it every edge to or from it.
cudaError_t coop_byo_cudaGraphDestroyNode(cudaGraphNode_t node) {
  if (!node) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(state().lock);
  auto& nodes = node->graph->nodes;
  for (const auto& n : nodes)
    std::erase(n->dependencies, node);
  std::erase_if(nodes, [&](const auto& n) { return n.get() == node; });
  return cudaSuccess;
}

// [SECTION] Changing an instantiated graph

namespace {

// The instantiated copy of `node` in exec, if its kind is `type`.
CUgraphNode_st* copy_in(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeType type) {
  if (!state().execs.count(exec)) return nullptr;
  for (size_t i = 0; i < exec->source.size(); ++i)
    if (exec->source[i] == node && exec->order[i].type == type) return &exec->order[i];
  return nullptr;
}

}  // namespace

cudaError_t coop_byo_cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                      const cudaKernelNodeParams* params) {
  std::lock_guard<std::mutex> hold(state().lock);
  CUgraphNode_st* copy = copy_in(exec, node, cudaGraphNodeTypeKernel);
  return copy ? bind_kernel(*copy, params) : cudaErrorInvalidValue;
}

cudaError_t coop_byo_cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                      const cudaMemcpy3DParms* params) {
  std::lock_guard<std::mutex> hold(state().lock);
  CUgraphNode_st* copy = copy_in(exec, node, cudaGraphNodeTypeMemcpy);
  if (!copy || !params || params->srcArray || params->dstArray) return cudaErrorInvalidValue;
  copy->copy = *params;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec,
                                                        cudaGraphNode_t node, void* dst,
                                                        const void* src, size_t bytes,
                                                        cudaMemcpyKind kind) {
  const cudaMemcpy3DParms p = linear_copy(dst, src, bytes, kind);
  return coop_byo_cudaGraphExecMemcpyNodeSetParams(exec, node, &p);
}

cudaError_t coop_byo_cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                      const cudaMemsetParams* params) {
  std::lock_guard<std::mutex> hold(state().lock);
  CUgraphNode_st* copy = copy_in(exec, node, cudaGraphNodeTypeMemset);
  if (!copy || !params || !params->dst) return cudaErrorInvalidValue;
  copy->set = *params;
  return cudaSuccess;
}

cudaError_t coop_byo_cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                    const cudaHostNodeParams* params) {
  std::lock_guard<std::mutex> hold(state().lock);
  CUgraphNode_st* copy = copy_in(exec, node, cudaGraphNodeTypeHost);
  if (!copy || !params || !params->fn) return cudaErrorInvalidValue;
  copy->host = *params;
  return cudaSuccess;
}

// The graph's nodes replace exec's when both have the same nodes, kind for kind, in the same
// order (CUDA asks for the same topology; a graph captured again from the same code has it).
cudaError_t coop_byo_cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                         cudaGraphExecUpdateResultInfo* info) {
  std::lock_guard<std::mutex> hold(state().lock);
  if (!state().execs.count(exec) || !state().graphs.count(graph)) return cudaErrorInvalidValue;
  CUgraphExec_st updated;
  cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;
  cudaGraphNode_t at = nullptr;
  if (!order_nodes(*graph, updated) || updated.order.size() != exec->order.size()) {
    result = cudaGraphExecUpdateErrorTopologyChanged;
  } else {
    for (size_t i = 0; i < updated.order.size() && !at; ++i)
      if (updated.order[i].type != exec->order[i].type) at = updated.source[i];
    if (at) result = cudaGraphExecUpdateErrorNodeTypeChanged;
  }
  if (info) *info = {result, at, nullptr};
  if (result != cudaGraphExecUpdateSuccess)
    return say(cudaErrorGraphExecUpdateFailure,
               "cudaGraphExecUpdate: the graph's nodes differ from the instantiated graph's "
               "in number, kind or order");
  *exec = std::move(updated);
  return cudaSuccess;
}
