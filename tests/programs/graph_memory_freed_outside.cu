// Memory a graph's alloc node gives may be freed outside the graph (cudaFree, cudaFreeAsync, or
// a free node of another graph), and the graph launched again: CUDA gives it the same address
// each launch, so each launch fills the same pointer and each free succeeds.
#include <cstdio>
#include <cstring>

__global__ void fill(int* out, int n, int base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + i;
}

const int n = 1000;
int host[n];

bool filled() {
  for (int i = 0; i < n; ++i)
    if (host[i] != 7 + i) return false;
  return true;
}

int main() {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaMemAllocNodeParams alloc;
  memset(&alloc, 0, sizeof(alloc));
  alloc.bytesize = n * sizeof(int);
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  cudaGraphNode_t made, ran, copied;
  cudaGraphAddMemAllocNode(&made, graph, nullptr, 0, &alloc);
  int* out = static_cast<int*>(alloc.dptr);
  int count = n, base = 7;
  void* args[] = {&out, &count, &base};
  cudaKernelNodeParams k = {};
  k.func = (void*)fill;
  k.gridDim = dim3((n + 255) / 256);
  k.blockDim = dim3(256);
  k.kernelParams = args;
  cudaGraphAddKernelNode(&ran, graph, &made, 1, &k);
  cudaGraphAddMemcpyNode1D(&copied, graph, &ran, 1, host, out, n * sizeof(int),
                           cudaMemcpyDeviceToHost);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);

  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int rounds = 0;
  // Freed by cudaFree, then by cudaFreeAsync, then by another graph's free node.
  cudaGraph_t frees;
  cudaGraphCreate(&frees, 0);
  cudaGraphNode_t freed;
  cudaGraphAddMemFreeNode(&freed, frees, nullptr, 0, out);
  cudaGraphExec_t free_exec;
  cudaGraphInstantiate(&free_exec, frees, nullptr, nullptr, 0);
  // An alloc node after another graph's node is refused, its memory given back (and the
  // program goes on: giving it back once waited on the graphs' own lock).
  cudaMemAllocNodeParams refused = alloc;
  cudaGraphNode_t foreign;
  const cudaError_t refusal = cudaGraphAddMemAllocNode(&foreign, graph, &freed, 1, &refused);
  printf("alloc node after another graph's node: %s\n", cudaGetErrorName(refusal));
  rounds -= refusal != cudaErrorInvalidValue || refused.dptr != nullptr;
  for (int way = 0; way < 3; ++way) {
    memset(host, 0, sizeof(host));
    cudaGraphLaunch(exec, stream);
    cudaStreamSynchronize(stream);
    cudaError_t e = cudaSuccess;
    if (way == 0) e = cudaFree(out);
    if (way == 1) e = cudaFreeAsync(out, stream);
    if (way == 2) e = cudaGraphLaunch(free_exec, stream);
    const cudaError_t synced = cudaStreamSynchronize(stream);
    printf("launch %d: filled %d, freed: %s, %s\n", way, int(filled()), cudaGetErrorName(e),
           cudaGetErrorName(synced));
    rounds += filled() && e == cudaSuccess && synced == cudaSuccess;
  }
  printf("%s\n", rounds == 3 ? "PASSED" : "FAILED");
  cudaGraphExecDestroy(free_exec);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(frees);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  return rounds == 3 ? 0 : 1;
}
