// Kernels with known memory access patterns, for the emulator's recording of every load and
// store and for the access analysis (sectors per request, bank conflicts). Lines that tests look
// up carry a "// mark:" comment naming them.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::memory {

// A warp reads 32 consecutive floats (4 sectors) and writes them back consecutively.
__global__ void copy_consecutive(const float* in, float* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t];  // mark: consecutive
}

// A warp reads every 32nd float: each lane its own sector.
__global__ void copy_strided(const float* in, float* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * 32];  // mark: strided
}

// A 32x32 tile in shared memory with rows of `stride` floats (32, or 33 when padded), written by
// rows and read by columns: the warp of row y reads tile[x][y] for x = 0..31.
__global__ void tile_by_column(float* out, unsigned stride) {
  __shared__ float tile[32 * 33];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y * stride + x] = float(y * 32 + x);  // mark: tile row
  __syncthreads();
  out[y * 32 + x] = tile[x * stride + y];  // mark: tile column
}

// Every lane reads the same shared word: one broadcast.
__global__ void broadcast(int* out) {
  __shared__ int word;
  if (threadIdx.x == 0) word = 42;  // mark: broadcast store
  __syncthreads();
  out[threadIdx.x] = word;  // mark: broadcast load
}

// Stores of several sizes whose values tests check, a local array that must not be recorded,
// and an atomic and a copy that are recorded once, as themselves.
__global__ void sizes_and_copies(unsigned char* bytes, short* halves, double* doubles, int* ints,
                                 int* counter) {
  __shared__ int staged[64];
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = threadIdx.x;
  bytes[t] = (unsigned char)(t + 1);  // mark: byte store
  halves[t] = short(-int(t) - 1);     // mark: half store
  doubles[t] = 0.5 * double(t);       // mark: double store
  volatile int local[4];
  for (int i = 0; i < 4; ++i) local[i] = int(t) + i;        // mark: local
  cg::memcpy_async(block, staged, ints, sizeof(int) * 64);  // mark: copy
  cg::wait(block);
  const int value = staged[t] + local[3];  // mark: staged read
  atomicAdd(counter, value);               // mark: atomic
}

}  // namespace coop::lessons::memory
