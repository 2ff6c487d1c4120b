// run: -I common -D N=4096
// run: -D A=4 -D B=4 -D C=4 -D D=4 -D E=4 -D F=4 -D G=4 -D H=4 -D I=4 -D J=4 -D K=4 -D M=4
// run: -D O=4 -D P=4 -D Q=4 -D S=4 -D V=4 -D W=4 -D X=4 -D Y=4 -D Z=4
// run: -D SIZE=4 -D TILE_DIM=4 -D TILE_SIZE=4 -D BLOCK_ROWS=4 -D THREADS=4 -D NUM_THREADS=4
// run: -D NUM_BLOCKS=4 -D BLOCKS=4 -D WARP_SIZE=4 -D FULL_MASK=4 -D DIM=4 -D BDIMX=4 -D BDIMY=4
// run: -D ARRAY_SIZE=4 -D COUNT=4 -D PI=4 -D EPSILON=4 -D STEP=4 -D ITERATIONS=4 -D NX=4 -D NY=4
// run: -D MASK_WIDTH=4 -D BLOCK_WIDTH=4 -D KERNEL_SIZE=4 -D NUM_BANKS=4 -D ROWS=4 -D COLS=4
// run: -D LENGTH=4 -D DEPTH=4 -D STRIDE=4 -D OFFSET=4 -D SCALE=4 -D ALPHA=4 -D BETA=4 -D GRID=4
// expect: macros PASSED
// Course homework that takes its problem size from the command line (nvcc -D N=4096 ...) and the
// rest from #define lines above its includes, as course code and book chapters do. Every
// upper-case letter is a macro except L, R, T and U (CUDA's own cuda_runtime.h and
// cooperative_groups.h use those names, so nvcc refuses them too), and so are the all-caps names
// such programs define. The work: a 1D stencil with a halo in shared memory, a block sum and
// scans with Cooperative Groups over a cooperative launch with a grid sync, a tiled transpose and
// a half-precision axpy launched with cudaLaunchKernelEx, each checked against the host.
#ifndef N
#define N 1024
#endif
#define BLOCK_SIZE 128
#define RADIUS 3
#define TILE_WIDTH 16
#define WIDTH 80
#define HEIGHT 48
#define THREADS_PER_BLOCK 256
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#if N % THREADS_PER_BLOCK != 0 || N % BLOCK_SIZE != 0
#error "N must be a multiple of the block sizes"
#endif

__global__ void stencil_1d(const int* in, int* out) {
  __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
  int gindex = threadIdx.x + blockIdx.x * blockDim.x;
  int lindex = threadIdx.x + RADIUS;
  temp[lindex] = in[gindex + RADIUS];
  if (threadIdx.x < RADIUS) {
    temp[lindex - RADIUS] = in[gindex];
    temp[lindex + BLOCK_SIZE] = in[gindex + RADIUS + BLOCK_SIZE];
  }
  __syncthreads();
  int result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
  out[gindex] = result;
}

// Each warp's total and running sums, the block's total, then (after the grid meets) block 0
// adds the blocks' totals.
__global__ void block_sums(const int* in, int* scanned, int* block_totals, int* total) {
  __shared__ int warp_totals[THREADS_PER_BLOCK / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * THREADS_PER_BLOCK + threadIdx.x;
  const int v = in[i];
  const int warp_total = cg::reduce(warp, v, cg::plus<int>());
  const int before = cg::exclusive_scan(warp, v, cg::plus<int>());
  scanned[i] = before + v - cg::inclusive_scan(warp, v);  // zero when the scans agree
  if (warp.thread_rank() == 0) warp_totals[warp.meta_group_rank()] = warp_total;
  block.sync();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int w = 0; w < THREADS_PER_BLOCK / 32; w++) sum += warp_totals[w];
    block_totals[blockIdx.x] = sum;
  }
  cg::this_grid().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; b++) sum += block_totals[b];
    *total = sum;
  }
}

