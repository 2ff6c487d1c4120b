// Stream-ordered allocation captured into a graph: cudaMallocAsync and cudaFreeAsync on a stream
// being captured become an alloc node and a free node, as CUDA records them, and the graph's
// memory is there at each launch (its kernel, traced, reads and writes only inside it).
#include <cstdio>

__global__ void squares(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

const int n = 512;
int host_in[n], host_out[n];

int main() {
  for (int i = 0; i < n; ++i) host_in[i] = i - 100;
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaGraph_t graph;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  int *in = nullptr, *out = nullptr;
  cudaMallocAsync(&in, n * sizeof(int), stream);
  cudaMallocAsync(&out, n * sizeof(int), stream);
  cudaMemcpyAsync(in, host_in, n * sizeof(int), cudaMemcpyHostToDevice, stream);
  squares<<<(n + 127) / 128, 128, 0, stream>>>(in, out, n);
  cudaFreeAsync(in, stream);
  cudaMemcpyAsync(host_out, out, n * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaFreeAsync(out, stream);
  cudaStreamEndCapture(stream, &graph);

  size_t count = 0;
  cudaGraphGetNodes(graph, nullptr, &count);
  cudaGraphNode_t nodes[16];
  cudaGraphGetNodes(graph, nodes, &count);
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < count && i < 16; ++i) {
    cudaGraphNodeType type;
    cudaGraphNodeGetType(nodes[i], &type);
    allocs += type == cudaGraphNodeTypeMemAlloc;
    frees += type == cudaGraphNodeTypeMemFree;
  }
  printf("%zu nodes: %d alloc, %d free\n", count, allocs, frees);

  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  int right = 0;
  for (int launch = 0; launch < 2; ++launch) {
    for (int i = 0; i < n; ++i) host_out[i] = -1;
    cudaGraphLaunch(exec, stream);
    const cudaError_t e = cudaStreamSynchronize(stream);
    bool ok = e == cudaSuccess;
    for (int i = 0; i < n; ++i) ok = ok && host_out[i] == host_in[i] * host_in[i];
    printf("launch %d: %s, %s\n", launch, cudaGetErrorName(e), ok ? "squares right" : "wrong");
    right += ok;
  }
  const bool passed = count == 7 && allocs == 2 && frees == 2 && right == 2;
  printf("%s\n", passed ? "PASSED" : "FAILED");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  return passed ? 0 : 1;
}
