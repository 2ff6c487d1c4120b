// expect: Test PASSED
// CUB's device-wide calls as its examples use them: each call made twice, first with a null
// temporary-storage pointer to ask how many bytes it needs, then with storage of that size from
// cudaMalloc; a sum, a maximum and an inclusive prefix sum of the same input, every runtime call
// checked, and each result compared with a loop on the host.
#include <cub/cub.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t err = (call);                                                       \
    if (err != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err));  \
      exit(EXIT_FAILURE);                                                           \
    }                                                                               \
  } while (0)

int main() {
  const int num_items = 10000;
  std::vector<int> h_in(num_items);
  for (int i = 0; i < num_items; ++i) h_in[i] = (i * 37) % 101 - 50;

  int *d_in = nullptr, *d_sum = nullptr, *d_max = nullptr, *d_scan = nullptr;
  CHECK(cudaMalloc(&d_in, num_items * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, sizeof(int)));
  CHECK(cudaMalloc(&d_max, sizeof(int)));
  CHECK(cudaMalloc(&d_scan, num_items * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));

  void *d_temp_storage = nullptr;
  size_t temp_storage_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_sum, num_items));
  CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  CHECK(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_sum, num_items));
  CHECK(cudaFree(d_temp_storage));

  d_temp_storage = nullptr;
  temp_storage_bytes = 0;
  CHECK(cub::DeviceReduce::Max(d_temp_storage, temp_storage_bytes, d_in, d_max, num_items));
  CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  CHECK(cub::DeviceReduce::Max(d_temp_storage, temp_storage_bytes, d_in, d_max, num_items));
  CHECK(cudaFree(d_temp_storage));

  d_temp_storage = nullptr;
  temp_storage_bytes = 0;
  CHECK(cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, d_in, d_scan, num_items));
  CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  CHECK(cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, d_in, d_scan, num_items));
  CHECK(cudaFree(d_temp_storage));

  int h_sum = 0, h_max = 0;
  std::vector<int> h_scan(num_items);
  CHECK(cudaMemcpy(&h_sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_max, d_max, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_scan.data(), d_scan, num_items * sizeof(int), cudaMemcpyDeviceToHost));

  int want_sum = 0, want_max = h_in[0];
  bool ok = true;
  for (int i = 0; i < num_items; ++i) {
    want_sum += h_in[i];
    if (h_in[i] > want_max) want_max = h_in[i];
    ok = ok && h_scan[i] == want_sum;
  }
  ok = ok && h_sum == want_sum && h_max == want_max;
  printf("sum %d (host %d), max %d (host %d)\n", h_sum, want_sum, h_max, want_max);
  printf("Test %s\n", ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_scan));
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
