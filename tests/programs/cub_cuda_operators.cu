// CUB's operators as CUDA 13 spells them: cuda::std::plus, cuda::maximum and cuda::minimum, which
// CUB 3 takes where CUB 2 took cub::Sum, cub::Max and cub::Min (gone: a program naming them no
// longer compiles with nvcc). A device-wide reduce and scan, and a block reduce in the program's
// own kernel, each with one of them; every result is checked against the host's.
#include <cub/cub.cuh>
#include <cuda/functional>

#include <cstdio>

constexpr int kThreads = 64;

__global__ void block_min(const int* in, int* out) {
  using BlockReduceT = cub::BlockReduce<int, kThreads>;
  __shared__ typename BlockReduceT::TempStorage storage;
  const int least =
      BlockReduceT(storage).Reduce(in[blockIdx.x * kThreads + threadIdx.x], cuda::minimum<>{});
  if (threadIdx.x == 0) out[blockIdx.x] = least;
}

int main() {
  const int n = 2 * kThreads;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = (i * 37) % 101 - 50;
  int *in, *max, *scan, *mins;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&max, sizeof(int));
  cudaMalloc(&scan, sizeof host);
  cudaMalloc(&mins, 2 * sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);

  void* temp = nullptr;
  size_t reduce_bytes = 0, scan_bytes = 0;
  cub::DeviceReduce::Reduce(temp, reduce_bytes, in, max, n, cuda::maximum<>{}, -1000);
  cub::DeviceScan::InclusiveScan(temp, scan_bytes, in, scan, cuda::std::plus<>{}, n);
  cudaMalloc(&temp, reduce_bytes > scan_bytes ? reduce_bytes : scan_bytes);
  cub::DeviceReduce::Reduce(temp, reduce_bytes, in, max, n, cuda::maximum<>{}, -1000);
  cub::DeviceScan::InclusiveScan(temp, scan_bytes, in, scan, cuda::std::plus<>{}, n);
  block_min<<<2, kThreads>>>(in, mins);

  int got_max = 0, got_scan[n], got_mins[2];
  cudaMemcpy(&got_max, max, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_scan, scan, sizeof got_scan, cudaMemcpyDeviceToHost);
  cudaMemcpy(got_mins, mins, sizeof got_mins, cudaMemcpyDeviceToHost);

  int want_max = -1000, running = 0, scan_wrong = 0, want_mins[2] = {1000, 1000};
  for (int i = 0; i < n; ++i) {
    want_max = host[i] > want_max ? host[i] : want_max;
    running += host[i];
    scan_wrong += got_scan[i] != running;
    int& least = want_mins[i / kThreads];
    least = host[i] < least ? host[i] : least;
  }
  const bool ok = got_max == want_max && scan_wrong == 0 && got_mins[0] == want_mins[0] &&
                  got_mins[1] == want_mins[1];
  printf("max %d (host %d), %d scan sums wrong, block minimums %d %d (host %d %d): %s\n", got_max,
         want_max, scan_wrong, got_mins[0], got_mins[1], want_mins[0], want_mins[1],
         ok ? "PASSED" : "FAILED");
  cudaFree(temp);
  cudaFree(in);
  cudaFree(max);
  cudaFree(scan);
  cudaFree(mins);
  return ok ? 0 : 1;
}
