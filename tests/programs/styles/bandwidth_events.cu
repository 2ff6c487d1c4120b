// run: -I common
// expect: bandwidthTest PASSED
// A bandwidth test in the manner of the SDK's: pageable and pinned buffers, host-to-device,
// device-to-host and device-to-device copies each timed with events over several repeats, the
// GB/s printed, and the data that came back compared with what went in.
#include <cuda_runtime.h>
#include <helper_cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static float timeCopies(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, int reps) {
  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start, 0));
  for (int i = 0; i < reps; i++) checkCudaErrors(cudaMemcpy(dst, src, bytes, kind));
  checkCudaErrors(cudaEventRecord(stop, 0));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms = 0;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  return ms;
}

int main(int argc, char **argv) {
  findCudaDevice(argc, (const char **)argv);
  const size_t bytes = 1 << 20;
  const int reps = 4;
  unsigned char *pageable = (unsigned char *)malloc(bytes);
  unsigned char *pinned = NULL, *back = NULL;
  checkCudaErrors(cudaHostAlloc((void **)&pinned, bytes, cudaHostAllocDefault));
  checkCudaErrors(cudaMallocHost((void **)&back, bytes));
  for (size_t i = 0; i < bytes; i++) pageable[i] = pinned[i] = (unsigned char)(i * 7 + 3);
  unsigned char *d_a, *d_b;
  checkCudaErrors(cudaMalloc((void **)&d_a, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_b, bytes));

  const char *names[] = {"Host to Device (pageable)", "Host to Device (pinned)",
                         "Device to Device", "Device to Host (pinned)"};
  float ms[4];
  ms[0] = timeCopies(d_a, pageable, bytes, cudaMemcpyHostToDevice, reps);
  ms[1] = timeCopies(d_a, pinned, bytes, cudaMemcpyHostToDevice, reps);
  ms[2] = timeCopies(d_b, d_a, bytes, cudaMemcpyDeviceToDevice, reps);
  ms[3] = timeCopies(back, d_b, bytes, cudaMemcpyDeviceToHost, reps);
  for (int i = 0; i < 4; i++)
    printf("  %-28s %10.2f GB/s\n", names[i], ms[i] > 0 ? (double)bytes * reps / (ms[i] * 1e6) : 0.0);
  bool ok = memcmp(back, pageable, bytes) == 0;
  for (int i = 0; i < 4; i++) ok = ok && ms[i] >= 0;
  checkCudaErrors(cudaFree(d_a));
  checkCudaErrors(cudaFree(d_b));
  checkCudaErrors(cudaFreeHost(pinned));
  checkCudaErrors(cudaFreeHost(back));
  free(pageable);
  printf("bandwidthTest %s\n", ok ? "PASSED" : "FAILED");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
