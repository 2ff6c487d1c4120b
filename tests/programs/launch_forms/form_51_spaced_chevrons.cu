// kernels: fill, scale<float>, fill
// Launches whose chevrons an editor's formatter wrote apart, `k << <grid, block >> > (args)`, as
// programs written in Visual Studio often have them; nvcc reads them as <<< and >>>. Elsewhere in
// the file the same characters are no launch: a `>> >` closing nested template arguments, an
// `operator<< <>` naming a template, and a string that prints them.
#include <cstdio>
#include <ostream>
#include <iostream>
#include <vector>

template <typename T> struct Box;
template <typename T> std::ostream &operator<<(std::ostream &os, const Box<T> &b);
template <typename T> struct Box {
  T value;
  friend std::ostream &operator<< <>(std::ostream &os, const Box<T> &b);
};
template <typename T> std::ostream &operator<<(std::ostream &os, const Box<T> &b) { return os << b.value; }

__global__ void fill(int *out, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + i;
}

// Grid-stride: any grid covers all n.
template <typename T>
__global__ void scale(T *data, T factor, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    data[i] = data[i] * factor;
}

int main() {
  const int n = 100;
  int *d_ints;
  float *d_floats;
  cudaMalloc(&d_ints, n * sizeof(int));
  cudaMalloc(&d_floats, n * sizeof(float));
  std::vector<std::vector<std::vector<float>> > cube(1, std::vector<std::vector<float>>(1, std::vector<float>(n, 1.5f)));
  cudaMemcpy(d_floats, cube[0][0].data(), n * sizeof(float), cudaMemcpyHostToDevice);
  fill << <(n + 31) / 32, 32 >> > (d_ints, n, 7);
  scale<float> << < 1, 64 >> > (d_floats, 2.0f, n);
  int ints[n];
  float floats[n];
  cudaMemcpy(ints, d_ints, sizeof ints, cudaMemcpyDeviceToHost);
  cudaMemcpy(floats, d_floats, sizeof floats, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += (ints[i] != 7 + i) + (floats[i] != 3.0f);
  fill<<<1, 32 >> >(d_ints, 1, -1);
  cudaMemcpy(ints, d_ints, sizeof(int), cudaMemcpyDeviceToHost);
  bad += ints[0] != -1;
  Box<int> box{bad};
  std::cout << "<< < is only text here >> > " << box << " wrong" << std::endl;
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
