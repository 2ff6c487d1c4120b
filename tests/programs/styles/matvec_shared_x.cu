// expect: matvec PASSED
// Matrix-vector products from a course assignment: a naive kernel with one thread per row, and a
// second that stages the vector through shared memory in chunks of blockDim.x (a barrier before
// and after each chunk is used); both checked against the host's product.
#include <cmath>
#include <cstdio>
#include <vector>

__global__ void matvec_naive(const float *A, const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int c = 0; c < cols; c++) s += A[r * cols + c] * x[c];
  y[r] = s;
}

__global__ void matvec_shared(const float *A, const float *x, float *y, int rows, int cols) {
  extern __shared__ float xs[];
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int base = 0; base < cols; base += blockDim.x) {
    if (base + threadIdx.x < cols) xs[threadIdx.x] = x[base + threadIdx.x];
    __syncthreads();
    int chunk = min((int)blockDim.x, cols - base);
    if (r < rows)
      for (int c = 0; c < chunk; c++) s += A[r * cols + base + c] * xs[c];
    __syncthreads();
  }
  if (r < rows) y[r] = s;
}

int main() {
  const int rows = 300, cols = 200, threads = 64, blocks = (rows + threads - 1) / threads;
  std::vector<float> A(rows * cols), x(cols), want(rows), got(rows);
  for (int i = 0; i < rows * cols; i++) A[i] = float((i * 17) % 13) / 13.0f;
  for (int c = 0; c < cols; c++) x[c] = float(c % 7) - 3.0f;
  for (int r = 0; r < rows; r++) {
    float s = 0;
    for (int c = 0; c < cols; c++) s += A[r * cols + c] * x[c];
    want[r] = s;
  }
  float *d_A, *d_x, *d_y;
  cudaMalloc(&d_A, A.size() * sizeof(float));
  cudaMalloc(&d_x, cols * sizeof(float));
  cudaMalloc(&d_y, rows * sizeof(float));
  cudaMemcpy(d_A, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  bool ok = true;
  for (int version = 0; version < 2; version++) {
    cudaMemset(d_y, 0, rows * sizeof(float));
    if (version == 0) matvec_naive<<<blocks, threads>>>(d_A, d_x, d_y, rows, cols);
    else matvec_shared<<<blocks, threads, threads * sizeof(float)>>>(d_A, d_x, d_y, rows, cols);
    cudaMemcpy(got.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < rows; r++) bad += fabsf(got[r] - want[r]) > 1e-3f * fmaxf(1.0f, fabsf(want[r]));
    printf("%s: %d rows wrong\n", version ? "shared" : "naive", bad);
    ok = ok && bad == 0;
  }
  cudaFree(d_A);
  cudaFree(d_x);
  cudaFree(d_y);
  printf("matvec %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
