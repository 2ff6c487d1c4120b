// The async-data-movement lesson as an ordinary CUDA program (lessons/async_data_movement/
// async_data_movement.cu, for coopviz run or nvcc); its kernels keep the line numbers of
// async_data_movement.cuh, which lesson.md cites. How it is run: the section "The program".
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 256;
constexpr int kPerThread = 4;  // floats per thread in a pipeline tile

// Four floats as one 16-byte piece. memcpy_async takes its piece size from the pointer type:
// copying Quads moves 16 bytes per copy instruction, copying floats 4 bytes.
struct alignas(16) Quad {
  float x, y, z, w;
};

// Two copies in flight, waited for one at a time. wait_prior<1> returns once all but the newest
// batch have landed (here: the first copy); wait returns once everything has.
__global__ void two_copies(const float* in, float* out) {
  __shared__ float first[kMaxBlock];
  __shared__ float second[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank(), n = block.size();
  const float* src = in + blockIdx.x * 2 * n;
  cg::memcpy_async(block, first, src, sizeof(float) * n);
  cg::memcpy_async(block, second, src + n, sizeof(float) * n);
  cg::wait_prior<1>(block);            // first has landed; second may still be on its way
  const float a = first[(t + 1) % n];  // a neighbour's element: the whole block's copy is needed
  cg::wait(block);                     // second has landed too
  const float b = second[(t + 1) % n];
  out[blockIdx.x * n + t] = a + b;
}

// Starts the block's copy of `count` floats, as 4-byte or as 16-byte pieces.
__device__ void fetch(const cg::thread_block& block, float* dst, const float* src, int count,
                      int wide) {
  if (wide)
    cg::memcpy_async(block, reinterpret_cast<Quad*>(dst), reinterpret_cast<const Quad*>(src),
                     sizeof(float) * count);
  else
    cg::memcpy_async(block, dst, src, sizeof(float) * count);
}

// Each block sums `tiles` consecutive tiles of kPerThread floats per thread. Two buffers take
// turns: while tile k is summed from one, tile k + 1 is already being copied into the other.
__global__ void pipeline(const float* in, float* out, int tiles, int wide) {
  __shared__ Quad buffer0[kMaxBlock];  // Quads, so that both buffers are 16-byte aligned
  __shared__ Quad buffer1[kMaxBlock];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank(), n = block.size() * kPerThread;
  const float* src = in + blockIdx.x * tiles * n;
  float* buffers[2] = {reinterpret_cast<float*>(buffer0), reinterpret_cast<float*>(buffer1)};
  float sum = 0;
  fetch(block, buffers[0], src, n, wide);
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      fetch(block, buffers[(k + 1) % 2], src + (k + 1) * n, n, wide);  // the next tile, in flight
      cg::wait_prior<1>(block);  // tile k has landed; tile k + 1 may still be copying
    } else {
      cg::wait(block);  // the last tile: nothing newer to leave in flight
    }
    const float* tile = buffers[k % 2];
    for (int j = 0; j < kPerThread; ++j) sum += tile[t * kPerThread + j];
    sum += 0.5f * tile[(t * kPerThread + kPerThread) % n];  // copied by the next thread
    block.sync();  // all reads of this buffer are done before the copy into it at step k + 1
  }
  out[blockIdx.x * block.size() + t] = sum;
}

// [SECTION] The program: two_copies once and pipeline twice (4-byte, then 16-byte pieces), on the
// lesson's input (small whole numbers from mt19937, so every sum is exact), checked against the
// CPU; on a GPU it also times both piece sizes over many tiles.
//   arguments: --backend=emulator|gpu --grid=G --block=B --tiles=N --data=SEED --timing_tiles=N

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lesson_protocol.h"

// [SECTION] Arguments

