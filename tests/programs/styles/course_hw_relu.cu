// expect: ALL TESTS PASSED
// Course homework shape: a size from the command line (default when absent), a CHECK macro that
// aborts with the line, a kernel per task (ReLU, scale-and-shift, clamp), each task's output
// checked by a CPU reference with its own "PASSED"/"FAILED" line, and a summary.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err = call;                                                          \
    if (err != cudaSuccess) {                                                        \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err), __FILE__, \
              __LINE__);                                                             \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

__global__ void relu(const float *x, float *y, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) y[idx] = fmaxf(x[idx], 0.0f);
}

__global__ void scale_shift(float *y, float a, float b, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) y[idx] = a * y[idx] + b;
}

__global__ void clamp(float *y, float lo, float hi, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) y[idx] = fminf(fmaxf(y[idx], lo), hi);
}

static int report(const char *task, const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (fabsf(got[i] - want[i]) > 1e-6f) {
      printf("%s: FAILED at %d (%f, expected %f)\n", task, i, got[i], want[i]);
      return 1;
    }
  printf("%s: PASSED\n", task);
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1237;
  if (n <= 0) {
    fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 2;
  }
  size_t bytes = n * sizeof(float);
  float *h_x = (float *)malloc(bytes), *h_y = (float *)malloc(bytes), *ref = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) h_x[i] = (float)((i * 7919) % 200 - 100) / 10.0f;
  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
  int threads = 128, blocks = (n + threads - 1) / threads;
  int failures = 0;

  relu<<<blocks, threads>>>(d_x, d_y, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ref[i] = h_x[i] > 0 ? h_x[i] : 0;
  failures += report("Task 1 (relu)", h_y, ref, n);

  scale_shift<<<blocks, threads>>>(d_y, 0.5f, -1.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ref[i] = 0.5f * ref[i] - 1.0f;
  failures += report("Task 2 (scale and shift)", h_y, ref, n);

  clamp<<<blocks, threads>>>(d_y, -0.5f, 2.0f, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ref[i] = ref[i] < -0.5f ? -0.5f : ref[i] > 2.0f ? 2.0f : ref[i];
  failures += report("Task 3 (clamp)", h_y, ref, n);

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  free(h_x);
  free(h_y);
  free(ref);
  printf(failures ? "%d TASKS FAILED\n" : "ALL TESTS PASSED\n", failures);
  return failures ? 1 : 0;
}
