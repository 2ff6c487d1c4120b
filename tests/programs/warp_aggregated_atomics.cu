// Warp-aggregated atomics with coalesced_threads(): the active lanes of a warp elect a leader,
// which adds the group's count once; the others learn their slot from the leader's old value.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__device__ int reserve(int* counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int base = 0;
  if (active.thread_rank() == 0) base = atomicAdd(counter, (int)active.num_threads());
  return active.shfl(base, 0) + active.thread_rank();
}

__global__ void keep_odd(const int* in, int* out, int* counter, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 2 != 0) out[reserve(counter)] = in[i];
}

int main() {
  const int n = 300;
  std::vector<int> h(n);
  int odd = 0;
  for (int i = 0; i < n; ++i) odd += (h[i] = i * 3 + 1) % 2 != 0;
  int *d_in, *d_out, *d_counter;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_counter, sizeof(int));
  cudaMemset(d_counter, 0, sizeof(int));
  cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  keep_odd<<<(n + 127) / 128, 128>>>(d_in, d_out, d_counter, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  int count = 0;
  cudaMemcpy(&count, d_counter, sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> out(count);
  cudaMemcpy(out.data(), d_out, count * sizeof(int), cudaMemcpyDeviceToHost);
  long sum = 0, expect = 0;
  for (int v : out) sum += v;
  for (int v : h) expect += v % 2 != 0 ? v : 0;
  const bool ok = count == odd && sum == expect && ms >= 0;
  printf("kept %d of %d (expected %d): %s\n", count, n, odd, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
