// expect: scan PASSED
// A work-efficient (up-sweep, down-sweep) exclusive scan as textbook chapters build it: each
// block scans 2 * blockDim.x elements in shared memory and writes its total; the totals are
// scanned by a second launch of the same kernel, and a third kernel adds them back.
#include <cstdio>
#include <vector>

#define BLOCK 128

__global__ void blelloch_scan(const int *in, int *out, int *sums, int n) {
  __shared__ int temp[2 * BLOCK];
  int t = threadIdx.x;
  int base = 2 * blockIdx.x * blockDim.x;
  temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  int offset = 1;
  for (int d = blockDim.x; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) {
    if (sums) sums[blockIdx.x] = temp[2 * blockDim.x - 1];
    temp[2 * blockDim.x - 1] = 0;
  }
  for (int d = 1; d <= blockDim.x; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      int v = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += v;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = temp[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = temp[2 * t + 1];
}

__global__ void add_block_offsets(int *data, const int *offsets, int n) {
  int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
  if (i < n) data[i] += offsets[blockIdx.x];
  if (i + blockDim.x < n) data[i + blockDim.x] += offsets[blockIdx.x];
}

int main() {
  const int n = 3000;
  const int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  std::vector<int> h(n), got(n), want(n);
  for (int i = 0; i < n; i++) h[i] = (i * 7) % 10;
  for (int i = 0, s = 0; i < n; i++) {
    want[i] = s;
    s += h[i];
  }
  int *d_in, *d_out, *d_sums, *d_offsets;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(int));
  cudaMalloc(&d_offsets, blocks * sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  blelloch_scan<<<blocks, BLOCK>>>(d_in, d_out, d_sums, n);
  blelloch_scan<<<1, BLOCK>>>(d_sums, d_offsets, nullptr, blocks);
  add_block_offsets<<<blocks, BLOCK>>>(d_out, d_offsets, n);
  cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += got[i] != want[i];
  printf("%d blocks, %d wrong, last %d (expected %d)\n", blocks, bad, got[n - 1], want[n - 1]);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_sums);
  cudaFree(d_offsets);
  printf("scan %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
