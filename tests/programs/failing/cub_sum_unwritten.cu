// Sums 100 floats with cub::DeviceReduce::Sum after copying in only the first 60: the other 40
// were never written. With --check-memory the call's read of them stops the program at its line.
#include <cub/device/device_reduce.cuh>
#include <cstdio>

int main() {
  const int n = 100;
  float h_in[n];
  for (int i = 0; i < n; ++i) h_in[i] = 1.0f;
  float *d_in, *d_sum;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_sum, sizeof(float));
  cudaMemcpy(d_in, h_in, 60 * sizeof(float), cudaMemcpyHostToDevice);
  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_sum, n);
  cudaMalloc(&d_temp, temp_bytes);
  cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_sum, n);
  float sum = 0;
  cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost);
  printf("not reached: sum = %f\n", sum);
  return 0;
}
