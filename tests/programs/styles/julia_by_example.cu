// expect: julia set PASSED
// The Julia-set kernel of an introductory book: a small complex-number struct with __device__
// members, one block per pixel of a 2D grid of blocks, a colour written per pixel; the host
// computes the same set, and every pixel must match.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define DIM 64

struct cuComplex {
  float r;
  float i;
  __host__ __device__ cuComplex(float a, float b) : r(a), i(b) {}
  __host__ __device__ float magnitude2(void) { return r * r + i * i; }
  __host__ __device__ cuComplex operator*(const cuComplex &a) {
    return cuComplex(r * a.r - i * a.i, i * a.r + r * a.i);
  }
  __host__ __device__ cuComplex operator+(const cuComplex &a) { return cuComplex(r + a.r, i + a.i); }
};

__host__ __device__ int julia(int x, int y) {
  const float scale = 1.5;
  float jx = scale * (float)(DIM / 2 - x) / (DIM / 2);
  float jy = scale * (float)(DIM / 2 - y) / (DIM / 2);
  cuComplex c(-0.8, 0.156);
  cuComplex a(jx, jy);
  for (int i = 0; i < 200; i++) {
    a = a * a + c;
    if (a.magnitude2() > 1000) return 0;
  }
  return 1;
}

__global__ void kernel(unsigned char *ptr) {
  int x = blockIdx.x;
  int y = blockIdx.y;
  int offset = x + y * gridDim.x;
  int juliaValue = julia(x, y);
  ptr[offset * 4 + 0] = 255 * juliaValue;
  ptr[offset * 4 + 1] = 0;
  ptr[offset * 4 + 2] = 0;
  ptr[offset * 4 + 3] = 255;
}

int main(void) {
  std::vector<unsigned char> bitmap(DIM * DIM * 4);
  unsigned char *dev_bitmap;
  if (cudaMalloc((void **)&dev_bitmap, bitmap.size()) != cudaSuccess) return 1;
  dim3 grid(DIM, DIM);
  kernel<<<grid, 1>>>(dev_bitmap);
  cudaMemcpy(bitmap.data(), dev_bitmap, bitmap.size(), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaGetLastError();
  int wrong = 0, inside = 0;
  for (int y = 0; y < DIM; y++)
    for (int x = 0; x < DIM; x++) {
      const int v = julia(x, y);
      inside += v;
      if (bitmap[(x + y * DIM) * 4] != 255 * v || bitmap[(x + y * DIM) * 4 + 3] != 255) wrong++;
    }
  cudaFree(dev_bitmap);
  printf("%d pixels in the set, %d wrong, %s\n", inside, wrong, cudaGetErrorString(err));
  const bool ok = err == cudaSuccess && wrong == 0 && inside > 0;
  printf("julia set %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
