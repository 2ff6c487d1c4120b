// A sum by two kernels run as a CUDA Graph, in the manner of NVIDIA's simpleCudaGraphs sample:
// once built node by node (a copy in, memsets, two kernel nodes, a copy out and a host node that
// checks the result) and once captured from two streams that fork and join through events. Each
// graph, and a clone of the captured one, is launched three times; the host checks every launch's
// sum. The first graph is instantiated by the five-argument form CUDA 11 samples call.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/sample_checks.h"

#define THREADS_PER_BLOCK 256

// Each block's partial sum of `in`.
__global__ void reduce(const float *in, double *partial, size_t n) {
  __shared__ double tmp[THREADS_PER_BLOCK];
  double sum = 0;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += in[i];
  tmp[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) tmp[threadIdx.x] += tmp[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = tmp[0];
}

// The partial sums added up by one block.
__global__ void reduceFinal(const double *partial, double *result, size_t n) {
  __shared__ double tmp[THREADS_PER_BLOCK];
  double sum = 0;
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) sum += partial[i];
  tmp[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) tmp[threadIdx.x] += tmp[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = tmp[0];
}

struct Check {
  const double *result;
  double expected;
  int launches;
  int wrong;
};

// A host node: checks the sum the graph just copied back.
void CUDART_CB checkResult(void *data) {
  Check *c = (Check *)data;
  c->launches++;
  if (*c->result != c->expected) {
    printf("launch %d: sum %f, expected %f\n", c->launches, *c->result, c->expected);
    c->wrong++;
  }
}

int main() {
  const size_t n = 1 << 14;
  const int blocks = 16;
  float *h_in = NULL;
  double *h_result = NULL;
  CHECK_CUDA(cudaMallocHost((void **)&h_in, n * sizeof(float)));
  CHECK_CUDA(cudaMallocHost((void **)&h_result, sizeof(double)));
  double expected = 0;
  for (size_t i = 0; i < n; i++) {
    h_in[i] = (float)(i % 10) * 0.5f;
    expected += h_in[i];
  }
  float *d_in = NULL;
  double *d_partial = NULL, *d_result = NULL;
  CHECK_CUDA(cudaMalloc((void **)&d_in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void **)&d_partial, blocks * sizeof(double)));
  CHECK_CUDA(cudaMalloc((void **)&d_result, sizeof(double)));
  Check check = {h_result, expected, 0, 0};
  size_t count = n, partials = blocks;

  // The graph built node by node.
  cudaGraph_t graph;
  CHECK_CUDA(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t copyIn, clearPartial, clearResult, reduceNode, finalNode, copyOut, hostNode;
  cudaMemcpy3DParms copyParams = {0};
  copyParams.srcPtr = make_cudaPitchedPtr(h_in, n * sizeof(float), n, 1);
  copyParams.dstPtr = make_cudaPitchedPtr(d_in, n * sizeof(float), n, 1);
  copyParams.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  copyParams.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaGraphAddMemcpyNode(&copyIn, graph, NULL, 0, &copyParams));
  cudaMemsetParams memsetParams = {0};
  memsetParams.dst = (void *)d_partial;
  memsetParams.value = 0;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(float);
  memsetParams.width = blocks * 2;
  memsetParams.height = 1;
  CHECK_CUDA(cudaGraphAddMemsetNode(&clearPartial, graph, NULL, 0, &memsetParams));
  memsetParams.dst = (void *)d_result;
  memsetParams.width = 2;
  CHECK_CUDA(cudaGraphAddMemsetNode(&clearResult, graph, NULL, 0, &memsetParams));

  cudaKernelNodeParams kernelNodeParams = {0};
  void *reduceArgs[3] = {(void *)&d_in, (void *)&d_partial, &count};
  kernelNodeParams.func = (void *)reduce;
  kernelNodeParams.gridDim = dim3(blocks, 1, 1);
  kernelNodeParams.blockDim = dim3(THREADS_PER_BLOCK, 1, 1);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = (void **)reduceArgs;
  kernelNodeParams.extra = NULL;
  std::vector<cudaGraphNode_t> deps = {copyIn, clearPartial};
  CHECK_CUDA(cudaGraphAddKernelNode(&reduceNode, graph, deps.data(), deps.size(), &kernelNodeParams));

  void *finalArgs[3] = {(void *)&d_partial, &d_result, &partials};
  kernelNodeParams.func = (void *)reduceFinal;
  kernelNodeParams.gridDim = dim3(1, 1, 1);
  kernelNodeParams.kernelParams = finalArgs;
  deps = {reduceNode, clearResult};
  CHECK_CUDA(cudaGraphAddKernelNode(&finalNode, graph, deps.data(), deps.size(), &kernelNodeParams));

  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&copyOut, graph, &finalNode, 1, h_result, d_result,
                                      sizeof(double), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hostParams = {0};
  hostParams.fn = checkResult;
  hostParams.userData = &check;
  CHECK_CUDA(cudaGraphAddHostNode(&hostNode, graph, &copyOut, 1, &hostParams));

  size_t numNodes = 0;
  CHECK_CUDA(cudaGraphGetNodes(graph, NULL, &numNodes));
  printf("Num of nodes in the graph created manually = %zu\n", numNodes);
  if (numNodes != 7) check.wrong++;

  cudaStream_t streamForGraph;
  CHECK_CUDA(cudaStreamCreateWithFlags(&streamForGraph, cudaStreamNonBlocking));
  cudaGraphExec_t graphExec;
  CHECK_CUDA(cudaGraphInstantiate(&graphExec, graph, NULL, NULL, 0));
  for (int i = 0; i < 3; i++) CHECK_CUDA(cudaGraphLaunch(graphExec, streamForGraph));
  CHECK_CUDA(cudaStreamSynchronize(streamForGraph));

  // The same work captured from two streams: the second clears the buffers while the first
  // copies the input in; they join before the kernels.
  cudaStream_t stream1, stream2;
  cudaEvent_t forkEvent, clearedEvent;
  CHECK_CUDA(cudaStreamCreate(&stream1));
  CHECK_CUDA(cudaStreamCreate(&stream2));
  CHECK_CUDA(cudaEventCreate(&forkEvent));
  CHECK_CUDA(cudaEventCreate(&clearedEvent));
  cudaGraph_t captured;
  CHECK_CUDA(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaEventRecord(forkEvent, stream1));
  CHECK_CUDA(cudaStreamWaitEvent(stream2, forkEvent, 0));
  CHECK_CUDA(cudaMemcpyAsync(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice, stream1));
  CHECK_CUDA(cudaMemsetAsync(d_partial, 0, blocks * sizeof(double), stream2));
  CHECK_CUDA(cudaMemsetAsync(d_result, 0, sizeof(double), stream2));
  CHECK_CUDA(cudaEventRecord(clearedEvent, stream2));
  CHECK_CUDA(cudaStreamWaitEvent(stream1, clearedEvent, 0));
  reduce<<<blocks, THREADS_PER_BLOCK, 0, stream1>>>(d_in, d_partial, n);
  reduceFinal<<<1, THREADS_PER_BLOCK, 0, stream1>>>(d_partial, d_result, blocks);
  CHECK_CUDA(cudaMemcpyAsync(h_result, d_result, sizeof(double), cudaMemcpyDeviceToHost, stream1));
  CHECK_CUDA(cudaLaunchHostFunc(stream1, checkResult, &check));
  CHECK_CUDA(cudaStreamEndCapture(stream1, &captured));
  CHECK_CUDA(cudaGraphGetNodes(captured, NULL, &numNodes));
  printf("Num of nodes in the graph created using stream capture = %zu\n", numNodes);
  if (numNodes != 7) check.wrong++;

  cudaGraphExec_t capturedExec;
  CHECK_CUDA(cudaGraphInstantiate(&capturedExec, captured, 0));
  for (int i = 0; i < 3; i++) CHECK_CUDA(cudaGraphLaunch(capturedExec, streamForGraph));
  CHECK_CUDA(cudaStreamSynchronize(streamForGraph));

  // A clone runs the same nodes in the same order, apart from the graph it was made from.
  cudaGraph_t cloned;
  cudaGraphExec_t clonedExec;
  CHECK_CUDA(cudaGraphClone(&cloned, captured));
  CHECK_CUDA(cudaGraphGetNodes(cloned, NULL, &numNodes));
  if (numNodes != 7) check.wrong++;
  CHECK_CUDA(cudaGraphInstantiate(&clonedExec, cloned, 0));
  for (int i = 0; i < 3; i++) CHECK_CUDA(cudaGraphLaunch(clonedExec, streamForGraph));
  CHECK_CUDA(cudaStreamSynchronize(streamForGraph));
  CHECK_CUDA(cudaGraphExecDestroy(clonedExec));
  CHECK_CUDA(cudaGraphDestroy(cloned));

  CHECK_CUDA(cudaGraphExecDestroy(graphExec));
  CHECK_CUDA(cudaGraphExecDestroy(capturedExec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaGraphDestroy(captured));
  CHECK_CUDA(cudaEventDestroy(forkEvent));
  CHECK_CUDA(cudaEventDestroy(clearedEvent));
  CHECK_CUDA(cudaStreamDestroy(stream1));
  CHECK_CUDA(cudaStreamDestroy(stream2));
  CHECK_CUDA(cudaStreamDestroy(streamForGraph));
  CHECK_CUDA(cudaFree(d_in));
  CHECK_CUDA(cudaFree(d_partial));
  CHECK_CUDA(cudaFree(d_result));
  CHECK_CUDA(cudaFreeHost(h_in));
  CHECK_CUDA(cudaFreeHost(h_result));

  if (check.launches != 9) check.wrong++;
  if (check.wrong) {
    printf("FAILED (%d wrong, %d checked launches)\n", check.wrong, check.launches);
    return EXIT_FAILURE;
  }
  printf("PASSED (9 graph launches, sum %.1f)\n", expected);
  return EXIT_SUCCESS;
}
