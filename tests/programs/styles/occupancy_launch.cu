// run: -I common
// expect: Occupancy test PASSED
// The occupancy calculator as programs call it before they launch: the block size that gives the
// most resident threads (cudaOccupancyMaxPotentialBlockSize), the grid that size needs, how many
// such blocks fit on one multiprocessor, and the occupancy that makes; then the launch itself,
// whose output is checked, and a second launch sized for the device with a grid-stride loop.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cstdio>

__global__ void MyKernel(int *array, int arrayCount) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < arrayCount) array[idx] *= array[idx];
}

__global__ void strided_square(int *array, int arrayCount) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < arrayCount; i += blockDim.x * gridDim.x)
    array[i] = array[i] * array[i];
}

int main(int argc, char **argv) {
  int dev = findCudaDevice(argc, (const char **)argv);
  const int count = 3000;
  int *h = new int[count];
  for (int i = 0; i < count; i++) h[i] = i % 100;
  int *d;
  checkCudaErrors(cudaMalloc(&d, count * sizeof(int)));
  checkCudaErrors(cudaMemcpy(d, h, count * sizeof(int), cudaMemcpyHostToDevice));

  int blockSize, minGridSize;
  checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, MyKernel, 0, count));
  int gridSize = (count + blockSize - 1) / blockSize;
  int maxActiveBlocks;
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxActiveBlocks, MyKernel, blockSize, 0));
  cudaDeviceProp props;
  checkCudaErrors(cudaGetDeviceProperties(&props, dev));
  float occupancy = (maxActiveBlocks * blockSize / props.warpSize) /
                    (float)(props.maxThreadsPerMultiProcessor / props.warpSize);
  printf("Suggested block size %d, minimum grid %d, grid %d\n", blockSize, minGridSize, gridSize);
  printf("Launched blocks of size %d. Theoretical occupancy: %f\n", blockSize, occupancy);
  MyKernel<<<gridSize, blockSize>>>(d, count);
  getLastCudaError("MyKernel failed");

  int numSMs, perSM;
  checkCudaErrors(cudaDeviceGetAttribute(&numSMs, cudaDevAttrMultiProcessorCount, dev));
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, strided_square, 128, 0));
  int grid = numSMs * perSM < 4 ? numSMs * perSM : 4;  // a few blocks: the loop does the rest
  strided_square<<<grid, 128>>>(d, count);
  getLastCudaError("strided_square failed");

  checkCudaErrors(cudaMemcpy(h, d, count * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = blockSize > 0 && blockSize <= props.maxThreadsPerBlock && blockSize % props.warpSize == 0 &&
            occupancy > 0.0f && occupancy <= 1.0f;
  for (int i = 0; i < count; i++) {
    long long v = i % 100;
    if (h[i] != v * v * v * v) {
      printf("element %d is %d, expected %lld\n", i, h[i], v * v * v * v);
      ok = false;
      break;
    }
  }
  cudaFree(d);
  delete[] h;
  printf("Occupancy test %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
