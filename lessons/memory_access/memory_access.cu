// The memory-access lesson as an ordinary CUDA program: how the lanes of one warp meet global
// memory (32-byte sectors) and shared memory (32 banks of 4 bytes). Each kernel makes one access
// pattern; coopviz records every load and store on the emulator (lesson.json's records_memory),
// and the Memory tab counts sectors per request and bank-conflict ways per line. main checks
// every kernel's output against the CPU.
//   arguments: --backend=emulator|gpu --grid=G --block=B
#include <cooperative_groups.h>

#include <cstdio>
#include <string>
#include <vector>

#include "lesson_protocol.h"

namespace cg = cooperative_groups;

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

// [SECTION] The host side

constexpr int kStrides[] = {1, 2, 32};
constexpr unsigned kTileThreads = kTile * kTile;

// in[i] = i: every value names its own index, so a lane's value in the Memory tab says which
// element it read.
std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(i);
  return v;
}

std::vector<float> download(const float* out, size_t n) {
  std::vector<float> got(n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  return got;
}

// One check over every element of `got`: "N of N", or how many held and the first that did not.
template <class Expected>
void check_all(const std::string& name, const std::vector<float>& got, Expected expected,
               bool& failed) {
  size_t good = 0, first_bad = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == expected(i))
      ++good;
    else if (first_bad == got.size())
      first_bad = i;
  }
  std::string text = count_of(good, got.size());
  if (first_bad < got.size())
    text += " (first difference: out[" + std::to_string(first_bad) +
            "] = " + format_float(got[first_bad]) + ")";
  lesson_check(good == got.size(), name, count_of(got.size(), got.size()), text, failed);
}

// Contiguous and strided global reads: out[i] is in[i * stride], which is i * stride.
void run_strided(unsigned grid, unsigned block, bool& failed) {
  const size_t n = size_t(grid) * block;
  const std::vector<float> values = iota(n * size_t(kStrides[2]));
  float *in, *out;
  cudaMalloc(&in, values.size() * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * sizeof(float));
  for (int stride : kStrides) {
    strided_read<<<grid, block>>>(in, out, stride);
    const std::string s = std::to_string(stride);
    check_all("stride " + s + ": out[i] = in[i * " + s + "]", download(out, n),
              [&](size_t i) { return float(i * size_t(stride)); }, failed);
  }
  cudaFree(in);
  cudaFree(out);
}

// The transposed tile, without and with padding: element (y, x) of each tile comes from element
// (x, y) of the same tile. One warp per tile row, so blocks of 1024 threads.
void run_transposes(unsigned grid, bool& failed) {
  const size_t n = size_t(grid) * kTileThreads;
  const std::vector<float> values = iota(n);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, values.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * sizeof(float));
  for (bool padded : {false, true}) {
    cudaMemset(out, 0, n * sizeof(float));
    if (padded)
      transpose_tile_padded<<<grid, kTileThreads>>>(in, out);
    else
      transpose_tile<<<grid, kTileThreads>>>(in, out);
    check_all(std::string(padded ? "padded tile" : "tile") +
                  ": every element is its transposed twin",
              download(out, n),
              [](size_t i) {
                const size_t base = i / kTileThreads * kTileThreads,
                             y = i % kTileThreads / kTile, x = i % kTile;
                return float(base + x * kTile + y);
              },
              failed);
  }
  cudaFree(in);
  cudaFree(out);
}

// The broadcast: thread t of block b writes in[b] * t = b * t.
void run_broadcast(unsigned grid, unsigned block, bool& failed) {
  const size_t n = size_t(grid) * block;
  const std::vector<float> values = iota(grid);
  float *in, *out;
  cudaMalloc(&in, grid * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, values.data(), grid * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * sizeof(float));
  broadcast_read<<<grid, block>>>(in, out);
  check_all("broadcast: out[i] = in[block] * threadIdx.x", download(out, n),
            [&](size_t i) { return float(i / block) * float(i % block); }, failed);
  cudaFree(in);
  cudaFree(out);
}

int main(int argc, char** argv) {
  LessonLaunch launch;
  launch.grid[0] = 4;
  launch.block[0] = 256;
  if (std::string e = parse_lesson_arguments(argc, argv, launch, {}); !e.empty())
    return lesson_error(e);
  const unsigned grid = launch.grid[0], block = launch.block[0];
  if (launch.grid[1] != 1 || launch.grid[2] != 1 || launch.block[1] != 1 || launch.block[2] != 1)
    return lesson_error("memory-access uses 1D blocks and grids: got block " +
                        dims_text(launch.block) + ", grid " + dims_text(launch.grid));
  if (block % 32 != 0)
    return lesson_error(
        "memory-access needs whole warps (a block of a multiple of 32 threads) so that every "
        "request has 32 lanes: got " + std::to_string(block));
  if (grid > 64)
    return lesson_error(
        "memory-access allows at most 64 blocks (the stride-32 read touches 32 floats per "
        "thread): got " + std::to_string(grid));
  bool failed = false;
  run_strided(grid, block, failed);
  run_transposes(grid, failed);
  run_broadcast(grid, block, failed);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    return lesson_error(cudaGetErrorString(e));
  return failed ? 1 : 0;
}
