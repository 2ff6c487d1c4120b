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
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};

// An instantiated graph: a copy of its nodes in an order their dependencies allow.
struct CUgraphExec_st {
  std::vector<CUgraphNode_st> order;
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
  unsigned long long next_capture = 1;
};

State& state();
// Says why on stderr (the program may not check), and returns `e`.
cudaError_t say(cudaError_t e, const std::string& why);
// Adds `node` to `graph` after `deps` (the caller holds the state's lock).
cudaError_t add_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                     size_t count, std::unique_ptr<CUgraphNode_st> node);
// The capture `stream` is part of, or nullptr (the caller holds the state's lock).
Capture* capture_of(cudaStream_t stream);
// A copy of `bytes` contiguous bytes, as a 3D copy's parameters (one row).
cudaMemcpy3DParms linear_copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
// The node joins the capture after its tail, and becomes the tail.
cudaError_t capture_node(Capture& capture, std::unique_ptr<CUgraphNode_st> node);

}  // namespace coop::byo::graph_detail
