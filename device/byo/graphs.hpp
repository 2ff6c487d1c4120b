// CUDA Graphs for a user's program, on either backend: graphs built node by node (kernel,
// memcpy, memset, host, empty, child graph, event record and wait, memory alloc and free nodes,
// with their dependencies) or captured from streams
// (cudaStreamBeginCapture .. cudaStreamEndCapture, forks and joins through events), instantiated
// and launched. A graph is kept and replayed here, on the host: launching it runs its nodes in an
// order its dependencies allow, each kernel node through the backend's own launch path, so that
// every kernel node is traced as a launch (a GPU's own graph would run kernels coop never sees).
//
// The program's calls reach these functions by name: runtime.hpp and gpu_runtime.cuh include this
// header, which defines each CUDA name as the coop_byo_ function of the same signature.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

namespace coop::byo {

// A kernel launch bound to a copy of its arguments, run through the backend's launch path.
using BoundLaunch = std::function<cudaError_t()>;
// Binds the kernel registered under an address to a copy of the arguments `args` points at.
using KernelBinder = std::function<BoundLaunch(dim3 grid, dim3 block, size_t smem, void** args)>;

// What a kernel node needs of a kernel it knows only by address (cudaKernelNodeParams::func): its
// name and a binder. Registered by kernel_pointer (runtime.hpp, gpu_runtime.cuh) wherever the
// program casts a kernel to void* (the lowering rewrites `(void*)k` to call it).
void register_kernel(const void* function, const char* name, KernelBinder binder);

// Whether `memory` is a memory alloc node's. The program may free it outside the graph
// (cudaFree, cudaFreeAsync, another graph's free node) and launch the graph again, which gives
// the same address again: the emulator's frees keep it (runtime.cpp).
bool graph_memory(const void* memory);

// cudaMallocAsync and cudaFreeAsync on a stream being captured: an alloc node (its memory
// taken now, the graph's) or a free node after the stream's last captured work.
cudaError_t capture_alloc(cudaStream_t stream, void** ptr, size_t bytes);
cudaError_t capture_free(cudaStream_t stream, void* memory);

// Whether `stream` is being captured into a graph; if so, capture_launch adds the launch as a
// kernel node there (after the stream's last captured work) instead of running it.
bool capturing(cudaStream_t stream);
cudaError_t capture_launch(cudaStream_t stream, const void* function, dim3 grid, dim3 block,
                           size_t smem, BoundLaunch launch);

// cudaMemcpy3D's copy (and a memcpy node's): row by row between pitched pointers at their
// positions, each row a cudaMemcpy of the backend; cudaErrorNotSupported when either side is a
// cudaArray.
cudaError_t copy_3d(const cudaMemcpy3DParms& p);

}  // namespace coop::byo

// CUDA's calls as coop keeps them, at global scope under a prefix, so that a call spelled
// ::cudaGraphLaunch(...) still names one.

cudaError_t coop_byo_cudaGraphCreate(cudaGraph_t* graph, unsigned flags);
cudaError_t coop_byo_cudaGraphDestroy(cudaGraph_t graph);
cudaError_t coop_byo_cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, size_t count,
                                            const cudaKernelNodeParams* params);
cudaError_t coop_byo_cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                  cudaKernelNodeParams* params);
cudaError_t coop_byo_cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                  const cudaKernelNodeParams* params);
cudaError_t coop_byo_cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, size_t count,
                                            const cudaMemcpy3DParms* params);
cudaError_t coop_byo_cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                              const cudaGraphNode_t* dependencies, size_t count,
                                              void* dst, const void* src, size_t bytes,
                                              cudaMemcpyKind kind);
cudaError_t coop_byo_cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, size_t count,
                                            const cudaMemsetParams* params);
cudaError_t coop_byo_cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                          const cudaGraphNode_t* dependencies, size_t count,
                                          const cudaHostNodeParams* params);
cudaError_t coop_byo_cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                           const cudaGraphNode_t* dependencies, size_t count);
cudaError_t coop_byo_cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                              const cudaGraphNode_t* to,
                                              const cudaGraphEdgeData* edges, size_t count);
