// expect: reduce: PASSED
// The warp-shuffle reduction of a well-known blog post: warpReduceSum with __shfl_down_sync, a
// blockReduceSum that parks one value per warp in shared memory, a grid-stride loop that lets a
// fixed grid cover any n, and the blocks' sums finished by atomicAdd or by a second launch.
#include <cstdio>
#include <vector>

__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__inline__ __device__ int blockReduceSum(int val) {
  static __shared__ int shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warpReduceSum(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
  if (wid == 0) val = warpReduceSum(val);
  return val;
}

__global__ void deviceReduceKernel(const int *in, int *out, int N) {
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

__global__ void deviceReduceWarpAtomicKernel(const int *in, int *out, int N) {
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) sum += in[i];
  sum = warpReduceSum(sum);
  if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, sum);
}

int main() {
  const int N = 100000, threads = 256, blocks = 12;
  std::vector<int> h(N);
  long long want = 0;
  for (int i = 0; i < N; i++) want += h[i] = (i * 31) % 17 - 8;
  int *in, *out, *partial;
  cudaMalloc(&in, N * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMalloc(&partial, blocks * sizeof(int));
  cudaMemcpy(in, h.data(), N * sizeof(int), cudaMemcpyHostToDevice);

  deviceReduceKernel<<<blocks, threads>>>(in, partial, N);
  deviceReduceKernel<<<1, 1024>>>(partial, out, blocks);
  int twoPass = 0;
  cudaMemcpy(&twoPass, out, sizeof(int), cudaMemcpyDeviceToHost);

  cudaMemset(out, 0, sizeof(int));
  deviceReduceWarpAtomicKernel<<<blocks, threads>>>(in, out, N);
  int atomics = 0;
  cudaMemcpy(&atomics, out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaGetLastError();
  printf("sum %lld: two passes %d, warp atomics %d (%s)\n", want, twoPass, atomics, cudaGetErrorString(err));
  const bool ok = err == cudaSuccess && twoPass == want && atomics == want;
  cudaFree(in);
  cudaFree(out);
  cudaFree(partial);
  printf("reduce: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
