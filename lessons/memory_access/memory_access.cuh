// Memory access: how the lanes of one warp meet global memory (32-byte sectors) and shared
// memory (32 banks of 4 bytes). Each kernel makes one access pattern; the emulator records every
// load and store, and the analysis counts sectors per request and bank-conflict ways per line.
#pragma once
#include "device/coop/kernel_api.hpp"

namespace coop::lessons::memory_access {

constexpr int kTile = 32;  // a tile is 32 x 32 floats, one warp per row

// Thread i reads in[i * stride] and writes it to out[i]. With stride 1 a warp's 32 loads are 128
// consecutive bytes: 4 sectors. With stride 2 they spread over 256 bytes, 8 sectors, of which
// half the bytes are wasted; with stride 32 every lane has a sector of its own.
__global__ void strided_read(const float* in, float* out, int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[i * stride];  // the strided load
  out[i] = v;                      // the contiguous store
}

// One 32 x 32 tile per block of 1024 threads, transposed through shared memory. Row y of the
// tile is written by warp y, so the write to tile[y][x] puts lane x in bank x: no conflict. The
// read tile[x][y] walks a column: lane x reads word 32 * x + y, and every one of those words
// lies in bank y. The 32 lanes queue at one bank: a 32-way conflict.
__global__ void transpose_tile(const float* in, float* out) {
  __shared__ float tile[kTile][kTile];
  const int x = threadIdx.x % kTile, y = threadIdx.x / kTile;
  const int base = blockIdx.x * kTile * kTile;
  tile[y][x] = in[base + y * kTile + x];  // row write, unpadded
  __syncthreads();
  out[base + y * kTile + x] = tile[x][y];  // column read, unpadded
}

// The same transpose with each tile row padded to 33 floats. Lane x now reads word 33 * x + y,
// in bank (x + y) % 32: 32 lanes, 32 different banks, one pass.
__global__ void transpose_tile_padded(const float* in, float* out) {
  __shared__ float tile[kTile][kTile + 1];
  const int x = threadIdx.x % kTile, y = threadIdx.x / kTile;
  const int base = blockIdx.x * kTile * kTile;
  tile[y][x] = in[base + y * kTile + x];  // row write, padded
  __syncthreads();
  out[base + y * kTile + x] = tile[x][y];  // column read, padded
}

// Every thread of a block reads the same shared word: the bank sends one word to all lanes at
// once (a broadcast), so a warp's read is one pass although 32 lanes hit one bank.
__global__ void broadcast_read(const float* in, float* out) {
  __shared__ float scale;
  if (threadIdx.x == 0) scale = in[blockIdx.x];  // one lane stores the word
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = scale * float(threadIdx.x);  // every lane reads the same word
}

}  // namespace coop::lessons::memory_access
