// Grid-wide synchronization: a whole array summed in one kernel. Each block reduces its slice and
// writes a partial sum; grid.sync() waits until every block has done so; then the partial sums
// are added up, by one thread or by one 32-thread tile. An ordinary CUDA program (see the end).
#include <cooperative_groups.h>
#include <cuda_occupancy.h>

namespace cg = cooperative_groups;

constexpr int kMaxBlock = 1024;

// Binary tree over group g, halving from `half`. Each round the lower `half` ranks add the value
// `half` above them. Correct only when half starts at g.size() / 2: a larger start sends ranks
// to partners outside the group, whose temp slots hold whatever was left there.
__device__ float tree_from(const cg::thread_group& g, float* temp, float val, unsigned half) {
  const unsigned rank = g.thread_rank();
  for (; half > 0; half /= 2) {
    temp[rank] = val;
    g.sync();
    if (rank < half) val += temp[rank + half];
    g.sync();
  }
  return val;  // rank 0 holds the sum
}

// final_step 0: thread 0 of the grid adds the partial sums in order.
// final_step 1: the first 32 threads of block 0 form a tile; each adds every 32nd partial sum,
//               then the tile's tree starts at tile32.size() / 2.
// final_step 2: the same tile, but the tree starts at blockDim.x / 2 as in the seed.
__global__ void reduce_grid_sync(const float* input, float* partial, float* total, int final_step) {
  __shared__ float temp[kMaxBlock];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  const float block_sum = tree_from(block, temp, input[grid.thread_rank()], block.size() / 2);
  if (block.thread_rank() == 0) partial[blockIdx.x] = block_sum;

  grid.sync();  // every block has written its partial sum, and all of them are visible

  if (final_step == 0) {
    if (grid.thread_rank() == 0) {
      float sum = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      *total = sum;
    }
    return;
  }
  cg::thread_group tile32 = cg::tiled_partition(block, 32);
  if (blockIdx.x == 0 && block.thread_rank() < 32) {
    float v = 0.0f;
    for (unsigned b = tile32.thread_rank(); b < gridDim.x; b += 32) v += partial[b];
    const unsigned first_half = final_step == 1 ? tile32.size() / 2 : blockDim.x / 2;
    const float sum = tree_from(tile32, temp, v, first_half);
    if (tile32.thread_rank() == 0) *total = sum;
  }
}

// ---- The host side: `nvcc grid_sync.cu && ./a.out` runs the lesson's default launch; coopviz
// passes --backend, --grid, --block and the parameters (lessons/README.md). The kernels above keep
// the line numbers lesson.md cites.

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "lesson_protocol.h"

enum FinalStep { kOneThread = 0, kTile = 1, kSeedBound = 2 };

