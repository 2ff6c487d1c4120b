// kernels: sum_pairs<Pair<int>>
// A kernel template whose argument is itself a template (`k<Pair<int>><<<...>>>`, where `>>`
// and `<<<` meet).
#include <cstdio>

template <typename T>
struct Pair {
  T first, second;
};

template <typename P>
__global__ void sum_pairs(const P* in, decltype(P::first)* out) {
  out[threadIdx.x] = in[threadIdx.x].first + in[threadIdx.x].second;
}

int main() {
  Pair<int> h[32];
  for (int i = 0; i < 32; ++i) h[i] = {i, 2 * i};
  Pair<int>* in;
  int* out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum_pairs<Pair<int>><<<1, 32>>>(in, out);
  int r[32];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) bad += r[i] != 3 * i;
  cudaFree(in);
  cudaFree(out);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
