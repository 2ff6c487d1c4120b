// expect: pipeline PASSED
// Two streams ordered by an event, as multi-stream tutorials arrange producer and consumer work:
// stream A fills a buffer and records an event, stream B waits for it before using the buffer;
// a host function enqueued with cudaLaunchHostFunc marks completion, prefetch hints go to managed
// memory, and cudaStreamQuery / cudaEventQuery report readiness once the streams are done.
#include <cstdio>
#include <vector>

__global__ void produce(int *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[i] = i * 3;
}

__global__ void consume(const int *buf, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buf[n - 1 - i] + 1;
}

static void CUDART_CB mark_done(void *flag) { *static_cast<volatile int *>(flag) = 1; }

int main() {
  const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
  int *buf, *out;
  cudaMalloc(&buf, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  cudaStream_t a, b;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaEvent_t filled;
  cudaEventCreateWithFlags(&filled, cudaEventDisableTiming);
  int device = 0;
  cudaGetDevice(&device);
  cudaMemLocation where = {};
  where.type = cudaMemLocationTypeDevice;
  where.id = device;
  cudaMemPrefetchAsync(out, n * sizeof(int), where, 0, b);

  volatile int done = 0;
  produce<<<blocks, threads, 0, a>>>(buf, n);
  cudaEventRecord(filled, a);
  cudaStreamWaitEvent(b, filled, 0);
  consume<<<blocks, threads, 0, b>>>(buf, out, n);
  cudaLaunchHostFunc(b, mark_done, (void *)&done);
  cudaStreamSynchronize(b);

  bool ok = done == 1 && cudaStreamQuery(a) == cudaSuccess && cudaStreamQuery(b) == cudaSuccess &&
            cudaEventQuery(filled) == cudaSuccess;
  for (int i = 0; i < n; i++) ok = ok && out[i] == (n - 1 - i) * 3 + 1;
  printf("host function ran: %d, last value %d\n", done, out[n - 1]);
  cudaEventDestroy(filled);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
  cudaFree(buf);
  cudaFree(out);
  printf("pipeline %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
