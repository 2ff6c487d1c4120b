// run: -I common
// expect: curand monte carlo: PASSED
// Monte Carlo with cuRAND's device API as course homework and samples write it: one curandState
// per thread set up by curand_init(seed, thread id, 0) in its own kernel and kept in global memory
// between launches, a kernel that copies it to a local, draws curand_uniform pairs to count hits
// inside the quarter circle and stores it back, curand_normal draws for a mean and variance (each
// thread's sums stored for the host to add: the normals come through the device's logf and sincosf,
// which round their last bits otherwise than the host's, so no atomic carries them), and a
// Philox4_32_10 state drawing four at a time with curand_uniform4.
// Checks: the estimate of pi and the normal's moments within the error such sample sizes allow,
// every uniform draw in (0, 1], and the generator's own arithmetic: curand_init with an offset of
// k lands where k draws from offset 0 do, and skipahead does the same, for XORWOW and Philox.
#include <cstdio>
#include <cmath>
#include <curand_kernel.h>
#include <helper_cuda.h>

const int kThreads = 128, kBlocks = 4, kN = kThreads * kBlocks, kDraws = 64;

__global__ void setup_states(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void count_hits(curandState *states, unsigned int *hits, int *out_of_range) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int mine = 0;
  for (int i = 0; i < kDraws; i++) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    if (x <= 0.f || x > 1.f || y <= 0.f || y > 1.f) atomicAdd(out_of_range, 1);
    if (x * x + y * y <= 1.f) mine++;
  }
  atomicAdd(hits, mine);
  states[id] = local;
}

__global__ void normal_moments(curandState *states, double *sums, double *sums_sq) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  double s = 0, s2 = 0;
  for (int i = 0; i < kDraws; i++) {
    float z = curand_normal(&local);
    s += z;
    s2 += double(z) * z;
  }
  sums[id] = s;
  sums_sq[id] = s2;
  states[id] = local;
}

// Per thread: 1 where an offset start, a skipahead and plain draws agree, for both generators.
__global__ void offsets_agree(unsigned long long seed, int *agree) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = 5 + id % 7;
  curandState from_zero, from_k, skipped;
  curand_init(seed, id, 0, &from_zero);
  curand_init(seed, id, k, &from_k);
  curand_init(seed, id, 0, &skipped);
  skipahead((unsigned long long)k, &skipped);
  for (int i = 0; i < k; i++) curand(&from_zero);
  unsigned int a = curand(&from_zero), b = curand(&from_k), c = curand(&skipped);
  curandStatePhilox4_32_10_t p0, pk;
  curand_init(seed, id, 0, &p0);
  curand_init(seed, id, 4ull * k, &pk);
  for (int i = 0; i < k; i++) curand_uniform4(&p0);
  float4 u = curand_uniform4(&p0), v = curand_uniform4(&pk);
  agree[id] = a == b && b == c && u.x == v.x && u.y == v.y && u.z == v.z && u.w == v.w;
}

int main() {
  curandState *states;
  unsigned int *d_hits;
  int *d_bad, *d_agree;
  double *d_sum, *d_sum_sq;
  checkCudaErrors(cudaMalloc(&states, kN * sizeof(curandState)));
  checkCudaErrors(cudaMalloc(&d_hits, sizeof(unsigned int)));
  checkCudaErrors(cudaMalloc(&d_bad, sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_agree, kN * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_sum, kN * sizeof(double)));
  checkCudaErrors(cudaMalloc(&d_sum_sq, kN * sizeof(double)));
  checkCudaErrors(cudaMemset(d_hits, 0, sizeof(unsigned int)));
  checkCudaErrors(cudaMemset(d_bad, 0, sizeof(int)));

  setup_states<<<kBlocks, kThreads>>>(states, 2024ull);
  count_hits<<<kBlocks, kThreads>>>(states, d_hits, d_bad);
  normal_moments<<<kBlocks, kThreads>>>(states, d_sum, d_sum_sq);
  offsets_agree<<<kBlocks, kThreads>>>(77ull, d_agree);
  getLastCudaError("the random-number kernels");
  checkCudaErrors(cudaDeviceSynchronize());

  unsigned int hits = 0;
  int bad = 0, agree[kN];
  static double sums[kN], sums_sq[kN];
  checkCudaErrors(cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(agree, d_agree, sizeof agree, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(sums, d_sum, sizeof sums, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(sums_sq, d_sum_sq, sizeof sums_sq, cudaMemcpyDeviceToHost));
  double sum = 0, sum_sq = 0;
  for (int i = 0; i < kN; i++) {
    sum += sums[i];
    sum_sq += sums_sq[i];
  }

  const double samples = double(kN) * kDraws;
  const double pi = 4.0 * hits / samples;
  // The hit count is binomial: its standard error is sqrt(p (1 - p) / n), times 4 for pi.
  const double pi_error = 4.0 * std::sqrt(0.785 * 0.215 / samples);
  const double mean = sum / samples, variance = sum_sq / samples - mean * mean;
  int agreeing = 0;
  for (int i = 0; i < kN; i++) agreeing += agree[i];
  printf("pi ~ %.5f (error allowed %.5f), normal mean %.5f variance %.5f, %d draws out of range, "
         "%d of %d offsets agree\n",
         pi, 5 * pi_error, mean, variance, bad, agreeing, kN);
  const bool ok = std::fabs(pi - 3.14159265) < 5 * pi_error && std::fabs(mean) < 0.02 &&
                  std::fabs(variance - 1.0) < 0.03 && bad == 0 && agreeing == kN;
  printf("curand monte carlo: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
