// Shared memory bank configuration, as teaching code still asks for it: the calls are deprecated,
// and on every GPU since Maxwell the banks are four bytes wide whatever is set. The width is read
// back, valid settings succeed, a made-up one is cudaErrorInvalidValue, and a kernel that
// transposes through padded shared memory (the bank-conflict lesson) still transposes.
#include <cstdio>

constexpr int kSide = 32;

__global__ void transpose_padded(const int* in, int* out) {
  __shared__ int tile[kSide][kSide + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * kSide + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * kSide + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  cudaSharedMemConfig width = cudaSharedMemBankSizeDefault;
  const cudaError_t got = cudaDeviceGetSharedMemConfig(&width);
  const cudaError_t set = cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte);
  const cudaError_t func =
      cudaFuncSetSharedMemConfig(transpose_padded, cudaSharedMemBankSizeDefault);
  const cudaError_t bad = cudaDeviceSetSharedMemConfig(static_cast<cudaSharedMemConfig>(7));
  cudaGetLastError();  // the refused setting's error is not the kernel's
  cudaSharedMemConfig after = cudaSharedMemBankSizeDefault;
  cudaDeviceGetSharedMemConfig(&after);

  int host[kSide * kSide], back[kSide * kSide];
  for (int i = 0; i < kSide * kSide; ++i) host[i] = i;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof back);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  transpose_padded<<<1, dim3(kSide, kSide)>>>(in, out);
  cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) wrong += back[y * kSide + x] != host[x * kSide + y];

  const bool ok = got == cudaSuccess && width == cudaSharedMemBankSizeFourByte &&
                  set == cudaSuccess && func == cudaSuccess && bad == cudaErrorInvalidValue &&
                  after == cudaSharedMemBankSizeFourByte && wrong == 0;
  printf(
      "banks %d bytes (%d after asking for 8), set %s, per kernel %s, made-up %s, %d of %d "
      "transposed wrong: %s\n",
      width == cudaSharedMemBankSizeFourByte ? 4 : 8,
      after == cudaSharedMemBankSizeFourByte ? 4 : 8, cudaGetErrorName(set), cudaGetErrorName(func),
      cudaGetErrorName(bad), wrong, kSide * kSide, ok ? "PASSED" : "FAILED");
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