struct Options {
  LessonLaunch launch;
  long tiles = 4, data = 1, timing_tiles = 128;
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = 2;
  o.launch.block[0] = 64;
  const std::string error = parse_lesson_arguments(argc, argv, o.launch,
                                                   {{"tiles", 1, 64, &o.tiles},
                                                    {"data", 0, 1 << 30, &o.data},
                                                    {"timing_tiles", 1, 1024, &o.timing_tiles}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  if (block[1] != 1 || block[2] != 1 || grid[1] != 1 || grid[2] != 1)
    return "async-data-movement uses 1D blocks and grids: got block " + dims_text(block) +
           ", grid " + dims_text(grid);
  if (block[0] > unsigned(kMaxBlock))
    return "async-data-movement's shared buffers hold tiles for at most " +
           std::to_string(kMaxBlock) + " threads: got a block of " + std::to_string(block[0]);
  if (grid[0] > 1024)
    return "async-data-movement allows at most 1024 blocks in its traced runs: got " +
           std::to_string(grid[0]);
  return "";
}

// [SECTION] CPU reference and checks

// Small whole numbers as floats: every sum is exact, whatever order it is formed in.
std::vector<float> make_values(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = float(rng() % 10);
  return v;
}

std::vector<float> cpu_pipeline(const std::vector<float>& in, size_t blocks, size_t threads,
                                size_t tiles) {
  const size_t n = threads * kPerThread;
  std::vector<float> out(blocks * threads);
  for (size_t b = 0; b < blocks; ++b)
    for (size_t t = 0; t < threads; ++t) {
      float sum = 0;
      for (size_t k = 0; k < tiles; ++k) {
        const float* tile = &in[(b * tiles + k) * n];
        for (size_t j = 0; j < kPerThread; ++j) sum += tile[t * kPerThread + j];
        sum += 0.5f * tile[(t * kPerThread + kPerThread) % n];
      }
      out[b * threads + t] = sum;
    }
  return out;
}

size_t matching(const std::vector<float>& a, const std::vector<float>& b) {
  size_t good = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) good += a[i] == b[i];
  return good;
}

// The copy calls each thread of `pipeline` makes, in order: the loop's branches, as the kernel
// takes them ("copy, copy, wait_prior<1>, ..., wait").
std::string pipeline_copy_calls(int tiles) {
  std::string s = "copy";
  for (int k = 0; k < tiles; ++k) s += k + 1 < tiles ? ", copy, wait_prior<1>" : ", wait";
  return s;
}

// [SECTION] The runs

// Runs pipeline into `out` (zeroed first) and compares every thread's sum with `expect`.
void run_pipeline(dim3 grid, dim3 block, const float* in, float* out, int tiles, int wide,
                  const std::vector<float>& expect, const std::string& name, bool& failed) {
  cudaMemset(out, 0, expect.size() * sizeof(float));
  pipeline<<<grid, block>>>(in, out, tiles, wide);
  std::vector<float> got(expect.size());
  cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  const size_t good = matching(got, expect), all = expect.size();
  lesson_check(good == all, name, count_of(all, all) + " threads", count_of(good, all) + " threads",
               failed);
}

// GPU only: both piece sizes over many tiles, best of 5 timed launches after a warm-up.
void time_pipelines(const Options& o, bool& failed) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const size_t threads = kMaxBlock, blocks = size_t(std::max(1, prop.multiProcessorCount) * 4);
  const size_t tiles = size_t(o.timing_tiles), n = threads * kPerThread;
  std::vector<float> host(blocks * tiles * n);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i * 7 % 10);  // quick to make, exact sums
  const std::vector<float> expect = cpu_pipeline(host, blocks, threads, tiles);
  float *in, *out;
  cudaMalloc(&in, host.size() * sizeof(float));
  cudaMalloc(&out, expect.size() * sizeof(float));
  cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  float ms[2] = {0, 0};
  for (int wide = 0; wide < 2; ++wide) {
    cudaMemset(out, 0, expect.size() * sizeof(float));
    ms[wide] = best_launch_ms(
        5, [] {},
        [&] { pipeline<<<unsigned(blocks), unsigned(threads)>>>(in, out, int(tiles), wide); });
    std::vector<float> got(expect.size());
    cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    const size_t good = matching(got, expect);
    lesson_check(good == expect.size(),
                 std::string("timed pipeline, ") + (wide ? "16" : "4") +
                     "-byte pieces: sums equal the CPU's",
                 count_of(expect.size(), expect.size()) + " threads",
                 count_of(good, expect.size()) + " threads", failed);
  }
  cudaFree(in);
  cudaFree(out);
  const double gb = double(host.size() * sizeof(float)) / 1e9;
  for (int wide = 0; wide < 2; ++wide)
    lesson_result(
        std::string("time, ") + (wide ? "16" : "4") + "-byte pieces",
        format_float(ms[wide], 4) + " ms (" + format_float(gb / (ms[wide] * 1e-3), 4) + " GB/s)");
  lesson_result("speed-up of 16-byte pieces", format_float(ms[0] / ms[1], 3) + "x");
  lesson_result("timed launches", std::to_string(blocks) + " blocks x " + std::to_string(threads) +
                                      " threads, " + std::to_string(tiles) + " tiles each, " +
                                      format_float(gb, 3) + " GB read, on " + prop.name);
}

