// expect: Arrays match.
// Two matrices added with a 2D grid of 2D blocks, as the chapters on thread organisation in a
// professional CUDA book do it: initialData with rand, a host sumMatrixOnHost, the device's
// sumMatrixOnGPU2D, a CHECK macro, and checkResult with an epsilon.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                          \
  {                                                                          \
    const cudaError_t error = call;                                          \
    if (error != cudaSuccess) {                                              \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                          \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));     \
      exit(1);                                                               \
    }                                                                        \
  }

void initialData(float *ip, int size) {
  for (int i = 0; i < size; i++) ip[i] = (float)(rand() & 0xFF) / 10.0f;
}

void sumMatrixOnHost(float *A, float *B, float *C, const int nx, const int ny) {
  float *ia = A, *ib = B, *ic = C;
  for (int iy = 0; iy < ny; iy++) {
    for (int ix = 0; ix < nx; ix++) ic[ix] = ia[ix] + ib[ix];
    ia += nx;
    ib += nx;
    ic += nx;
  }
}

bool checkResult(float *hostRef, float *gpuRef, const int N) {
  double epsilon = 1.0E-8;
  for (int i = 0; i < N; i++) {
    if (fabs(hostRef[i] - gpuRef[i]) > epsilon) {
      printf("Arrays do not match!\nhost %5.2f gpu %5.2f at current %d\n", hostRef[i], gpuRef[i], i);
      return false;
    }
  }
  printf("Arrays match.\n\n");
  return true;
}

__global__ void sumMatrixOnGPU2D(float *MatA, float *MatB, float *MatC, int nx, int ny) {
  unsigned int ix = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned int iy = threadIdx.y + blockIdx.y * blockDim.y;
  unsigned int idx = iy * nx + ix;
  if (ix < nx && iy < ny) MatC[idx] = MatA[idx] + MatB[idx];
}

int main(int argc, char **argv) {
  int dev = 0;
  cudaDeviceProp deviceProp;
  CHECK(cudaGetDeviceProperties(&deviceProp, dev));
  printf("%s Using Device %d: %s\n", argv[0], dev, deviceProp.name);
  CHECK(cudaSetDevice(dev));
  int nx = 1 << 6, ny = 1 << 6;
  int nxy = nx * ny;
  int nBytes = nxy * sizeof(float);
  float *h_A = (float *)malloc(nBytes), *h_B = (float *)malloc(nBytes);
  float *hostRef = (float *)malloc(nBytes), *gpuRef = (float *)malloc(nBytes);
  initialData(h_A, nxy);
  initialData(h_B, nxy);
  memset(hostRef, 0, nBytes);
  memset(gpuRef, 0, nBytes);
  sumMatrixOnHost(h_A, h_B, hostRef, nx, ny);
  float *d_MatA, *d_MatB, *d_MatC;
  CHECK(cudaMalloc((void **)&d_MatA, nBytes));
  CHECK(cudaMalloc((void **)&d_MatB, nBytes));
  CHECK(cudaMalloc((void **)&d_MatC, nBytes));
  CHECK(cudaMemcpy(d_MatA, h_A, nBytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_MatB, h_B, nBytes, cudaMemcpyHostToDevice));
  int dimx = 32, dimy = 16;
  dim3 block(dimx, dimy);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  sumMatrixOnGPU2D<<<grid, block>>>(d_MatA, d_MatB, d_MatC, nx, ny);
  CHECK(cudaDeviceSynchronize());
  printf("sumMatrixOnGPU2D <<<(%d,%d), (%d,%d)>>>\n", grid.x, grid.y, block.x, block.y);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(gpuRef, d_MatC, nBytes, cudaMemcpyDeviceToHost));
  bool ok = checkResult(hostRef, gpuRef, nxy);
  CHECK(cudaFree(d_MatA));
  CHECK(cudaFree(d_MatB));
  CHECK(cudaFree(d_MatC));
  free(h_A);
  free(h_B);
  free(hostRef);
  free(gpuRef);
  CHECK(cudaDeviceReset());
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
