// Keeps the odd numbers with cub::DeviceSelect::If, then sums the whole output array rather than
// the selected count: the items past that count were never written. With --check-memory the
// first read of one stops the program at its line.
#include <cub/device/device_select.cuh>
#include <cstdio>

struct IsOdd {
  __host__ __device__ bool operator()(int x) const { return x % 2 != 0; }
};

__global__ void sum_all(const int* selected, int n, int* total) {
  int i = threadIdx.x;
  if (i < n) atomicAdd(total, selected[i]);
}

int main() {
  const int n = 40;
  int h_in[n];
  for (int i = 0; i < n; ++i) h_in[i] = i;
  int *d_in, *d_out, *d_count, *d_total;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_count, sizeof(int));
  cudaMalloc(&d_total, sizeof(int));
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(int));
  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_count, n, IsOdd{});
  cudaMalloc(&d_temp, temp_bytes);
  cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_count, n, IsOdd{});
  sum_all<<<1, n>>>(d_out, n, d_total);
  int total = 0;
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  printf("total = %d\n", total);
  return 0;
}
