// Memory from cudaMallocManaged reads as zeros until something writes it, as the driver's fresh
// pages do on a GPU: a flag a kernel only ever sets starts false, and counters nobody touched
// are 0, as programs (NVIDIA's graphMemoryNodes among them) count on.
#include <cstdio>

__global__ void flag_negatives(const int* values, int n, bool* found) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] < 0) *found = true;
}

// Allocated through a template, as course code often wraps it: the same memory either way.
template <class T>
void managed(T*& p, size_t count) {
  cudaMallocManaged(&p, count * sizeof(T));
}

int main() {
  const int n = 256;
  int* values = nullptr;
  bool* found = nullptr;
  unsigned* counts = nullptr;
  cudaMallocManaged(&values, n * sizeof(int));
  cudaMallocManaged(&found, sizeof(bool));
  managed(counts, 64);
  for (int i = 0; i < n; ++i) values[i] = i;  // none negative: the flag must stay as it began
  flag_negatives<<<2, 128>>>(values, n, found);
  const cudaError_t e = cudaDeviceSynchronize();
  int nonzero = 0;
  for (int i = 0; i < 64; ++i) nonzero += counts[i] != 0;
  const bool ok = e == cudaSuccess && !*found && nonzero == 0;
  printf("found %d, %d of 64 untouched counts not zero: %s\n", int(*found), nonzero,
         ok ? "PASSED" : "FAILED");
  cudaFree(values);
  cudaFree(found);
  cudaFree(counts);
  return ok ? 0 : 1;
}