int main(int argc, char** argv) {
  Options o;
  if (std::string e = parse(argc, argv, o); !e.empty()) return lesson_error(e);
  const size_t blocks = o.launch.grid[0], threads = o.launch.block[0];
  bool failed = false;

  // two_copies: each block reads its 2 * threads values in two copies.
  std::vector<float> values = make_values(blocks * 2 * threads, unsigned(o.data));
  float *in, *out;
  cudaMalloc(&in, values.size() * sizeof(float));
  cudaMalloc(&out, blocks * threads * sizeof(float));
  cudaMemcpy(in, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, blocks * threads * sizeof(float));
  two_copies<<<unsigned(blocks), unsigned(threads)>>>(in, out);
  std::vector<float> got(blocks * threads);
  cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  size_t good = 0;
  for (size_t b = 0; b < blocks; ++b)
    for (size_t t = 0; t < threads; ++t) {
      const float* src = &values[b * 2 * threads];
      good += got[b * threads + t] == src[(t + 1) % threads] + src[threads + (t + 1) % threads];
    }
  lesson_check(good == got.size(), "two_copies: each thread read both copies' neighbour values",
               count_of(got.size(), got.size()) + " threads",
               count_of(good, got.size()) + " threads", failed);
  cudaFree(in);
  cudaFree(out);

  // pipeline: `tiles` tiles per block, as 4-byte and then as 16-byte pieces.
  const int tiles = int(o.tiles);
  values = make_values(blocks * tiles * threads * kPerThread, unsigned(o.data) + 1);
  const std::vector<float> expect = cpu_pipeline(values, blocks, threads, size_t(tiles));
  cudaMalloc(&in, values.size() * sizeof(float));
  cudaMalloc(&out, expect.size() * sizeof(float));
  cudaMemcpy(in, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  lesson_result("thread 0's copy calls, in order", pipeline_copy_calls(tiles));
  for (int wide = 0; wide < 2; ++wide) {
    const std::string name = wide ? "pipeline, 16-byte pieces" : "pipeline, 4-byte pieces";
    run_pipeline(dim3(unsigned(blocks)), dim3(unsigned(threads)), in, out, tiles, wide, expect,
                 name + ": every thread's sum over " + std::to_string(tiles) +
                     " tiles equals the CPU's",
                 failed);
    // What the trace of this launch must hold; coopviz counts it.
    const size_t copies = blocks * threads * size_t(tiles);
    std::printf("[trace] %s: one copy issued and one wait per tile and thread: expected %zu "
                "copy_issue, %zu copy_wait in pipeline launch %d\n",
                name.c_str(), copies, copies, wide + 1);
  }
  cudaFree(in);
  cudaFree(out);
  lesson_result("copy pieces per thread per tile",
                std::to_string(kPerThread) + " of 4 bytes, or 1 of 16 bytes");

  if (o.launch.gpu)
    time_pipelines(o, failed);
  else
    lesson_skip_timing("4-byte against 16-byte copy pieces timed");
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
    return lesson_error(cudaGetErrorString(e));
  return failed ? 1 : 0;
}
