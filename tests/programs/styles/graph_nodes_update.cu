// run: -I common
// expect: graphNodesUpdate PASSED
// nvcc: also without a GPU
// A graph built by hand in the manner of the SDK's graph samples: a scratch buffer from a memory
// alloc node, a child graph that scales and accumulates, event record and wait nodes after it,
// a memory free node at the end; then the instantiated graph's kernel and memset nodes are
// changed between launches (cudaGraphExec*NodeSetParams), and updating it from its own graph
// restores them (cudaGraphExecUpdate), where a graph of another shape is refused. Last, a graph
// launched into a stream being captured is refused, as CUDA refuses it. Every result is checked
// on the host.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void fillRamp(float *x, int n, float start) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = start + i;
}

__global__ void scaleInto(float *dst, const float *src, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = factor * src[i];
}

__global__ void accumulate(float *sum, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sum[i] += x[i];
}

static cudaKernelNodeParams kernelNode(void *func, int n, void **args) {
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3((n + 127) / 128);
  p.blockDim = dim3(128);
  p.kernelParams = args;
  return p;
}

static bool expectEach(const std::vector<float> &got, float (*want)(int), const char *what) {
  for (size_t i = 0; i < got.size(); i++)
    if (std::fabs(got[i] - want(int(i))) > 1e-3f) {
      printf("%s: element %zu is %f, expected %f\n", what, i, got[i], want(int(i)));
      return false;
    }
  return true;
}

