// run: -rdc=true main.cu springs.cu
// expect: springs PASSED
// Separate compilation: the kernel here calls device functions defined in springs.cu, reads
// its __constant__ parameters, and counts into a __device__ variable defined here; the host
// code sets and reads both through cudaMemcpyToSymbol / cudaMemcpyFromSymbol, and launches
// springs.cu's kernel through its declaration.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "springs.cuh"

__device__ unsigned int d_steps_taken = 0;

__global__ void simulate(float* x, float* v, int n, int steps) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i], vi = v[i];
  for (int s = 0; s < steps; ++s) {
    vi += spring_force(xi, vi) * c_springs.dt;
    xi += vi * c_springs.dt;
    count_step();
  }
  x[i] = xi;
  v[i] = vi;
}

#define CUDA_OK(call)                                                                \
  if (cudaError_t e = (call); e != cudaSuccess) {                                    \
    std::printf("%s failed: %s\n", #call, cudaGetErrorString(e));                    \
    return 1;                                                                        \
  }

int main() {
  const int n = 200, steps = 25;
  const SpringParams params = {4.0f, 0.5f, 0.01f};
  std::vector<float> x(n), v(n, 0.0f);
  for (int i = 0; i < n; ++i) x[i] = 1.0f + 0.01f * float(i);
  float *d_x, *d_v;
  CUDA_OK(cudaMalloc((void**)&d_x, n * sizeof(float)));
  CUDA_OK(cudaMalloc((void**)&d_v, n * sizeof(float)));
  CUDA_OK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_v, v.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpyToSymbol(c_springs, &params, sizeof params));
  // The run in two launches, as a long one is split to look at it between: each counts its
  // steps through springs.cu's count_step.
  simulate<<<(n + 63) / 64, 64>>>(d_x, d_v, n, steps / 2);
  CUDA_OK(cudaGetLastError());
  simulate<<<(n + 63) / 64, 64>>>(d_x, d_v, n, steps - steps / 2);
  CUDA_OK(cudaGetLastError());
  const float shift = 0.5f;
  recenter<<<(n + 127) / 128, 128>>>(d_x, shift, n);
  CUDA_OK(cudaGetLastError());
  std::vector<float> got(n);
  unsigned int taken = 0;
  CUDA_OK(cudaMemcpy(got.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpyFromSymbol(&taken, d_steps_taken, sizeof taken));

  // The CPU's run of the same steps, in the same order of operations.
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float xi = x[i], vi = v[i];
    for (int s = 0; s < steps; ++s) {
      vi += (-params.stiffness * xi - params.damping * vi) * params.dt;
      xi += vi * params.dt;
    }
    xi -= shift;
    if (std::fabs(got[i] - xi) > 1e-5f && wrong++ < 3)
      std::printf("x[%d] = %f, expected %f\n", i, got[i], xi);
  }
  const bool counted = taken == unsigned(n * steps);
  std::printf("%u steps counted (expected %d), %d positions wrong\n", taken, n * steps, wrong);
  cudaFree(d_x);
  cudaFree(d_v);
  std::printf("springs %s\n", wrong == 0 && counted ? "PASSED" : "FAILED");
  return wrong == 0 && counted ? 0 : 1;
}
