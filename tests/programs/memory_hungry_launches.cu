// Launches one kernel twenty times; each launch makes half a million loads and stores, so with
// every access recorded (--record-memory) and every launch traced, the traces would take about
// 640 MiB. Checks its own result.
#include <cstdio>
#include <vector>

__global__ void stir(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // volatile: sixteen loads and stores, not one add of 16.
  volatile int* v = x;
  for (int k = 0; k < 16; ++k) v[i] = v[i] + 1;
}

int main() {
  const int n = 64 * 256;
  const int launches = 20;
  int* d_x = nullptr;
  cudaMalloc(&d_x, n * sizeof(int));
  cudaMemset(d_x, 0, n * sizeof(int));
  for (int l = 0; l < launches; ++l) stir<<<64, 256>>>(d_x, n);
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d_x, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 16 * launches;
  cudaFree(d_x);
  printf("%d launches: %s\n", launches, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
