// A kernel that writes past the end of its allocation, as real programs do by mistake: the first
// launch writes its array exactly, a repeat with a shifted start (the bug) writes `past` elements
// beyond it. On a GPU those writes land in device memory nobody reads and the program runs on; so
// must it on the emulator, whose device memory lies apart from the host's heap: the host's frees
// and allocations after it still work. The overrun is the first argument, in elements (default:
// a few; more than the array's length writes only beyond it). Prints PASSED when the array holds
// what both launches wrote inside it.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void fill_from(int* out, int shift) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + shift] = i;  // no check against the array's end
}

int main(int argc, char** argv) {
  const int n = 1024;
  const int past = argc > 1 ? std::atoi(argv[1]) : 3;
  int* d_values = nullptr;
  cudaMalloc(&d_values, n * sizeof(int));
  fill_from<<<n / 64, 64>>>(d_values, 0);
  // The same kernel and shape: a repeat, which runs untraced, as a GPU would run it.
  fill_from<<<n / 64, 64>>>(d_values, past);
  cudaDeviceSynchronize();
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d_values, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_values);
  std::vector<std::vector<int>> later(64, std::vector<int>(1000, 7));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != (i < past ? i : i - past);
  for (const auto& v : later) bad += v[999] != 7;
  printf("wrote %d past the end of %d: %s\n", past, n, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