cudaError_t coop_byo_cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t coop_byo_cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original);
cudaError_t coop_byo_cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes,
                                           size_t* count);
cudaError_t coop_byo_cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags = 0);
// The form CUDA 11 had, which the toolkit's cuda_runtime.h still offers as an inline overload
// (samples written for CUDA 11 call it); the macro below renames the call past that overload,
// so it is repeated here. No node fails to instantiate here, so the log stays as given.
inline cudaError_t coop_byo_cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                 cudaGraphNode_t* /*error_node*/,
                                                 char* /*log*/, size_t /*log_size*/) {
  return coop_byo_cudaGraphInstantiate(exec, graph, 0ULL);
}
cudaError_t coop_byo_cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                   unsigned long long flags = 0);
cudaError_t coop_byo_cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t coop_byo_cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t coop_byo_cudaGraphExecDestroy(cudaGraphExec_t exec);

// graph_nodes.cpp: child graph, event and memory nodes; nodes and edges; changing an
// instantiated graph.
cudaError_t coop_byo_cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                const cudaGraphNode_t* dependencies, size_t count,
                                                cudaGraph_t child);
cudaError_t coop_byo_cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* graph);
cudaError_t coop_byo_cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                 const cudaGraphNode_t* dependencies,
                                                 size_t count, cudaEvent_t event);
cudaError_t coop_byo_cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                               const cudaGraphNode_t* dependencies, size_t count,
                                               cudaEvent_t event);
cudaError_t coop_byo_cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                              const cudaGraphNode_t* dependencies, size_t count,
                                              cudaMemAllocNodeParams* params);
cudaError_t coop_byo_cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                    cudaMemAllocNodeParams* params);
cudaError_t coop_byo_cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                             const cudaGraphNode_t* dependencies, size_t count,
                                             void* memory);
cudaError_t coop_byo_cudaDeviceGraphMemTrim(int device);
cudaError_t coop_byo_cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t coop_byo_cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                                  cudaGraphEdgeData* edges, size_t* count);
cudaError_t coop_byo_cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* nodes,
                                                    cudaGraphEdgeData* edges, size_t* count);
cudaError_t coop_byo_cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from,
                                       cudaGraphNode_t* to, cudaGraphEdgeData* edges,
                                       size_t* count);
cudaError_t coop_byo_cudaGraphDestroyNode(cudaGraphNode_t node);
cudaError_t coop_byo_cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                      const cudaKernelNodeParams* params);
cudaError_t coop_byo_cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                      const cudaMemcpy3DParms* params);
cudaError_t coop_byo_cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec,
                                                        cudaGraphNode_t node, void* dst,
                                                        const void* src, size_t bytes,
                                                        cudaMemcpyKind kind);
cudaError_t coop_byo_cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                      const cudaMemsetParams* params);
cudaError_t coop_byo_cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                    const cudaHostNodeParams* params);
cudaError_t coop_byo_cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                         cudaGraphExecUpdateResultInfo* info);

cudaError_t coop_byo_cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t coop_byo_cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t coop_byo_cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t coop_byo_cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                              unsigned long long* id = nullptr,
                                              cudaGraph_t* graph = nullptr,
                                              const cudaGraphNode_t** dependencies = nullptr,
                                              const cudaGraphEdgeData** edges = nullptr,
                                              size_t* count = nullptr);
// The stream calls a capture takes in: on a capturing stream they become nodes (or, for events,
// the points other streams fork from and join at); elsewhere they are CUDA's (or the emulator's).
cudaError_t coop_byo_cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                                     cudaStream_t stream = nullptr);
cudaError_t coop_byo_cudaMemsetAsync(void* dst, int value, size_t bytes,
                                     cudaStream_t stream = nullptr);
cudaError_t coop_byo_cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data);
cudaError_t coop_byo_cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t coop_byo_cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                         unsigned flags = 0);

