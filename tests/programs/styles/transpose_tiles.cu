// run: -I common
// expect: Test passed
// Matrix transpose in the style of the well-known coalescing walkthrough: a square tile with
// fewer rows of threads than rows of the tile (each thread moves TILE_DIM / BLOCK_ROWS elements),
// a naive kernel, a shared-memory kernel, and one whose tile has a padding column against bank
// conflicts; each result is compared with the host's transpose.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cstdio>
#include <cstdlib>

const int TILE_DIM = 32;
const int BLOCK_ROWS = 8;

__global__ void transposeNaive(float *odata, const float *idata) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[x * width + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transposeCoalesced(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

static bool matches(const float *gold, const float *got, int n, const char *name) {
  for (int i = 0; i < n; i++) {
    if (gold[i] != got[i]) {
      printf("%s: mismatch at %d: %f vs %f\n", name, i, got[i], gold[i]);
      return false;
    }
  }
  printf("%-24s ok\n", name);
  return true;
}

int main(int argc, char **argv) {
  const int nx = 64, ny = 64;
  const int mem_size = nx * ny * sizeof(float);
  dim3 dimGrid(nx / TILE_DIM, ny / TILE_DIM, 1);
  dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);
  findCudaDevice(argc, (const char **)argv);

  float *h_idata = (float *)malloc(mem_size);
  float *h_tdata = (float *)malloc(mem_size);
  float *gold = (float *)malloc(mem_size);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) h_idata[j * nx + i] = j * nx + i;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) gold[j * nx + i] = h_idata[i * nx + j];

  float *d_idata, *d_tdata;
  checkCudaErrors(cudaMalloc(&d_idata, mem_size));
  checkCudaErrors(cudaMalloc(&d_tdata, mem_size));
  checkCudaErrors(cudaMemcpy(d_idata, h_idata, mem_size, cudaMemcpyHostToDevice));

  bool ok = true;
  checkCudaErrors(cudaMemset(d_tdata, 0, mem_size));
  transposeNaive<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
  checkCudaErrors(cudaMemcpy(h_tdata, d_tdata, mem_size, cudaMemcpyDeviceToHost));
  ok &= matches(gold, h_tdata, nx * ny, "naive transpose");

  checkCudaErrors(cudaMemset(d_tdata, 0, mem_size));
  transposeCoalesced<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
  checkCudaErrors(cudaMemcpy(h_tdata, d_tdata, mem_size, cudaMemcpyDeviceToHost));
  ok &= matches(gold, h_tdata, nx * ny, "coalesced transpose");

  checkCudaErrors(cudaMemset(d_tdata, 0, mem_size));
  transposeNoBankConflicts<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
  checkCudaErrors(cudaMemcpy(h_tdata, d_tdata, mem_size, cudaMemcpyDeviceToHost));
  ok &= matches(gold, h_tdata, nx * ny, "conflict-free transpose");

  checkCudaErrors(cudaFree(d_tdata));
  checkCudaErrors(cudaFree(d_idata));
  free(h_idata);
  free(h_tdata);
  free(gold);
  printf("%s\n", ok ? "Test passed" : "Test failed");
  return ok ? 0 : 1;
}
