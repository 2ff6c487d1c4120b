// run: main.cpp kernels.cu stencil.cu -- [N]
// expect: course PASSED
// Homework style: main.cpp owns the data and the CPU reference; the kernels are in kernels.cu
// and stencil.cu. An optional argument sets the length.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels.h"

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [N > 0]\n", argv[0]);
    return 2;
  }
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 17) * 0.25f;
    y[i] = float(n - i) * 0.5f;
  }
  float *d_x, *d_y, *d_smooth;
  check(cudaMalloc(&d_x, n * sizeof(float)), "cudaMalloc x");
  check(cudaMalloc(&d_y, n * sizeof(float)), "cudaMalloc y");
  check(cudaMalloc(&d_smooth, n * sizeof(float)), "cudaMalloc smooth");
  check(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice), "copy x");
  check(cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice), "copy y");

  const float a = 2.0f;
  launch_saxpy(a, d_x, d_y, n);
  check(cudaGetLastError(), "saxpy");
  launch_smooth(d_y, d_smooth, n);
  check(cudaGetLastError(), "smooth");
  check(cudaDeviceSynchronize(), "synchronize");

  std::vector<float> got(n);
  check(cudaMemcpy(got.data(), d_smooth, n * sizeof(float), cudaMemcpyDeviceToHost), "copy back");
  std::vector<float> want_y(n), want(n);
  for (int i = 0; i < n; ++i) want_y[i] = a * x[i] + y[i];
  for (int i = 0; i < n; ++i)
    want[i] = (want_y[std::max(i - 1, 0)] + want_y[i] + want_y[std::min(i + 1, n - 1)]) / 3.0f;
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (std::fabs(got[i] - want[i]) > 1e-4f * std::max(1.0f, std::fabs(want[i]))) {
      if (wrong++ < 3) std::printf("out[%d] = %f, expected %f\n", i, got[i], want[i]);
    }
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_smooth);
  std::printf("%d values, %d wrong\n", n, wrong);
  std::printf("course %s\n", wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
