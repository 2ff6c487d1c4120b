// What springs.cu and main.cu share under separate compilation (nvcc -rdc=true): each is
// defined in one file and declared here for the other.
#pragma once

struct SpringParams {
  float stiffness;  // force per unit of stretch
  float damping;    // force per unit of speed
  float dt;         // time step
};

// springs.cu: the parameters every kernel reads, set by main.cu's host code.
extern __constant__ SpringParams c_springs;

// springs.cu: the force on a mass at `x` moving at `v`, and a count of the steps taken.
extern __device__ float spring_force(float x, float v);
extern __device__ void count_step();

// main.cu: the number of steps every thread has taken, together.
extern __device__ unsigned int d_steps_taken;

// springs.cu: each mass's position moved back to the origin by `shift`.
__global__ void recenter(float* x, float shift, int n);