struct Options {
  LessonLaunch launch;
  long final_step = kTile, launch_mode = 0, data = 1;
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = 8;
  o.launch.block[0] = 256;
  const std::string error =
      parse_lesson_arguments(argc, argv, o.launch,
                             {{"final_step", kOneThread, kSeedBound, &o.final_step},
                              {"launch", 0, 1, &o.launch_mode},
                              {"data", 0, 1 << 30, &o.data}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  if (block[1] != 1 || block[2] != 1 || grid[1] != 1 || grid[2] != 1)
    return "grid-sync uses 1D blocks and grids: got block " + dims_text(block) + ", grid " +
           dims_text(grid);
  const unsigned b = block[0];
  if ((b & (b - 1)) != 0 || b < 32 || b > unsigned(kMaxBlock))
    return "grid-sync needs a power-of-two block of 32 to 1024 threads for its trees: got " +
           std::to_string(b);
  return "";
}

// [SECTION] CPU reference: the kernel's float operations in the kernel's order

// tree_from over one value per rank, with the shared array `temp` as the kernel leaves it.
float cpu_tree_from(std::vector<float> val, std::vector<float>& temp, unsigned half) {
  for (; half > 0; half /= 2) {
    for (size_t r = 0; r < val.size(); ++r) temp[r] = val[r];
    for (size_t r = 0; r < val.size() && r < half; ++r) val[r] = val[r] + temp[r + half];
  }
  return val[0];
}

struct Reference {
  std::vector<float> partial;  // each block's tree sum
  float total = 0;             // what the chosen final step leaves in *total
  float correct_tile = 0;      // what the tile with the right bound leaves (for comparison)
};

Reference cpu_reference(const std::vector<float>& input, unsigned blocks, unsigned block,
                        long final_step) {
  Reference ref;
  std::vector<float> temp0;  // block 0's shared temp after its tree: the seed's bound reads it
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<float> temp(block);
    const std::vector<float> slice(input.begin() + b * block, input.begin() + (b + 1) * block);
    ref.partial.push_back(cpu_tree_from(slice, temp, block / 2));
    if (b == 0) temp0 = temp;
  }
  if (final_step == kOneThread) {
    for (float p : ref.partial) ref.total += p;
    return ref;
  }
  std::vector<float> lane(32, 0.0f);
  for (unsigned b = 0; b < blocks; ++b) lane[b % 32] += ref.partial[b];
  std::vector<float> temp = temp0;
  ref.correct_tile = cpu_tree_from(lane, temp, 16);
  temp = temp0;
  ref.total = final_step == kTile ? ref.correct_tile : cpu_tree_from(lane, temp, block / 2);
  return ref;
}

std::vector<float> random_input(size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (float& x : v) x = uniform(rng);
  return v;
}

// [SECTION] Runs

// The kernel's three buffers for `blocks` blocks, the input uploaded.
struct Buffers {
  float *input = nullptr, *partial = nullptr, *total = nullptr;
  Buffers(const std::vector<float>& in, size_t blocks) {
    cudaMalloc(&input, in.size() * sizeof(float));
    cudaMalloc(&partial, blocks * sizeof(float));
    cudaMalloc(&total, sizeof(float));
    cudaMemcpy(input, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);
  }
  ~Buffers() {
    cudaFree(input);
    cudaFree(partial);
    cudaFree(total);
  }
};

cudaError_t launch_cooperative(unsigned grid, unsigned block, Buffers& b, int final_step) {
  void* args[] = {&b.input, &b.partial, &b.total, &final_step};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)reduce_grid_sync, dim3(grid), dim3(block),
                                              args, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e;
}

