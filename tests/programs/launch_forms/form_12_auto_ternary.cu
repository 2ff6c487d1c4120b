// kernels: pick, pick
// A kernel template chosen by a conditional into an `auto` variable, then launched.
#include <cstdio>

template <bool kNegate>
__global__ void copy_sign(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = kNegate ? -in[i] : in[i];
}

int main(int argc, char**) {
  const int n = 33;
  int h[n], r[n];
  for (int i = 0; i < n; ++i) h[i] = i + 1;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  int bad = 0;
  for (bool negate : {argc > 100, argc < 100}) {
    auto pick = negate ? copy_sign<true> : copy_sign<false>;
    pick<<<1, 64>>>(in, out, n);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) bad += r[i] != (negate ? -(i + 1) : i + 1);
  }
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
