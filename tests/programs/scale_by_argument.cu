// Scales an array by the factor given on the command line (default 2), one element per thread,
// with a grid-stride loop over a grid that does not cover the array.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void scale(float* x, int n, float factor) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] *= factor;
}

int main(int argc, char** argv) {
  const int factor = argc > 1 ? std::atoi(argv[1]) : 2;
  const int n = 1000;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float* d_x = nullptr;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMemcpy(d_x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<3, 96>>>(d_x, n, float(factor));
  cudaMemcpy(h.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != float(i) * factor;
  cudaFree(d_x);
  printf("scaled by %d: %s\n", factor, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
