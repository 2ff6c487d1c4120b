// expect: reduce6 PASSED
// The last kernel of the classic parallel-reduction course: several elements per thread in a
// grid-stride loop, the block size a template parameter so that the unrolled steps compile away,
// and a switch on the block size at run time picking the instance. The last warp's steps use
// __syncwarp() between them, as CUDA requires since independent thread scheduling.
#include <cstdio>
#include <vector>

template <unsigned int blockSize>
__global__ void reduce6(const int *g_idata, int *g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  int sum = 0;
  while (i < n) {
    sum += g_idata[i];
    if (i + blockSize < n) sum += g_idata[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = sum;
  __syncthreads();
  if (blockSize >= 512) {
    if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256];
    __syncthreads();
  }
  if (blockSize >= 256) {
    if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128];
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64) sdata[tid] = sum = sum + sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32) {
    if (blockSize >= 64) sum += sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      __syncwarp();
      sdata[tid] = sum;
      __syncwarp();
      sum += sdata[tid + offset];
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

void reduce(int threads, int blocks, const int *in, int *out, unsigned int n) {
  const int smem = (threads <= 32 ? 2 * threads : threads) * sizeof(int);
  switch (threads) {
    case 512: reduce6<512><<<blocks, threads, smem>>>(in, out, n); break;
    case 256: reduce6<256><<<blocks, threads, smem>>>(in, out, n); break;
    case 128: reduce6<128><<<blocks, threads, smem>>>(in, out, n); break;
    case 64: reduce6<64><<<blocks, threads, smem>>>(in, out, n); break;
  }
}

int main() {
  const unsigned int n = 20000;
  std::vector<int> h(n);
  long long want = 0;
  for (unsigned int i = 0; i < n; i++) want += h[i] = (int)((i * 2654435761u) >> 28);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, 64 * sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  bool ok = true;
  const int sizes[] = {64, 128, 256, 512};
  for (int threads : sizes) {
    const int blocks = 6;
    reduce(threads, blocks, d_in, d_out, n);
    std::vector<int> partial(blocks);
    cudaMemcpy(partial.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    long long got = 0;
    for (int p : partial) got += p;
    printf("%3d threads: %lld (expected %lld)\n", threads, got, want);
    ok = ok && got == want;
  }
  ok = ok && cudaGetLastError() == cudaSuccess;
  cudaFree(d_in);
  cudaFree(d_out);
  printf("reduce6 %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