std::string error_words(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

// grid.sync() in a normal launch: the emulator stops it and names the line; never on a GPU.
int run_hazard(const Options& o) {
  if (o.launch.gpu)
    return lesson_error(
        "this variant calls grid.sync() in a normal launch on purpose; it runs only on the "
        "emulator, which reports the misuse instead of launching it");
  const unsigned grid = o.launch.grid[0], block = o.launch.block[0];
  Buffers b(random_input(size_t(grid) * block, 1), grid);
  reduce_grid_sync<<<grid, block>>>(b.input, b.partial, b.total, int(o.final_step));
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  // The emulator's own words (the line, the thread) go to stderr and into the trace.
  bool failed = false;
  lesson_check(e != cudaSuccess, "the emulator refuses grid.sync() in a normal launch",
               "the launch refused with an error",
               e == cudaSuccess ? "the launch succeeded" : error_words(e), failed);
  return failed ? 1 : 0;
}

int run(const Options& o) {
  const long final_step = o.final_step;
  const unsigned blocks = o.launch.grid[0], block = o.launch.block[0];
  bool failed = false;

  // The residency limit, from CUDA's occupancy calculator and this kernel's resources on this
  // device (the compiler's report: registers and static shared memory).
  cudaDeviceProp prop;
  cudaFuncAttributes attr;
  int per_sm = 0;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      cudaFuncGetAttributes(&attr, reduce_grid_sync) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_grid_sync, int(block), 0) !=
          cudaSuccess)
    return lesson_error("cannot ask CUDA for reduce_grid_sync's occupancy: " +
                        error_words(cudaGetLastError()));
  // Which resources set that number: cuda_occupancy.h, the same calculation, says why.
  const cudaOccDeviceProp occ_device(prop);
  const cudaOccFuncAttributes occ_kernel(attr);
  const cudaOccDeviceState occ_state;
  cudaOccResult occ{};
  cudaOccMaxActiveBlocksPerMultiprocessor(&occ, &occ_device, &occ_kernel, &occ_state, int(block),
                                          0);
  const std::string limiting = occupancy_limiters(occ.limitingFactors);
  const unsigned long most = (unsigned long)per_sm * prop.multiProcessorCount;
  lesson_result("resident blocks per SM", std::to_string(per_sm) + " (limited by " + limiting +
                                              "; " + std::to_string(attr.numRegs) +
                                              " registers/thread, " +
                                              std::to_string(attr.sharedSizeBytes) +
                                              " B static shared memory)");
  lesson_result("largest cooperative grid", std::to_string(per_sm) + " x " +
                                                std::to_string(prop.multiProcessorCount) +
                                                " SMs = " + std::to_string(most) + " blocks");

  // The traced single-pass reduction.
  const std::vector<float> input = random_input(size_t(blocks) * block, unsigned(o.data));
  {
    Buffers b(input, blocks);
    if (cudaError_t e = launch_cooperative(blocks, block, b, int(final_step)); e != cudaSuccess)
      return lesson_error("reduce_grid_sync: " + error_words(e));
    std::vector<float> partial(blocks);
    float got = 0;
    cudaMemcpy(partial.data(), b.partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(&got, b.total, sizeof(float), cudaMemcpyDeviceToHost);
    const Reference ref = cpu_reference(input, blocks, block, final_step);
    size_t same = 0;
    for (unsigned i = 0; i < blocks; ++i) same += partial[i] == ref.partial[i];
    lesson_check(same == blocks, "partial sums equal the CPU's block trees, bit for bit",
                 count_of(blocks, blocks), count_of(same, blocks), failed);
    const char* step_name[] = {"one thread's loop", "the 32-thread tile", "the seed's tile bound"};
    lesson_check(got == ref.total,
                 std::string("the total equals the CPU's model of ") + step_name[final_step] +
                     ", bit for bit",
                 format_float(ref.total), format_float(got), failed);
    double exact = 0;
    for (float x : input) exact += x;
    if (final_step == kSeedBound) {
      const bool differs = got != ref.correct_tile || block == 32;
      lesson_check(differs, "the seed's bound blockDim.x / 2 adds values from outside the tile",
                   "a total different from the correct tile's " + format_float(ref.correct_tile),
                   format_float(got) +
                       (block == 32 ? " (with 32-thread blocks both bounds are 16)" : ""),
                   failed);
    } else {
      const double bound = (std::log2(double(block)) + blocks) * std::ldexp(1.0, -24) * exact;
      lesson_check(std::fabs(got - exact) <= bound,
                   "the total is within float rounding of the exact sum",
                   "|total - " + format_float(exact, 12) + "| <= " + format_float(bound, 3),
                   format_float(got), failed);
    }
    lesson_result("total / exact", format_float(got) + " / " + format_float(exact, 12));
  }

  // One block more than can be resident: the launch is refused before it starts.
  Buffers big(std::vector<float>((most + 1) * block, 1.0f), most + 1);
  const cudaError_t refused = launch_cooperative(unsigned(most + 1), block, big, kTile);
  lesson_check(refused == cudaErrorCooperativeLaunchTooLarge,
               "a grid of " + std::to_string(most + 1) + " blocks is refused",
               "refused with cudaErrorCooperativeLaunchTooLarge",
               refused == cudaSuccess ? "the launch succeeded" : error_words(refused), failed);
  lesson_result("launching " + std::to_string(most + 1) + " blocks",
                refused == cudaSuccess ? "accepted" : error_words(refused));

  // The largest legal grid, untraced (lesson.json's trace_threads_max): a GPU launches every
  // block at once.
  const std::string largest = "the largest cooperative grid launches and sums correctly";
  if (!o.launch.gpu) {
    lesson_skip(largest, std::to_string(most) + " co-resident blocks",
                "run on a GPU only: the emulator would keep " + std::to_string(most * block) +
                    " fibers resident at once");
  } else {
    cudaEvent_t begin, end;
    cudaEventCreate(&begin);
    cudaEventCreate(&end);
    cudaEventRecord(begin);
    const cudaError_t ran = launch_cooperative(unsigned(most), block, big, kTile);
    cudaEventRecord(end);
    cudaEventSynchronize(end);
    float ms = 0, sum = 0;
    cudaEventElapsedTime(&ms, begin, end);
    cudaMemcpy(&sum, big.total, sizeof(float), cudaMemcpyDeviceToHost);
    const double want = double(most) * block;
    lesson_check(ran == cudaSuccess && double(sum) == want, largest, format_float(want, 12),
                 ran != cudaSuccess ? error_words(ran) : format_float(sum, 12), failed);
    lesson_result("GPU time of the largest grid", format_float(ms, 4) + " ms");
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
  }
  return failed ? 1 : 0;
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string error = parse(argc, argv, o); !error.empty()) return lesson_error(error);
  return o.launch_mode == 1 ? run_hazard(o) : run(o);
}
