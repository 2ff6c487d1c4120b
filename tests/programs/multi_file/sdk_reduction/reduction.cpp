// run: reduction.cpp reduction_kernel.cu
// expect: reduction PASSED
// A sample's host program: it allocates, fills and checks; the kernels live in
// reduction_kernel.cu behind reduce_partials (reduction.h).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "reduction.h"

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t status_ = (call);                                               \
    if (status_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
                   cudaGetErrorString(status_));                                \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

template <class T>
bool check_sum(const char* label, const std::vector<T>& host, unsigned threads, unsigned blocks,
               T reference, T tolerance) {
  const unsigned n = unsigned(host.size());
  T* d_in = nullptr;
  T* d_partials = nullptr;
  CHECK(cudaMalloc((void**)&d_in, n * sizeof(T)));
  CHECK(cudaMalloc((void**)&d_partials, blocks * sizeof(T)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  reduce_partials<T>(n, threads, blocks, d_in, d_partials);
  CHECK(cudaGetLastError());
  std::vector<T> partials(blocks);
  CHECK(cudaMemcpy(partials.data(), d_partials, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  T gpu = T(0);
  for (T p : partials) gpu += p;
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partials));
  const bool ok = std::fabs(double(gpu - reference)) <= double(tolerance);
  std::printf("%s: %u values, %u blocks of %u: %.3f (reference %.3f) %s\n", label, n, blocks,
              threads, double(gpu), double(reference), ok ? "ok" : "WRONG");
  return ok;
}

int main() {
  const unsigned n = 5000;
  std::srand(7);
  std::vector<int> ints(n);
  long long int_reference = 0;
  for (int& v : ints) {
    v = std::rand() % 100 - 50;
    int_reference += v;
  }
  std::vector<double> reals(n);
  double real_reference = 0;
  for (double& v : reals) {
    v = (std::rand() % 1000) / 64.0;
    real_reference += v;
  }
  bool ok = check_sum<int>("int", ints, 128, 8, int(int_reference), 0);
  ok = check_sum<double>("double", reals, 64, 6, real_reference, 1e-9) && ok;
  std::printf("reduction %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
