// run: -I common
// expect: convolution PASSED
// A 1D convolution whose mask sits in constant memory (copied with cudaMemcpyToSymbol) and whose
// input tile, with a halo on each side, is staged in shared memory: the layout of textbook
// chapters on constant memory and tiling. The host convolves the same signal.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define MASK_WIDTH 7
#define TILE_SIZE 128

__constant__ float M[MASK_WIDTH];

__global__ void convolution_1D_tiled(const float *N, float *P, int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float N_ds[TILE_SIZE + MASK_WIDTH - 1];
  int n = MASK_WIDTH / 2;
  int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x >= blockDim.x - n)
    N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0 : N[halo_index_left];
  N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0;
  int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x < n)
    N_ds[n + blockDim.x + threadIdx.x] = (halo_index_right >= Width) ? 0 : N[halo_index_right];
  __syncthreads();
  float Pvalue = 0;
  for (int j = 0; j < MASK_WIDTH; j++) Pvalue += N_ds[threadIdx.x + j] * M[j];
  if (i < Width) P[i] = Pvalue;
}

int main(int argc, char **argv) {
  findCudaDevice(argc, (const char **)argv);
  const int width = 1000;
  std::vector<float> h_N(width), h_P(width), ref(width);
  float h_M[MASK_WIDTH] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
  for (int i = 0; i < width; i++) h_N[i] = float((i * 37) % 101) / 10.0f;
  for (int i = 0; i < width; i++) {
    float s = 0;
    for (int j = 0; j < MASK_WIDTH; j++) {
      int k = i - MASK_WIDTH / 2 + j;
      if (k >= 0 && k < width) s += h_N[k] * h_M[j];
    }
    ref[i] = s;
  }
  float *d_N, *d_P;
  checkCudaErrors(cudaMalloc(&d_N, width * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_P, width * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_N, h_N.data(), width * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpyToSymbol(M, h_M, sizeof(h_M)));
  convolution_1D_tiled<<<(width + TILE_SIZE - 1) / TILE_SIZE, TILE_SIZE>>>(d_N, d_P, width);
  getLastCudaError("convolution kernel failed");
  checkCudaErrors(cudaMemcpy(h_P.data(), d_P, width * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < width; i++)
    if (fabsf(h_P[i] - ref[i]) > 1e-4f) bad++;
  cudaFree(d_N);
  cudaFree(d_P);
  printf("%d of %d outputs differ\nconvolution %s\n", bad, width, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