int main(int argc, char **argv) {
  findCudaDevice(argc, (const char **)argv);
  const int n = 1000;
  float *d_sum;
  checkCudaErrors(cudaMalloc(&d_sum, n * sizeof(float)));
  cudaStream_t stream;
  checkCudaErrors(cudaStreamCreate(&stream));
  cudaEvent_t childDone;
  checkCudaErrors(cudaEventCreate(&childDone));

  // The parent: alloc scratch, memset sum, ramp into scratch, child, record, wait, free.
  cudaGraph_t graph;
  checkCudaErrors(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams allocParams = {};
  allocParams.poolProps.allocType = cudaMemAllocationTypePinned;
  allocParams.poolProps.location.type = cudaMemLocationTypeDevice;
  allocParams.poolProps.location.id = 0;
  allocParams.bytesize = n * sizeof(float);
  cudaGraphNode_t allocNode, memsetNode, rampNode, childNode, recordNode, waitNode, freeNode;
  checkCudaErrors(cudaGraphAddMemAllocNode(&allocNode, graph, NULL, 0, &allocParams));
  float *d_scratch = (float *)allocParams.dptr;

  cudaMemsetParams memsetParams = {};
  memsetParams.dst = d_sum;
  memsetParams.value = 0;
  memsetParams.elementSize = sizeof(float);
  memsetParams.width = n;
  memsetParams.height = 1;
  checkCudaErrors(cudaGraphAddMemsetNode(&memsetNode, graph, &allocNode, 1, &memsetParams));

  float start = 1.0f;
  int count = n;
  void *rampArgs[] = {&d_scratch, &count, &start};
  cudaKernelNodeParams rampParams = kernelNode((void *)fillRamp, n, rampArgs);
  checkCudaErrors(cudaGraphAddKernelNode(&rampNode, graph, &memsetNode, 1, &rampParams));

  // The child: scaled = 2 * scratch, then sum += scaled; its own scratch comes from cudaMalloc.
  float *d_scaled;
  checkCudaErrors(cudaMalloc(&d_scaled, n * sizeof(float)));
  cudaGraph_t child;
  checkCudaErrors(cudaGraphCreate(&child, 0));
  float factor = 2.0f;
  void *scaleArgs[] = {&d_scaled, &d_scratch, &count, &factor};
  void *accumulateArgs[] = {&d_sum, &d_scaled, &count};
  cudaKernelNodeParams scaleParams = kernelNode((void *)scaleInto, n, scaleArgs);
  cudaKernelNodeParams accumulateParams = kernelNode((void *)accumulate, n, accumulateArgs);
  cudaGraphNode_t scaleNode, accumulateNode;
  checkCudaErrors(cudaGraphAddKernelNode(&scaleNode, child, NULL, 0, &scaleParams));
  checkCudaErrors(cudaGraphAddKernelNode(&accumulateNode, child, &scaleNode, 1, &accumulateParams));
  checkCudaErrors(cudaGraphAddChildGraphNode(&childNode, graph, &rampNode, 1, child));
  checkCudaErrors(cudaGraphAddEventRecordNode(&recordNode, graph, &childNode, 1, childDone));
  checkCudaErrors(cudaGraphAddEventWaitNode(&waitNode, graph, &recordNode, 1, childDone));
  checkCudaErrors(cudaGraphAddMemFreeNode(&freeNode, graph, &waitNode, 1, d_scratch));

  size_t numNodes = 0, numEdges = 0;
  checkCudaErrors(cudaGraphGetNodes(graph, NULL, &numNodes));
  checkCudaErrors(cudaGraphGetEdges(graph, NULL, NULL, NULL, &numEdges));
  cudaGraphNodeType childType;
  checkCudaErrors(cudaGraphNodeGetType(childNode, &childType));
  cudaGraph_t embedded;
  size_t embeddedNodes = 0;
  checkCudaErrors(cudaGraphChildGraphNodeGetGraph(childNode, &embedded));
  checkCudaErrors(cudaGraphGetNodes(embedded, NULL, &embeddedNodes));
  bool ok = numNodes == 7 && numEdges == 6 && childType == cudaGraphNodeTypeGraph &&
            embeddedNodes == 2;
  if (!ok)
    printf("graph shape: %zu nodes, %zu edges, child type %d with %zu nodes\n", numNodes, numEdges,
           int(childType), embeddedNodes);

  cudaGraphExec_t graphExec;
  checkCudaErrors(cudaGraphInstantiate(&graphExec, graph, 0));
  std::vector<float> h_sum(n);

  // Launch 1: sum = 2 * (1 + i).
  checkCudaErrors(cudaGraphLaunch(graphExec, stream));
  checkCudaErrors(cudaStreamSynchronize(stream));
  checkCudaErrors(cudaMemcpy(h_sum.data(), d_sum, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= expectEach(h_sum, [](int i) { return 2.0f * (1 + i); }, "first launch");

  // Launch 2: the ramp starts at 10 in the instantiated graph only.
  float newStart = 10.0f;
  void *newRampArgs[] = {&d_scratch, &count, &newStart};
  cudaKernelNodeParams newRamp = kernelNode((void *)fillRamp, n, newRampArgs);
  checkCudaErrors(cudaGraphExecKernelNodeSetParams(graphExec, rampNode, &newRamp));
  checkCudaErrors(cudaGraphLaunch(graphExec, stream));
  checkCudaErrors(cudaStreamSynchronize(stream));
  checkCudaErrors(cudaMemcpy(h_sum.data(), d_sum, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= expectEach(h_sum, [](int i) { return 2.0f * (10 + i); }, "changed ramp");

  // Launch 3: the memset node now starts the sum at 1.0f (its bits, 4 bytes at a time).
  cudaMemsetParams ones = memsetParams;
  ones.value = 0x3f800000u;
  checkCudaErrors(cudaGraphExecMemsetNodeSetParams(graphExec, memsetNode, &ones));
  checkCudaErrors(cudaGraphLaunch(graphExec, stream));
  checkCudaErrors(cudaStreamSynchronize(stream));
  checkCudaErrors(cudaMemcpy(h_sum.data(), d_sum, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= expectEach(h_sum, [](int i) { return 1.0f + 2.0f * (10 + i); }, "sum from one");

  // Launch 4: the graph itself is unchanged, so updating from it restores the first launch's
  // parameters; a graph of another shape is refused and says how.
  cudaGraphExecUpdateResultInfo info;
  checkCudaErrors(cudaGraphExecUpdate(graphExec, graph, &info));
  checkCudaErrors(cudaGraphLaunch(graphExec, stream));
  checkCudaErrors(cudaStreamSynchronize(stream));
  checkCudaErrors(cudaMemcpy(h_sum.data(), d_sum, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= expectEach(h_sum, [](int i) { return 2.0f * (1 + i); }, "updated back");
  ok &= info.result == cudaGraphExecUpdateSuccess;
  cudaGraph_t smaller;
  checkCudaErrors(cudaGraphCreate(&smaller, 0));
  cudaGraphNode_t lone;
  checkCudaErrors(cudaGraphAddKernelNode(&lone, smaller, NULL, 0, &rampParams));
  cudaError_t refused = cudaGraphExecUpdate(graphExec, smaller, &info);
  ok &= refused == cudaErrorGraphExecUpdateFailure &&
        info.result == cudaGraphExecUpdateErrorTopologyChanged;
  cudaGetLastError();

  // A graph launched into a stream being captured is refused, as CUDA refuses it.
  float *d_ramp;
  checkCudaErrors(cudaMalloc(&d_ramp, n * sizeof(float)));
  cudaGraph_t rampGraph;
  checkCudaErrors(cudaGraphCreate(&rampGraph, 0));
  float five = 5.0f;
  void *fiveArgs[] = {&d_ramp, &count, &five};
  cudaKernelNodeParams fiveParams = kernelNode((void *)fillRamp, n, fiveArgs);
  cudaGraphNode_t fiveNode;
  checkCudaErrors(cudaGraphAddKernelNode(&fiveNode, rampGraph, NULL, 0, &fiveParams));
  cudaGraphExec_t rampExec;
  checkCudaErrors(cudaGraphInstantiate(&rampExec, rampGraph, 0));
  cudaStream_t capturing;
  checkCudaErrors(cudaStreamCreate(&capturing));
  checkCudaErrors(cudaStreamBeginCapture(capturing, cudaStreamCaptureModeGlobal));
  ok &= cudaGraphLaunch(rampExec, capturing) == cudaErrorStreamCaptureUnsupported;
  cudaGraph_t captured = NULL;
  cudaStreamEndCapture(capturing, &captured);
  if (captured) cudaGraphDestroy(captured);
  cudaGetLastError();
  checkCudaErrors(cudaStreamDestroy(capturing));
  checkCudaErrors(cudaGraphExecDestroy(rampExec));
  checkCudaErrors(cudaGraphDestroy(rampGraph));
  checkCudaErrors(cudaFree(d_ramp));

  checkCudaErrors(cudaGraphExecDestroy(graphExec));
  checkCudaErrors(cudaGraphDestroy(smaller));
  checkCudaErrors(cudaGraphDestroy(child));
  checkCudaErrors(cudaGraphDestroy(graph));
  checkCudaErrors(cudaEventDestroy(childDone));
  checkCudaErrors(cudaStreamDestroy(stream));
  checkCudaErrors(cudaFree(d_scaled));
  checkCudaErrors(cudaFree(d_sum));
  printf("graphNodesUpdate %s\n", ok ? "PASSED" : "FAILED");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
