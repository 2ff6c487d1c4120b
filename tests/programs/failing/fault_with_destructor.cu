// One lane calls __shfl_sync with a mask that leaves it out, while the other threads wait in a
// load or store step (random, its) or in a traced atomic inside a destructor (every schedule).
// Those threads cannot be unwound (an exception may not leave a destructor or a memory hook): the
// emulator drops them and reports the fault at line 21.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

struct CountOnExit {
  int* count;
  __device__ ~CountOnExit() { atomicAdd(count, 1); }
};

__global__ void rotate_and_count(const int* in, int* out) {
  __shared__ int s[64];
  const CountOnExit counted{out + 64};
  const int t = int(threadIdx.x);
  s[t] = in[t];
  __syncthreads();
  int v = s[(t + 1) % 64];
  if (t == 37) v = __shfl_sync(0x1u, v, 0);  // lane 5 of warp 1 is not in the mask
  out[t] = v;
}

int main() {
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, 65 * sizeof(int));
  cudaMemset(in, 0, 64 * sizeof(int));
  rotate_and_count<<<1, 64>>>(in, out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
