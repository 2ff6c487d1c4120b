// expect: warp-synchronous reduce: PASSED
// The reduction of a well-known optimisation talk and of the course code copied from it: a
// templated block size, the first add done while loading two elements per thread, a shared-memory
// tree with __syncthreads down to 64 values, then the last warp unrolled over a volatile pointer with
// no __syncwarp between its steps. CUDA has not promised that last part since Volta (each lane
// may run ahead); a converged warp still does each load and store together, and so does the
// emulator's default schedule, where a volatile access is a step point for the whole warp.
// Checks: each block's sum against a host sum of the same elements, for three block sizes.
#include <cstdio>
#include <vector>

template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

// Each block sums 2 * blockSize elements: the first add as it loads them into shared memory.
template <unsigned int blockSize>
__global__ void reduce5(const int *g_idata, int *g_odata) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idata[i + blockSize];
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <unsigned int blockSize>
bool check(const int *d_in, const std::vector<int> &in) {
  const int blocks = int(in.size() / (2 * blockSize));
  int *d_out;
  cudaMalloc(&d_out, blocks * sizeof(int));
  reduce5<blockSize><<<blocks, blockSize, blockSize * sizeof(int)>>>(d_in, d_out);
  std::vector<int> out(blocks);
  cudaMemcpy(out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  bool ok = true;
  for (int b = 0; b < blocks; b++) {
    long expected = 0;
    for (unsigned int j = b * blockSize * 2; j < (b + 1) * blockSize * 2; j++) expected += in[j];
    if (out[b] != expected) {
      printf("block size %u, block %d: %d, expected %ld\n", blockSize, b, out[b], expected);
      ok = false;
    }
  }
  return ok;
}

int main() {
  const unsigned int n = 1 << 12;
  std::vector<int> in(n);
  for (unsigned int i = 0; i < n; i++) in[i] = int((i * 2654435761u) >> 24) - 100;
  int *d_in;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  bool ok = check<256>(d_in, in);
  ok = check<128>(d_in, in) && ok;
  ok = check<64>(d_in, in) && ok;
  cudaFree(d_in);
  printf("warp-synchronous reduce: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
