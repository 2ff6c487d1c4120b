// kernels: fill_2d
// A 2D grid of 2D blocks given as dim3 variables, the image-processing form.
#include <cstdio>

__global__ void fill_2d(int* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[y * width + x] = 100 * y + x;
}

int main() {
  const int w = 20, h = 12;
  int* d;
  cudaMalloc(&d, w * h * sizeof(int));
  dim3 block(8, 4);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  fill_2d<<<grid, block>>>(d, w, h);
  int out[w * h];
  cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) bad += out[y * w + x] != 100 * y + x;
  cudaFree(d);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
