// Internal state of the graphs kept for a user's program (graphs.hpp): graphs, nodes,
// instantiated graphs, the kernel registry and the captures in progress. Only graphs.cpp and
// graph_capture.cpp include this.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "device/byo/graphs.hpp"

struct CUgraphNode_st {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  cudaGraph_t graph = nullptr;
  std::vector<cudaGraphNode_t> dependencies;
  // Kernel: what runs, and what cudaGraphKernelNodeGetParams gives back (its arguments were
  // copied when the node was made, so kernelParams is not kept).
  coop::byo::BoundLaunch launch;
  cudaKernelNodeParams kernel{};
  cudaMemcpy3DParms copy{};
  cudaMemsetParams set{};
  cudaHostNodeParams host{};
  cudaEvent_t event = nullptr;     // event record and event wait nodes
  cudaGraph_t child = nullptr;     // a child graph node's own copy (its parent graph owns it)
  cudaMemAllocNodeParams alloc{};  // a memory alloc node (dptr set when it was made)
  void* freed = nullptr;           // a memory free node's pointer
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
  std::vector<std::unique_ptr<CUgraph_st>> children;  // the child graph nodes' graphs
};

// An instantiated graph: a copy of its nodes in an order their dependencies allow, a child
// graph's nodes in its place, and the node each copy was made from (for cudaGraphExec*SetParams).
struct CUgraphExec_st {
  std::vector<CUgraphNode_st> order;
  std::vector<cudaGraphNode_t> source;
};

namespace coop::byo::graph_detail {

struct Registered {
  const char* name;
  KernelBinder bind;
};

// A stream being captured: the graph its work goes to, and the nodes its next work depends on.
struct Capture {
  cudaGraph_t graph = nullptr;
  cudaStream_t origin = nullptr;  // the stream the capture began on
  unsigned long long id = 0;
  std::vector<cudaGraphNode_t> tail;
};

struct State {
  std::mutex lock;
  std::map<const void*, Registered> kernels;
  std::map<cudaStream_t, Capture> captures;
  std::map<cudaEvent_t, Capture> events;  // where an event was recorded in a capture
  std::set<cudaGraph_t> graphs;
  std::set<cudaGraphExec_t> execs;
  std::set<const void*> graph_memory;  // memory alloc nodes' memory, kept to the program's end
  unsigned long long next_capture = 1;
};

State& state();
// Says why on stderr (the program may not check), and returns `e`.
cudaError_t say(cudaError_t e, const std::string& why);
// Adds `node` to `graph` after `deps` (the caller holds the state's lock).
cudaError_t add_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                     size_t count, std::unique_ptr<CUgraphNode_st> node);
// A copy of `original` (its child graphs copied too, and known to the state), the copy's
// dependencies pointing at the copied nodes (the caller holds the state's lock).
std::unique_ptr<CUgraph_st> copy_graph(const CUgraph_st& original);
// Forgets `graph`'s child graphs, at any depth, before it is deleted (the caller holds the lock).
void forget_children(const CUgraph_st& graph);
// `graph`'s nodes in an order their dependencies allow, child graphs' nodes in their place, into
// exec; false for a cycle (the caller holds the state's lock).
bool order_nodes(const CUgraph_st& graph, CUgraphExec_st& exec);
// A node of this kind, alone.
std::unique_ptr<CUgraphNode_st> node_of(cudaGraphNodeType type);
// The kernel behind params->func bound to a copy of its arguments (CUDA copies them when the
// node is made or changed), as a kernel node keeps it (the caller holds the state's lock).
cudaError_t bind_kernel(CUgraphNode_st& node, const cudaKernelNodeParams* params);
// Runs one node of a launched graph on `stream`.
cudaError_t run_node(const CUgraphNode_st& node, cudaStream_t stream);
// The capture `stream` is part of, or nullptr (the caller holds the state's lock).
Capture* capture_of(cudaStream_t stream);
// A copy of `bytes` contiguous bytes, as a 3D copy's parameters (one row).
cudaMemcpy3DParms linear_copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
// The node joins the capture after its tail, and becomes the tail.
cudaError_t capture_node(Capture& capture, std::unique_ptr<CUgraphNode_st> node);

}  // namespace coop::byo::graph_detail
