// expect: heat: PASSED
// A 2D heat-diffusion stencil in the style of course labs: a 2D grid of 16x16 blocks, a fixed
// hot boundary, two buffers swapped after every step on the host, cudaDeviceSynchronize between
// steps, and the host's own Jacobi iteration to compare against.
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#define CHECK(call)                                                               \
  {                                                                               \
    const cudaError_t error = call;                                               \
    if (error != cudaSuccess) {                                                   \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                               \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));          \
      return 1;                                                                   \
    }                                                                             \
  }

__global__ void heat_step(const float *in, float *out, int nx, int ny, float alpha) {
  int ix = threadIdx.x + blockIdx.x * blockDim.x;
  int iy = threadIdx.y + blockIdx.y * blockDim.y;
  if (ix >= nx || iy >= ny) return;
  int idx = iy * nx + ix;
  if (ix == 0 || iy == 0 || ix == nx - 1 || iy == ny - 1) {
    out[idx] = in[idx];
    return;
  }
  float lap = in[idx - 1] + in[idx + 1] + in[idx - nx] + in[idx + nx] - 4.0f * in[idx];
  out[idx] = in[idx] + alpha * lap;
}

int main() {
  const int nx = 40, ny = 30, steps = 20;
  const float alpha = 0.2f;
  std::vector<float> h(nx * ny, 0.0f);
  for (int ix = 0; ix < nx; ix++) h[ix] = 100.0f;  // the top edge is hot
  std::vector<float> ref = h, tmp(nx * ny);
  for (int s = 0; s < steps; s++) {
    for (int iy = 0; iy < ny; iy++)
      for (int ix = 0; ix < nx; ix++) {
        int i = iy * nx + ix;
        if (ix == 0 || iy == 0 || ix == nx - 1 || iy == ny - 1) tmp[i] = ref[i];
        else
          tmp[i] = ref[i] + alpha * (ref[i - 1] + ref[i + 1] + ref[i - nx] + ref[i + nx] - 4.0f * ref[i]);
      }
    std::swap(ref, tmp);
  }
  float *d_a, *d_b;
  CHECK(cudaMalloc((void **)&d_a, nx * ny * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_b, nx * ny * sizeof(float)));
  CHECK(cudaMemcpy(d_a, h.data(), nx * ny * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(16, 16);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  for (int s = 0; s < steps; s++) {
    heat_step<<<grid, block>>>(d_a, d_b, nx, ny, alpha);
    CHECK(cudaDeviceSynchronize());
    std::swap(d_a, d_b);
  }
  CHECK(cudaMemcpy(h.data(), d_a, nx * ny * sizeof(float), cudaMemcpyDeviceToHost));
  double maxdiff = 0;
  for (int i = 0; i < nx * ny; i++) maxdiff = fmax(maxdiff, fabs(h[i] - ref[i]));
  printf("grid (%d,%d) block (%d,%d), %d steps, max difference %g\n", grid.x, grid.y, block.x,
         block.y, steps, maxdiff);
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  printf("heat: %s\n", maxdiff < 1e-3 ? "PASSED" : "FAILED");
  return maxdiff < 1e-3 ? 0 : 1;
}
