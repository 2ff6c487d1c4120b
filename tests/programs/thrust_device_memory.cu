// Thrust's raw device memory in a kernel: device_malloc and device_free, device_new and
// device_delete, a universal_vector read on the host after the kernel wrote it. With an argument,
// a launch of 4 blocks of 256 threads and no `if (i < n)` writes past 1000 floats: "malloc" past a
// device_malloc block, "universal" past a universal_vector.
#include <thrust/device_delete.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_new.h>
#include <thrust/universal_vector.h>

#include <cstdio>
#include <cstring>

__global__ void iota(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = float(i);
}

__global__ void iota_unguarded(float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = float(i);
}

int main(int argc, char** argv) {
  const int n = 1000;
  const char* overrun = argc > 1 ? argv[1] : "";
  thrust::device_ptr<float> block = thrust::device_malloc<float>(n);
  thrust::universal_vector<float> shared(n);
  if (std::strcmp(overrun, "malloc") == 0)
    iota_unguarded<<<4, 256>>>(thrust::raw_pointer_cast(block));
  if (std::strcmp(overrun, "universal") == 0)
    iota_unguarded<<<4, 256>>>(thrust::raw_pointer_cast(shared.data()));
  iota<<<4, 256>>>(thrust::raw_pointer_cast(block), n);
  float copied[n];
  cudaMemcpy(copied, thrust::raw_pointer_cast(block), sizeof copied, cudaMemcpyDeviceToHost);
  float on_device = 0;
  for (float x : copied) on_device += x;
  thrust::device_free(block);

  iota<<<4, 256>>>(thrust::raw_pointer_cast(shared.data()), n);
  cudaDeviceSynchronize();
  float on_host = 0;
  for (int i = 0; i < n; ++i) on_host += shared[i];

  thrust::device_ptr<int> three = thrust::device_new<int>(3);
  thrust::device_delete(three, 3);

  const float want = n * (n - 1) / 2.0f;
  printf("device_malloc sum %g, universal_vector sum %g: %s\n", on_device, on_host,
         on_device == want && on_host == want ? "PASSED" : "FAILED");
  return on_device == want && on_host == want ? 0 : 1;
}
