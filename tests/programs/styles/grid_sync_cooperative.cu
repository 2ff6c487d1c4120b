// run: -I common
// expect: gridSync PASSED
// nvcc: also without a GPU
// A grid-wide barrier through a cooperative launch, checked the way samples check it: the device
// must report cudaDevAttrCooperativeLaunch, the grid is sized from the occupancy calculator so all
// blocks are resident, the arguments go through a void* array, and this_grid().sync() separates a
// phase that writes per-block sums from one in which block 0 adds them up.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void sumTwoPhases(const int *in, int *partial, int *total, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int blockSum;
  if (block.thread_rank() == 0) blockSum = 0;
  block.sync();
  int mine = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) mine += in[i];
  atomicAdd(&blockSum, mine);
  block.sync();
  if (block.thread_rank() == 0) partial[blockIdx.x] = blockSum;
  grid.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (int b = 0; b < gridDim.x; b++) s += partial[b];
    *total = s;
  }
}

int main(int argc, char **argv) {
  int dev = findCudaDevice(argc, (const char **)argv);
  int supportsCoopLaunch = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&supportsCoopLaunch, cudaDevAttrCooperativeLaunch, dev));
  if (!supportsCoopLaunch) {
    printf("Selected GPU (%d) does not support Cooperative Kernel Launch, Waiving the run\n", dev);
    exit(EXIT_WAIVED);
  }
  int numBlocksPerSm = 0, numSms = 0, threads = 128;
  checkCudaErrors(cudaDeviceGetAttribute(&numSms, cudaDevAttrMultiProcessorCount, dev));
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocksPerSm, sumTwoPhases, threads, 0));
  int blocks = numSms * numBlocksPerSm < 6 ? numSms * numBlocksPerSm : 6;
  int n = 5000;
  std::vector<int> h(n);
  int want = 0;
  for (int i = 0; i < n; i++) want += h[i] = i % 10;
  int *d_in, *d_partial, *d_total;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_partial, blocks * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_total, sizeof(int)));
  checkCudaErrors(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  void *kernelArgs[] = {(void *)&d_in, (void *)&d_partial, (void *)&d_total, (void *)&n};
  dim3 dimGrid(blocks, 1, 1), dimBlock(threads, 1, 1);
  checkCudaErrors(cudaLaunchCooperativeKernel((void *)sumTwoPhases, dimGrid, dimBlock, kernelArgs, 0, 0));
  checkCudaErrors(cudaDeviceSynchronize());
  int total = 0;
  checkCudaErrors(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  printf("%d blocks of %d: total %d, expected %d\n", blocks, threads, total, want);
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_partial));
  checkCudaErrors(cudaFree(d_total));
  printf("gridSync %s\n", total == want ? "PASSED" : "FAILED");
  return total == want ? EXIT_SUCCESS : EXIT_FAILURE;
}
