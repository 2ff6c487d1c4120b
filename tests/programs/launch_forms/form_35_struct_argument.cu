// kernels: apply_params
// A kernel taking a parameter struct by value (the launch-parameters style of larger codes).
#include <cstdio>

struct Params {
  const float* in;
  float* out;
  int n;
  float scale, bias;
};

__global__ void apply_params(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] = p.scale * p.in[i] + p.bias;
}

int main() {
  const int n = 64;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  Params p{};
  cudaMalloc((void**)&p.in, sizeof h);
  cudaMalloc((void**)&p.out, sizeof h);
  cudaMemcpy((void*)p.in, h, sizeof h, cudaMemcpyHostToDevice);
  p.n = n;
  p.scale = 2.0f;
  p.bias = -1.0f;
  apply_params<<<2, 32>>>(p);
  cudaMemcpy(h, p.out, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 2.0f * float(i) - 1.0f;
  cudaFree((void*)p.in);
  cudaFree(p.out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