// The program's calls, by CUDA's names (after CUDA's headers have declared them); not in the
// runtimes' own sources, which define or call CUDA's functions of these names.
#ifndef COOP_BYO_KEEP_CUDA_NAMES
#define cudaGraphCreate coop_byo_cudaGraphCreate
#define cudaGraphDestroy coop_byo_cudaGraphDestroy
#define cudaGraphAddKernelNode coop_byo_cudaGraphAddKernelNode
#define cudaGraphKernelNodeGetParams coop_byo_cudaGraphKernelNodeGetParams
#define cudaGraphKernelNodeSetParams coop_byo_cudaGraphKernelNodeSetParams
#define cudaGraphAddMemcpyNode coop_byo_cudaGraphAddMemcpyNode
#define cudaGraphAddMemcpyNode1D coop_byo_cudaGraphAddMemcpyNode1D
#define cudaGraphAddMemsetNode coop_byo_cudaGraphAddMemsetNode
#define cudaGraphAddHostNode coop_byo_cudaGraphAddHostNode
#define cudaGraphAddEmptyNode coop_byo_cudaGraphAddEmptyNode
#define cudaGraphAddDependencies coop_byo_cudaGraphAddDependencies
#define cudaGraphGetNodes coop_byo_cudaGraphGetNodes
#define cudaGraphClone coop_byo_cudaGraphClone
#define cudaGraphGetRootNodes coop_byo_cudaGraphGetRootNodes
#define cudaGraphInstantiate coop_byo_cudaGraphInstantiate
#define cudaGraphInstantiateWithFlags coop_byo_cudaGraphInstantiateWithFlags
#define cudaGraphUpload coop_byo_cudaGraphUpload
#define cudaGraphLaunch coop_byo_cudaGraphLaunch
#define cudaGraphExecDestroy coop_byo_cudaGraphExecDestroy
#define cudaGraphAddChildGraphNode coop_byo_cudaGraphAddChildGraphNode
#define cudaGraphChildGraphNodeGetGraph coop_byo_cudaGraphChildGraphNodeGetGraph
#define cudaGraphAddEventRecordNode coop_byo_cudaGraphAddEventRecordNode
#define cudaGraphAddEventWaitNode coop_byo_cudaGraphAddEventWaitNode
#define cudaGraphAddMemAllocNode coop_byo_cudaGraphAddMemAllocNode
#define cudaGraphMemAllocNodeGetParams coop_byo_cudaGraphMemAllocNodeGetParams
#define cudaGraphAddMemFreeNode coop_byo_cudaGraphAddMemFreeNode
#define cudaDeviceGraphMemTrim coop_byo_cudaDeviceGraphMemTrim
#define cudaGraphNodeGetType coop_byo_cudaGraphNodeGetType
#define cudaGraphNodeGetDependencies coop_byo_cudaGraphNodeGetDependencies
#define cudaGraphNodeGetDependentNodes coop_byo_cudaGraphNodeGetDependentNodes
#define cudaGraphGetEdges coop_byo_cudaGraphGetEdges
#define cudaGraphDestroyNode coop_byo_cudaGraphDestroyNode
#define cudaGraphExecKernelNodeSetParams coop_byo_cudaGraphExecKernelNodeSetParams
#define cudaGraphExecMemcpyNodeSetParams coop_byo_cudaGraphExecMemcpyNodeSetParams
#define cudaGraphExecMemcpyNodeSetParams1D coop_byo_cudaGraphExecMemcpyNodeSetParams1D
#define cudaGraphExecMemsetNodeSetParams coop_byo_cudaGraphExecMemsetNodeSetParams
#define cudaGraphExecHostNodeSetParams coop_byo_cudaGraphExecHostNodeSetParams
#define cudaGraphExecUpdate coop_byo_cudaGraphExecUpdate
#define cudaStreamBeginCapture coop_byo_cudaStreamBeginCapture
#define cudaStreamEndCapture coop_byo_cudaStreamEndCapture
#define cudaStreamIsCapturing coop_byo_cudaStreamIsCapturing
#define cudaStreamGetCaptureInfo coop_byo_cudaStreamGetCaptureInfo
#define cudaMemcpyAsync coop_byo_cudaMemcpyAsync
#define cudaMemsetAsync coop_byo_cudaMemsetAsync
#define cudaLaunchHostFunc coop_byo_cudaLaunchHostFunc
#define cudaEventRecord coop_byo_cudaEventRecord
#define cudaStreamWaitEvent coop_byo_cudaStreamWaitEvent
#endif
