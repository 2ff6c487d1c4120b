// expect: particles PASSED
// Array of structures against structure of arrays, the layout comparison of books on memory
// access: the same particle update (position += velocity * dt, a bounce at the walls) on an
// array of structs and on one array per field; both must agree with the host's update.
#include <cmath>
#include <cstdio>
#include <vector>

struct Particle {
  float x, y, vx, vy;
};

struct Particles {
  float *x, *y, *vx, *vy;
};

__host__ __device__ inline void step(float &x, float &y, float &vx, float &vy, float dt) {
  x += vx * dt;
  y += vy * dt;
  if (x < 0.0f || x > 1.0f) vx = -vx;
  if (y < 0.0f || y > 1.0f) vy = -vy;
}

__global__ void update_aos(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) step(p[i].x, p[i].y, p[i].vx, p[i].vy, dt);
}

__global__ void update_soa(Particles p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) step(p.x[i], p.y[i], p.vx[i], p.vy[i], dt);
}

int main() {
  const int n = 700, steps = 5, threads = 128, blocks = (n + threads - 1) / threads;
  const float dt = 0.05f;
  std::vector<Particle> host(n);
  for (int i = 0; i < n; i++)
    host[i] = {float(i % 10) / 10, float(i % 7) / 7, float(i % 5 - 2), float(i % 3 - 1)};
  std::vector<Particle> ref = host;
  for (int s = 0; s < steps; s++)
    for (Particle &q : ref) step(q.x, q.y, q.vx, q.vy, dt);

  Particle *d_aos;
  cudaMalloc(&d_aos, n * sizeof(Particle));
  cudaMemcpy(d_aos, host.data(), n * sizeof(Particle), cudaMemcpyHostToDevice);
  Particles soa;
  std::vector<float> fields[4];
  float **dst[4] = {&soa.x, &soa.y, &soa.vx, &soa.vy};
  for (int f = 0; f < 4; f++) {
    fields[f].resize(n);
    for (int i = 0; i < n; i++) fields[f][i] = (&host[i].x)[f];
    cudaMalloc(dst[f], n * sizeof(float));
    cudaMemcpy(*dst[f], fields[f].data(), n * sizeof(float), cudaMemcpyHostToDevice);
  }
  for (int s = 0; s < steps; s++) {
    update_aos<<<blocks, threads>>>(d_aos, n, dt);
    update_soa<<<blocks, threads>>>(soa, n, dt);
  }
  std::vector<Particle> got(n);
  cudaMemcpy(got.data(), d_aos, n * sizeof(Particle), cudaMemcpyDeviceToHost);
  for (int f = 0; f < 4; f++) cudaMemcpy(fields[f].data(), *dst[f], n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int f = 0; f < 4; f++) {
      const float want = (&ref[i].x)[f];
      bad += fabsf((&got[i].x)[f] - want) > 1e-5f || fabsf(fields[f][i] - want) > 1e-5f;
    }
  cudaFree(d_aos);
  for (int f = 0; f < 4; f++) cudaFree(*dst[f]);
  printf("%d values differ\nparticles %s\n", bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
