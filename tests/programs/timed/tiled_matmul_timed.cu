// Multiplies two 320x320 matrices with 16x16 tiles staged in shared memory (400 blocks of 256
// threads), times the kernel over repeated launches with CUDA events, and checks the product
// against the host's. The first argument sets the launches timed (default 300).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kTile = 16;

// C = A * B for n x n row-major matrices, n a multiple of kTile: each block computes one tile of
// C, walking the tiles of A's rows and B's columns through shared memory.
__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n / kTile; ++t) {
    a_tile[threadIdx.y][threadIdx.x] = a[row * n + t * kTile + threadIdx.x];
    b_tile[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main(int argc, char** argv) {
  const int n = 320;
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 300;
  if (iterations < 1) {
    fprintf(stderr, "usage: %s [launches timed, at least 1]\n", argv[0]);
    return 2;
  }
  const size_t bytes = size_t(n) * n * sizeof(float);
  std::vector<float> h_a(size_t(n) * n), h_b(size_t(n) * n), h_c(size_t(n) * n);
  for (int i = 0; i < n * n; ++i) {
    h_a[i] = float((i * 7) % 13) / 13.0f;
    h_b[i] = float((i * 5) % 11) / 11.0f;
  }
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMalloc(&d_c, bytes);
  cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice);

  const dim3 block(kTile, kTile);
  const dim3 grid(n / kTile, n / kTile);
  // One launch before timing, as a warm-up.
  matmul_tiled<<<grid, block>>>(d_a, d_b, d_c, n);
  cudaDeviceSynchronize();

  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  for (int i = 0; i < iterations; ++i) matmul_tiled<<<grid, block>>>(d_a, d_b, d_c, n);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) {
    fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(error));
    return 1;
  }
  const double per_launch = ms / iterations;
  const double gflops = 2.0 * n * n * n / (per_launch / 1e3) / 1e9;
  printf("Average time = %.4f ms over %d launches, %.2f GFlop/s, %d x %d threads per launch\n",
         per_launch, iterations, gflops, grid.x * grid.y, block.x * block.y);

  cudaMemcpy(h_c.data(), d_c, bytes, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      double want = 0;
      for (int k = 0; k < n; ++k) want += double(h_a[r * n + k]) * h_b[k * n + col];
      if (std::fabs(h_c[r * n + col] - want) > 1e-3 * (1 + std::fabs(want))) ++wrong;
    }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  printf("%s\n", wrong ? "FAILED" : "PASSED");
  return wrong ? 1 : 0;
}
