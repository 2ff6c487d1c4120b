// assert() in a kernel: a launch whose threads all hold it succeeds; one where some fail it
// stops with cudaErrorAssert, which the program reads from its next synchronisation and goes on
// to report, as CUDA has it (the host's own program keeps running).
#include <cassert>
#include <cstdio>

__global__ void check_below(int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
}

int main() {
  check_below<<<1, 32>>>(32);
  const cudaError_t held = cudaDeviceSynchronize();
  check_below<<<2, 32>>>(60);  // threads 60..63 fail it
  const cudaError_t failed = cudaDeviceSynchronize();
  const bool ok = held == cudaSuccess && failed == cudaErrorAssert;
  printf("held: %s, failed: %s: %s\n", cudaGetErrorName(held), cudaGetErrorName(failed),
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
