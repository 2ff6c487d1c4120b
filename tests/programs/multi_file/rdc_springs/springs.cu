#include <cuda_runtime.h>

#include "springs.cuh"

__constant__ SpringParams c_springs;

__device__ float spring_force(float x, float v) {
  return -c_springs.stiffness * x - c_springs.damping * v;
}

__device__ void count_step() { atomicAdd(&d_steps_taken, 1u); }

__global__ void recenter(float* x, float shift, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] -= shift;
}
