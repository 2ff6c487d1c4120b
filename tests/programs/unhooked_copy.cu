// Counts its launches in a __device__ variable and notes which build of the kernel ran each: the
// one with the memory hooks (compiled with ThreadSanitizer's instrumentation, which defines
// __SANITIZE_THREAD__) or the unhooked copy. Both builds must share every variable, so the counts
// come out whole, and the program's globals are constructed once. The first argument sets the
// launches (default 6).
#include <cstdio>
#include <cstdlib>

__device__ int launches_seen;
int constructed = 0;
struct Once {
  Once() { ++constructed; }
} once;  // a global with a constructor: run once, by the program

__global__ void count(int* hooked, int* unhooked, int* sum) {
  __shared__ int block_total;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  atomicAdd(&block_total, 1);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(sum, block_total);
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    launches_seen += 1;
#ifdef __SANITIZE_THREAD__
    *hooked += 1;
#else
    *unhooked += 1;
#endif
  }
}

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 6;
  int *d = nullptr;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  for (int i = 0; i < launches; ++i) count<<<4, 64>>>(d, d + 1, d + 2);
  int h[3] = {0, 0, 0}, seen = 0;
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen);
  const bool ok = seen == launches && h[0] + h[1] == launches && h[2] == launches * 256 &&
                  constructed == 1;
  printf("hooked %d, unhooked %d, seen %d, constructed %d: %s\n", h[0], h[1], seen, constructed,
         ok ? "PASSED" : "FAILED");
  cudaFree(d);
  return ok ? 0 : 1;
}
