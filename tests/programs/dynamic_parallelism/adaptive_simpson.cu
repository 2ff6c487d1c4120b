// Adaptive Simpson integration that refines itself: each launch has two threads, one per half of
// its interval; a thread whose half is not yet accurate launches a grid for that half (into its
// block's stream), the others add their part to the total. The integral of Runge's function over
// [-1, 1] is (2/5) atan(5); the host also runs the same refinement and compares both the value
// and the number of launches.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

constexpr int kMaxDepth = 12;

__host__ __device__ double runge(double x) { return 1.0 / (1.0 + 25.0 * x * x); }

__host__ __device__ double simpson(double a, double b, double fa, double fm, double fb) {
  return (b - a) / 6.0 * (fa + 4.0 * fm + fb);
}

// Half `side` of [a, b] (whose ends and middle are evaluated): its refined value, or false when
// it must be split further.
__host__ __device__ bool settle(double a, double b, double fa, double fm, double fb, int side,
                                double tol, int depth, double* value, double* lo, double* hi,
                                double* flo, double* fmid, double* fhi) {
  *lo = side == 0 ? a : (a + b) / 2;
  *hi = side == 0 ? (a + b) / 2 : b;
  *flo = side == 0 ? fa : fm;
  *fhi = side == 0 ? fm : fb;
  const double mid = (*lo + *hi) / 2;
  *fmid = runge(mid);
  const double whole = simpson(*lo, *hi, *flo, *fmid, *fhi);
  const double left = simpson(*lo, mid, *flo, runge((*lo + mid) / 2), *fmid);
  const double right = simpson(mid, *hi, *fmid, runge((mid + *hi) / 2), *fhi);
  *value = left + right + (left + right - whole) / 15.0;
  return depth >= kMaxDepth || std::fabs(left + right - whole) <= 15.0 * tol;
}

__global__ void refine(double a, double b, double fa, double fm, double fb, double tol, int depth,
                       double* total, int* launched) {
  double value, lo, hi, flo, fmid, fhi;
  if (settle(a, b, fa, fm, fb, threadIdx.x, tol, depth, &value, &lo, &hi, &flo, &fmid, &fhi)) {
    atomicAdd(total, value);
    return;
  }
  refine<<<1, 2>>>(lo, hi, flo, fmid, fhi, tol / 2, depth + 1, total, launched);
  if (cudaGetLastError() == cudaSuccess) atomicAdd(launched, 1);
}

// The same on the CPU, returning the launches the kernels should make.
int refine_on_cpu(double a, double b, double fa, double fm, double fb, double tol, int depth,
                  double* total) {
  int launches = 0;
  for (int side = 0; side < 2; ++side) {
    double value, lo, hi, flo, fmid, fhi;
    if (settle(a, b, fa, fm, fb, side, tol, depth, &value, &lo, &hi, &flo, &fmid, &fhi))
      *total += value;
    else
      launches += 1 + refine_on_cpu(lo, hi, flo, fmid, fhi, tol / 2, depth + 1, total);
  }
  return launches;
}

int main() {
  const double a = -1.0, b = 1.0, tol = 1e-9;
  double* d_total = nullptr;
  int* d_launched = nullptr;
  cudaMalloc(&d_total, sizeof(double));
  cudaMalloc(&d_launched, sizeof(int));
  cudaMemset(d_total, 0, sizeof(double));
  cudaMemset(d_launched, 0, sizeof(int));
  refine<<<1, 2>>>(a, b, runge(a), runge(0.0), runge(b), tol / 2, 1, d_total, d_launched);
  const cudaError_t e = cudaDeviceSynchronize();
  double total = 0;
  int launched = 0;
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  cudaMemcpy(&launched, d_launched, sizeof launched, cudaMemcpyDeviceToHost);
  double on_cpu = 0;
  const int expected = refine_on_cpu(a, b, runge(a), runge(0.0), runge(b), tol / 2, 1, &on_cpu);
  const double exact = 0.4 * std::atan(5.0);
  const bool ok = e == cudaSuccess && launched == expected &&
                  std::fabs(total - on_cpu) <= 1e-12 && std::fabs(total - exact) <= 1e-8;
  std::printf("integral %.12f (exact %.12f, CPU %.12f) with %d launches from kernels (expected "
              "%d): %s\n",
              total, exact, on_cpu, launched, expected, ok ? "PASSED" : "FAILED");
  cudaFree(d_total);
  cudaFree(d_launched);
  return ok ? 0 : 1;
}
