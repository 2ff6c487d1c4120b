// The rest of the runtime a sample's main() may call: pitched 2-D memory (cudaMallocPitch,
// cudaMemcpy2D, cudaMemset2D), a stream with a priority waiting on an event, a host function
// queued behind a kernel, stream and event queries, pointer attributes, mapped host memory,
// device flags and a peer copy. The kernel doubles every element of a pitched 100 x 7 matrix and
// counts the elements it doubled.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void double_rows(float* m, size_t pitch, int width, int height, int* doubled) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + y * pitch);
    row[x] *= 2.0f;
    atomicAdd(doubled, 1);
  }
}

void mark_done(void* flag) {
  *static_cast<int*>(flag) = 1;
}

int main() {
  const int width = 100, height = 7;
  static float h[height][width], back[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) h[y][x] = float(y * 1000 + x);
  int wrong = 0;
  cudaSetDeviceFlags(cudaDeviceScheduleAuto);
  unsigned flags = 99;
  wrong += cudaGetDeviceFlags(&flags) != cudaSuccess;
  float* d = nullptr;
  size_t pitch = 0;
  wrong += cudaMallocPitch(&d, &pitch, width * sizeof(float), height) != cudaSuccess;
  wrong += pitch < width * sizeof(float);
  wrong += cudaMemset2D(d, pitch, 0, width * sizeof(float), height) != cudaSuccess;
  wrong += cudaMemcpy2D(d, pitch, h, sizeof h[0], sizeof h[0], height, cudaMemcpyHostToDevice) !=
           cudaSuccess;
  int least = 0, greatest = 0;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t stream;
  wrong += cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest) != cudaSuccess;
  cudaEvent_t ready;
  cudaEventCreate(&ready);
  cudaEventRecord(ready, 0);
  wrong += cudaStreamWaitEvent(stream, ready, 0) != cudaSuccess;
  int* d_doubled = nullptr;
  cudaMalloc(&d_doubled, sizeof(int));
  cudaMemset(d_doubled, 0, sizeof(int));
  double_rows<<<dim3((width + 31) / 32, height), 32, 0, stream>>>(d, pitch, width, height,
                                                                  d_doubled);
  int done = 0;
  wrong += cudaLaunchHostFunc(stream, mark_done, &done) != cudaSuccess;
  wrong += cudaMemcpy2DAsync(back, sizeof back[0], d, pitch, sizeof back[0], height,
                             cudaMemcpyDeviceToHost, stream) != cudaSuccess;
  wrong += cudaStreamSynchronize(stream) != cudaSuccess;
  wrong += cudaStreamQuery(stream) != cudaSuccess || cudaEventQuery(ready) != cudaSuccess;
  wrong += done != 1;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) wrong += back[y][x] != 2.0f * h[y][x];
  int doubled = 0;
  cudaMemcpy(&doubled, d_doubled, sizeof doubled, cudaMemcpyDeviceToHost);
  wrong += doubled != width * height;

  cudaPointerAttributes attributes;
  wrong += cudaPointerGetAttributes(&attributes, d) != cudaSuccess ||
           attributes.type != cudaMemoryTypeDevice;
  float *mapped = nullptr, *mapped_on_device = nullptr;
  wrong += cudaHostAlloc(&mapped, 4 * sizeof(float), cudaHostAllocMapped) != cudaSuccess;
  wrong += cudaHostGetDevicePointer(&mapped_on_device, mapped, 0) != cudaSuccess;
  float* copy = nullptr;
  cudaMalloc(&copy, sizeof h[0]);
  wrong += cudaMemcpyPeer(copy, 0, d, 0, sizeof h[0]) != cudaSuccess;
  float first[width];
  cudaMemcpy(first, copy, sizeof first, cudaMemcpyDeviceToHost);
  for (int x = 0; x < width; ++x) wrong += first[x] != 2.0f * h[0][x];

  std::printf("pitch %zu bytes for rows of %zu: %s (%d wrong)\n", pitch, width * sizeof(float),
              wrong == 0 ? "PASSED" : "FAILED", wrong);
  cudaEventDestroy(ready);
  cudaStreamDestroy(stream);
  cudaFreeHost(mapped);
  cudaFree(copy);
  cudaFree(d_doubled);
  cudaFree(d);
  return wrong == 0 ? 0 : 1;
}
