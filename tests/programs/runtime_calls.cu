// The runtime calls teaching programs make around their kernels: device count, properties and
// attributes, pinned and managed memory, streams with async copies and memsets, events with
// elapsed time, occupancy queries and function attributes, cudaFuncSetAttribute for more dynamic
// shared memory, and error names and strings. The kernel sums pairs with cg::inclusive_scan.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) {                                                        \
      printf("%s:%d: %s (%s)\n", __FILE__, __LINE__, cudaGetErrorString(e_),        \
             cudaGetErrorName(e_));                                                 \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

__global__ void prefix_sums(const int* in, int* out) {
  extern __shared__ int staged[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  staged[block.thread_rank()] = in[blockIdx.x * blockDim.x + threadIdx.x];
  block.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = cg::inclusive_scan(tile, staged[block.thread_rank()]);
}

int main() {
  int count = 0, device = -1;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  int sms = 0, warp = 0, major = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  printf("%d device(s): %s, sm_%d%d, %d SMs\n", count, prop.name, prop.major, prop.minor, sms);
  int bad = count < 1 || sms != prop.multiProcessorCount || warp != 32 || major != prop.major;

  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, prefix_sums));
  CHECK(cudaFuncSetAttribute(prefix_sums, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  int blocks_per_sm = 0, min_grid = 0, best_block = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, prefix_sums, 256,
                                                      256 * sizeof(int)));
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, prefix_sums, 0, 0));
  bad += blocks_per_sm < 1 || best_block < 32 || min_grid < sms || attributes.maxThreadsPerBlock < 256;

  const int n = 512, threads = 256;
  int *h_in, *h_out, *d_in, *managed;
  CHECK(cudaMallocHost(&h_in, n * sizeof(int)));
  CHECK(cudaHostAlloc((void**)&h_out, n * sizeof(int), cudaHostAllocDefault));
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&managed, n * sizeof(int)));
  for (int i = 0; i < n; ++i) h_in[i] = i % 7;
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  CHECK(cudaMemsetAsync(managed, 0, n * sizeof(int), stream));
  CHECK(cudaMemcpyAsync(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice, stream));
  prefix_sums<<<n / threads, threads, threads * sizeof(int), stream>>>(d_in, managed);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(h_out, managed, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaStreamSynchronize(stream));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  for (int i = 0; i < n; ++i) {
    int expect = 0;
    for (int k = i & ~31; k <= i; ++k) expect += h_in[k];
    bad += h_out[i] != expect || managed[i] != expect;  // managed memory reads on the host
  }
  bad += ms < 0;
  // A bad call fails with its error, and the error is not sticky.
  bad += cudaSetDevice(count + 3) != cudaErrorInvalidDevice;
  bad += cudaGetLastError() != cudaErrorInvalidDevice || cudaGetLastError() != cudaSuccess;
  bad += std::strcmp(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation") != 0;
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFreeHost(h_in));
  CHECK(cudaFreeHost(h_out));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(managed));
  CHECK(cudaDeviceReset());
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
