// kernels: matmul_tiled
// Tiled matrix multiply with both tiles declared in one __shared__ declaration, the textbook
// form.
#include <cstdio>

#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

int main() {
  const int n = 32;
  static float a[n * n], b[n * n], c[n * n];
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 5), b[i] = float(i % 3);
  float *A, *B, *C;
  cudaMalloc(&A, sizeof a);
  cudaMalloc(&B, sizeof b);
  cudaMalloc(&C, sizeof c);
  cudaMemcpy(A, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(B, b, sizeof b, cudaMemcpyHostToDevice);
  matmul_tiled<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(A, B, C, n);
  cudaMemcpy(c, C, sizeof c, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      float s = 0;
      for (int k = 0; k < n; ++k) s += a[r * n + k] * b[k * n + col];
      bad += c[r * n + col] != s;
    }
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
