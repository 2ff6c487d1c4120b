// expect: pass — maxThreadsPerBlock from cudaGetDeviceProperties, 64-bit resident-thread counts
// Exercise: choose the block size with the occupancy calculator, for a kernel whose shared memory
// grows with its block (occupancy lesson). Build it with nvcc, or run it with `coopviz run
// solution.cu`; check it with `coopviz exercise check choose-the-block solution.cu`.
#include <cuda_runtime.h>

#include <cstdio>
#include <random>
#include <vector>

// Each block reverses its chunk of blockDim.x * per_thread ints (the last chunk may be shorter),
// staged in dynamic shared memory: a block of b threads needs b * per_thread ints of it.
__global__ void reverse_chunks(const int* in, int* out, int n, int per_thread) {
  extern __shared__ int staged[];
  const int chunk = blockDim.x * per_thread;
  const int first = blockIdx.x * chunk;
  const int count = min(chunk, n - first);
  for (int k = threadIdx.x; k < count; k += blockDim.x) staged[k] = in[first + k];
  __syncthreads();  // every element of the chunk is staged
  for (int k = threadIdx.x; k < count; k += blockDim.x) out[first + k] = staged[count - 1 - k];
}

struct Launch {
  int grid = 0, block = 0;
  size_t smem = 0;  // dynamic shared memory per block, in bytes
};

// The launch of reverse_chunks over n ints: the block size (a multiple of 32 up to the device's
// most threads per block) that lets the most threads be resident on one SM, the largest of those
// that tie; its shared memory; and as many blocks as cover n.
Launch choose_launch(int n, int per_thread) {
  Launch best;
  cudaDeviceProp props{};
  cudaGetDeviceProperties(&props, 0);
  long long most_threads = 0;
  for (int block = 32; block <= props.maxThreadsPerBlock; block += 32) {
    const size_t smem = size_t(block) * per_thread * sizeof(int);
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reverse_chunks, block, smem) !=
        cudaSuccess)
      continue;
    const long long resident = static_cast<long long>(blocks) * block;
    if (resident >= most_threads) {
      most_threads = resident;
      best.block = block;
      best.smem = smem;
    }
  }
  const int chunk = best.block * per_thread;
  best.grid = chunk > 0 ? (n + chunk - 1) / chunk : 0;
  return best;
}

int main() {
  const int n = 50000, per_thread = 8;
  std::vector<int> in(n);
  std::mt19937 rng(13);
  for (int& x : in) x = int(rng() % 1000);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const Launch l = choose_launch(n, per_thread);
  printf("grid %d x block %d, %zu bytes of shared memory per block\n", l.grid, l.block, l.smem);
  // Above 48 KB a block's dynamic shared memory must be asked for.
  cudaFuncSetAttribute(reverse_chunks, cudaFuncAttributeMaxDynamicSharedMemorySize, int(l.smem));
  reverse_chunks<<<l.grid, l.block, l.smem>>>(d_in, d_out, n, per_thread);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("reverse_chunks: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  const int chunk = l.block * per_thread;
  int wrong = chunk > 0 ? 0 : n;
  for (int i = 0; chunk > 0 && i < n; ++i) {
    const int first = i / chunk * chunk, count = std::min(chunk, n - first);
    if (out[i] != in[first + count - 1 - (i - first)]) ++wrong;
  }
  printf("%d of %d elements right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_in);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
