// expect: max PASSED
// order: atomics
// An atomic the hardware does not offer, built from atomicCAS as forum answers and books show:
// a float maximum through __float_as_int / __int_as_float and a retry loop, used by every thread
// of a grid; and a spin lock taken with atomicCAS and released with atomicExch around a counter
// that one thread per block updates.
#include <cfloat>
#include <cstdio>
#include <vector>

__device__ float atomicMaxFloat(float *address, float val) {
  int *address_as_int = (int *)address;
  int old = *address_as_int, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_int, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

struct Lock {
  int *mutex;
  __device__ void lock() {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    __threadfence();
  }
  __device__ void unlock() {
    __threadfence();
    atomicExch(mutex, 0);
  }
};

__global__ void find_max(const float *x, int n, float *result, Lock lock, int *blocks_done) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMaxFloat(result, x[i]);
  if (threadIdx.x == 0) {
    lock.lock();
    *blocks_done = *blocks_done + 1;
    lock.unlock();
  }
}

int main() {
  const int n = 3001, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<float> h(n);
  float want = -FLT_MAX;
  for (int i = 0; i < n; i++) {
    h[i] = float((i * 2654435761u) % 100000) / 7.0f - 5000.0f;
    want = h[i] > want ? h[i] : want;
  }
  float *d_x, *d_result;
  int *d_mutex, *d_done;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_result, sizeof(float));
  cudaMalloc(&d_mutex, sizeof(int));
  cudaMalloc(&d_done, sizeof(int));
  cudaMemcpy(d_x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const float lowest = -FLT_MAX;
  cudaMemcpy(d_result, &lowest, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_mutex, 0, sizeof(int));
  cudaMemset(d_done, 0, sizeof(int));
  Lock lock{d_mutex};
  find_max<<<blocks, threads>>>(d_x, n, d_result, lock, d_done);
  float got = 0;
  int done = 0;
  cudaMemcpy(&got, d_result, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&done, d_done, sizeof(int), cudaMemcpyDeviceToHost);
  printf("max %f (expected %f), %d of %d blocks counted\n", got, want, done, blocks);
  const bool ok = got == want && done == blocks;
  cudaFree(d_x);
  cudaFree(d_result);
  cudaFree(d_mutex);
  cudaFree(d_done);
  printf("max %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