__global__ void transpose(const float* in, float* out) {
  __shared__ float tile[TILE_WIDTH][TILE_WIDTH + 1];
  int x = blockIdx.x * TILE_WIDTH + threadIdx.x;
  int y = blockIdx.y * TILE_WIDTH + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * WIDTH + x];
  __syncthreads();
  x = blockIdx.y * TILE_WIDTH + threadIdx.x;
  y = blockIdx.x * TILE_WIDTH + threadIdx.y;
  out[y * HEIGHT + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void haxpy(__half a, const __half* x, __half* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = __hadd(__hmul(a, x[i]), y[i]);
}

int main() {
  int errors = 0;

  // The stencil: the input has RADIUS extra elements at each end.
  std::vector<int> h_in(N + 2 * RADIUS), h_out(N);
  for (int i = 0; i < N + 2 * RADIUS; i++) h_in[i] = (i * 7) % 11 - 5;
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, (N + 2 * RADIUS) * sizeof(int)));
  CHECK(cudaMalloc(&d_out, N * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), (N + 2 * RADIUS) * sizeof(int), cudaMemcpyHostToDevice));
  stencil_1d<<<N / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost));
  int widest = 0;
  for (int i = 0; i < N; i++) {
    int expected = 0;
    for (int j = 0; j <= 2 * RADIUS; j++) expected += h_in[i + j];
    if (h_out[i] != expected) errors++;
    widest = MAX(widest, MIN(h_out[i], 1000));
  }
  printf("stencil: %d sums, largest %d\n", N, widest);

  // The sums, launched cooperatively with the kernel's arguments in an array.
  const int blocks = N / THREADS_PER_BLOCK;
  std::vector<int> h_values(N), h_scanned(N);
  long long expected_total = 0;
  for (int i = 0; i < N; i++) expected_total += h_values[i] = i % 9 - 3;
  int *d_values, *d_scanned, *d_block_totals, *d_total;
  CHECK(cudaMalloc(&d_values, N * sizeof(int)));
  CHECK(cudaMalloc(&d_scanned, N * sizeof(int)));
  CHECK(cudaMalloc(&d_block_totals, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_total, sizeof(int)));
  CHECK(cudaMemcpy(d_values, h_values.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  void* args[] = {&d_values, &d_scanned, &d_block_totals, &d_total};
  CHECK(cudaLaunchCooperativeKernel((void*)block_sums, blocks, THREADS_PER_BLOCK, args));
  int h_total = 0;
  CHECK(cudaMemcpy(&h_total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_scanned.data(), d_scanned, N * sizeof(int), cudaMemcpyDeviceToHost));
  if (h_total != expected_total) errors++;
  for (int i = 0; i < N; i++)
    if (h_scanned[i] != 0) errors++;
  printf("block sums: total %d (host %lld)\n", h_total, expected_total);

  // The transpose of a WIDTH x HEIGHT matrix, one tile per block.
  std::vector<float> h_matrix(WIDTH * HEIGHT), h_transposed(WIDTH * HEIGHT);
  for (int i = 0; i < WIDTH * HEIGHT; i++) h_matrix[i] = float(i);
  float *d_matrix, *d_transposed;
  CHECK(cudaMalloc(&d_matrix, WIDTH * HEIGHT * sizeof(float)));
  CHECK(cudaMalloc(&d_transposed, WIDTH * HEIGHT * sizeof(float)));
  CHECK(cudaMemcpy(d_matrix, h_matrix.data(), WIDTH * HEIGHT * sizeof(float),
                   cudaMemcpyHostToDevice));
  dim3 grid(WIDTH / TILE_WIDTH, HEIGHT / TILE_WIDTH), block(TILE_WIDTH, TILE_WIDTH);
  transpose<<<grid, block>>>(d_matrix, d_transposed);
  CHECK(cudaMemcpy(h_transposed.data(), d_transposed, WIDTH * HEIGHT * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (int row = 0; row < HEIGHT; row++)
    for (int col = 0; col < WIDTH; col++)
      if (h_transposed[col * HEIGHT + row] != h_matrix[row * WIDTH + col]) errors++;
  printf("transpose: %d x %d\n", WIDTH, HEIGHT);

  // y = 2x + y in half precision; every value is exact in a half.
  std::vector<__half> h_x(N), h_y(N);
  for (int i = 0; i < N; i++) {
    h_x[i] = __float2half(float(i % 16));
    h_y[i] = __float2half(1.0f);
  }
  __half *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, N * sizeof(__half)));
  CHECK(cudaMalloc(&d_y, N * sizeof(__half)));
  CHECK(cudaMemcpy(d_x, h_x.data(), N * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y.data(), N * sizeof(__half), cudaMemcpyHostToDevice));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(8);
  config.blockDim = dim3(BLOCK_SIZE);
  CHECK(cudaLaunchKernelEx(&config, haxpy, __float2half(2.0f), (const __half*)d_x, d_y, N));
  CHECK(cudaMemcpy(h_y.data(), d_y, N * sizeof(__half), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    if (__half2float(h_y[i]) != float(2 * (i % 16) + 1)) errors++;
  printf("haxpy: %d halves\n", N);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_scanned));
  CHECK(cudaFree(d_block_totals));
  CHECK(cudaFree(d_total));
  CHECK(cudaFree(d_matrix));
  CHECK(cudaFree(d_transposed));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  printf("%s\n", errors == 0 ? "macros PASSED" : "macros FAILED");
  return errors == 0 ? 0 : 1;
}
