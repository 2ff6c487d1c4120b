// Occupancy, predicted and then measured: every block counts how many blocks share its SM while
// it runs; a second kernel keeps many values live so the compiler needs many registers, which is
// what --maxrregcount trades against spills to local memory. An ordinary CUDA program (see the
// end).
#include <cooperative_groups.h>

#include <cstdint>

namespace cg = cooperative_groups;

constexpr int kLiveValues = 40;  // values each thread of many_live_values keeps in flight

// The SM the calling thread's block runs on (%smid). A block never moves between SMs.
__device__ unsigned this_sm_id() {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

// A chain of dependent integer steps: time passes, and the compiler cannot skip or shorten it.
__device__ uint32_t busy_work(uint32_t seed, int steps) {
  for (int s = 0; s < steps; ++s) seed = seed * 1664525u + 1013904223u;
  return seed;
}

// Thread 0 announces its block on the SM, notes the most blocks it has seen there at once, and
// works for a while so that blocks on the same SM overlap. The first barrier keeps every warp of
// the block resident until thread 0 is done; the last one keeps them until thread 0 has counted
// the block out: warps that leave early free their slots, and the SM may start the next block
// while thread 0 still runs. The counters have one slot per possible %smid value (sm_slots of
// them).
__global__ void count_resident(unsigned* resident_now, unsigned* resident_peak, unsigned sm_slots,
                               uint32_t* sink, int work) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned sm = this_sm_id() % sm_slots;
  if (block.thread_rank() == 0) {
    const unsigned here = atomicAdd(&resident_now[sm], 1u) + 1u;
    atomicMax(&resident_peak[sm], here);
    sink[blockIdx.x] = busy_work(blockIdx.x, work);
  }
  block.sync();  // the block is resident until thread 0's work is done
  if (block.thread_rank() == 0) atomicSub(&resident_now[sm], 1u);
  block.sync();  // no warp leaves before the block is counted out
}

// Each thread mixes kLiveValues numbers for `rounds` rounds; every value is needed until the end,
// so they all want a register at once. Integer arithmetic keeps the result exact everywhere.
__global__ void many_live_values(const uint32_t* input, uint32_t* output, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v[kLiveValues];
  for (int k = 0; k < kLiveValues; ++k) v[k] = input[i] * 2654435761u + uint32_t(k);
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kLiveValues; ++k)
      v[k] = (v[k] ^ (v[(k + 7) % kLiveValues] >> 3)) * 0x9E3779B1u + uint32_t(r);
  uint32_t h = 2166136261u;
  for (int k = 0; k < kLiveValues; ++k) h = (h ^ v[k]) * 16777619u;
  output[i] = h;
}

// ---- The host side: `nvcc occupancy.cu && ./a.out` runs the lesson's default launch; coopviz
// passes --backend, the parameters, and --grid and --block when they were given (lessons/README.md).
// Each block's start and finish are in coopviz's trace because lesson.json says "records_blocks";
// the compiler's report under each --maxrregcount cap comes from lesson.json's "register_caps",
// which coopviz builds: a program cannot read its own compiler's report.

#include <algorithm>
#include <string>
#include <vector>

#include "lesson_protocol.h"

constexpr unsigned kMaxGrid = 65535;  // one sink slot per block of a 1D grid
constexpr unsigned kSmSlots = 1024;   // %smid is below this on every GPU coopviz knows
constexpr unsigned kPressureBlock = 256, kPressureBlocks = 32;

struct Example {
  unsigned threads, smem_kb;
};
// The Programming Guide's examples; example 0 is the launch as given, with smem_kb.
const Example kExamples[] = {{0, 0}, {768, 0}, {32, 0}, {256, 100}};

struct Options {
  LessonLaunch launch;
  long example = 1, smem_kb = 0, work = 20000, waves = 2, rounds = 8;
  unsigned block = 768, smem = 0;  // the launch the example stands for
};

// Empty when the arguments are good, else what is wrong.
std::string parse(int argc, char** argv, Options& o) {
  o.launch.grid[0] = o.launch.block[0] = 0;  // 0: not given
  const std::string error = parse_lesson_arguments(argc, argv, o.launch,
                                                   {{"example", 0, 3, &o.example},
                                                    {"smem_kb", 0, 227, &o.smem_kb},
                                                    {"work", 1, 10000000, &o.work},
                                                    {"waves", 1, 8, &o.waves},
                                                    {"rounds", 1, 64, &o.rounds}});
  if (!error.empty()) return error;
  const unsigned *grid = o.launch.grid, *block = o.launch.block;
  // The example's block unless a block was given; example 0 without one: the lesson's 768.
  const Example& e = kExamples[o.example];
  o.block = block[0] ? block[0] : e.threads ? e.threads : 768;
  o.smem = unsigned(e.threads ? e.smem_kb : o.smem_kb) * 1024;
  if (block[0] && (block[1] != 1 || block[2] != 1))
    return "occupancy uses 1D blocks: got " + dims_text(block);
  if (o.block > 1024)
    return "occupancy: a block of " + std::to_string(o.block) + " threads exceeds 1024";
  if (grid[0] && (grid[1] != 1 || grid[2] != 1 || grid[0] > kMaxGrid))
    return "occupancy counts the blocks of a 1D grid of at most 65535 blocks: got grid " +
           dims_text(grid);
  return "";
}

std::string pct(double v) { return format_fixed(v * 100, 1) + " %"; }

std::string error_words(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

// What limits the blocks per SM, in cuda_occupancy.h's words, the occupancy it gives, and the
// blocks per SM: the same calculation as the runtime's occupancy API, which says only how many.
struct Prediction {
  int blocks = 0;
  double occupancy = 0;
  std::string limiting;  // "warps", or those that tie: "warps, registers"
};

Prediction predict(const cudaOccDeviceProp& device, const cudaOccFuncAttributes& kernel,
                   int threads, size_t smem) {
  const cudaOccDeviceState state;
  cudaOccResult r{};
  Prediction p;
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &device, &kernel, &state, threads, smem) !=
      CUDA_OCC_SUCCESS)
    return p;
  p.blocks = r.activeBlocksPerMultiprocessor;
  const int warps = (threads + device.warpSize - 1) / device.warpSize;
  p.occupancy = double(p.blocks * warps) / (device.maxThreadsPerMultiprocessor / device.warpSize);
  p.limiting = occupancy_limiters(r.limitingFactors);
  return p;
}

// Predict, then check, on the model alone: the Programming Guide's compute capability 10.0 cases
// (its table of an SM: 2048 threads, 32 blocks, 64 K registers, 228 KB shared memory of which a
// block may opt in to 227 KB, 1 KB reserved per block) for a kernel of 16 registers.
void check_worked_examples(bool& failed) {
  cudaOccDeviceProp cc10;
  cc10.computeMajor = 10;
  cc10.computeMinor = 0;
  cc10.maxThreadsPerBlock = 1024;
  cc10.maxThreadsPerMultiprocessor = 2048;
  cc10.regsPerBlock = cc10.regsPerMultiprocessor = 65536;
  cc10.warpSize = 32;
  cc10.sharedMemPerBlock = 48 * 1024;
  cc10.sharedMemPerMultiprocessor = 228 * 1024;
  cc10.sharedMemPerBlockOptin = 227 * 1024;
  cc10.reservedSharedMemPerBlock = 1024;
  cc10.numSms = 148;
  cudaOccFuncAttributes kernel;
  kernel.maxThreadsPerBlock = 1024;
  kernel.numRegs = 16;
  kernel.sharedSizeBytes = 0;
  kernel.partitionedGCConfig = PARTITIONED_GC_OFF;
  kernel.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  kernel.maxDynamicSharedSizeBytes = 227 * 1024;
  kernel.numBlockBarriers = 1;
  const struct {
    int threads;
    size_t smem;
    int blocks;
    double occupancy;
  } cases[] = {{768, 0, 2, 0.75}, {32, 0, 32, 0.5}, {256, 100 * 1024, 2, 0.25}};
  for (const auto& c : cases) {
    const Prediction p = predict(cc10, kernel, c.threads, c.smem);
    lesson_check(p.blocks == c.blocks && p.occupancy == c.occupancy,
                 "model, cc 10.0, " + std::to_string(c.threads) + " threads" +
                     (c.smem ? ", 100 KB shared" : ""),
                 std::to_string(c.blocks) + " blocks/SM, " + pct(c.occupancy),
                 std::to_string(p.blocks) + " blocks/SM, " + pct(p.occupancy) + " (limited by " +
                     (p.limiting.empty() ? "-" : p.limiting.substr(0, p.limiting.find(','))) +
                     ")",
                 failed);
  }
}

// count_resident's blocks per SM, predicted from its registers and shared memory, then (on a GPU)
// measured; on the emulator, which does not model residency, the schedule the prediction implies.
int measure_residency(const Options& o, bool& failed) {
  cudaDeviceProp prop;
  cudaFuncAttributes attr;
  int per_sm = 0;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      cudaFuncSetAttribute(count_resident, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(o.smem)) != cudaSuccess ||
      cudaFuncGetAttributes(&attr, count_resident) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_resident, int(o.block),
                                                    o.smem) != cudaSuccess)
    return lesson_error("cannot ask CUDA for count_resident's occupancy: " +
                        error_words(cudaGetLastError()));
  if (per_sm == 0)
    return lesson_error("a block of " + std::to_string(o.block) + " threads with " +
                        std::to_string(o.smem) + " bytes of dynamic shared memory does not fit "
                        "on an SM");
  const Prediction predicted =
      predict(cudaOccDeviceProp(prop), cudaOccFuncAttributes(attr), int(o.block), o.smem);
  const unsigned sms = unsigned(prop.multiProcessorCount);
  // `waves` full waves of the device, unless a grid was given.
  const unsigned blocks =
      o.launch.grid[0] ? o.launch.grid[0]
                       : unsigned(std::min<unsigned long>((unsigned long)per_sm * sms * o.waves,
                                                          kMaxGrid));

  unsigned *resident_now, *resident_peak;
  uint32_t* sink;
  cudaMalloc(&resident_now, kSmSlots * sizeof(unsigned));
  cudaMalloc(&resident_peak, kSmSlots * sizeof(unsigned));
  cudaMalloc(&sink, blocks * sizeof(uint32_t));
  cudaMemset(resident_now, 0, kSmSlots * sizeof(unsigned));
  cudaMemset(resident_peak, 0, kSmSlots * sizeof(unsigned));
  count_resident<<<blocks, o.block, o.smem>>>(resident_now, resident_peak, kSmSlots, sink,
                                              int(o.work));
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::vector<unsigned> peak(kSmSlots);
  cudaMemcpy(peak.data(), resident_peak, kSmSlots * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (void* p : {(void*)resident_now, (void*)resident_peak, (void*)sink}) cudaFree(p);
  if (e != cudaSuccess) return lesson_error("count_resident: " + error_words(e));

  unsigned most = 0, fewest = ~0u, sms_used = 0;
  for (unsigned p : peak)
    if (p > 0) {
      most = std::max(most, p);
      fewest = std::min(fewest, p);
      ++sms_used;
    }
  const std::string want = std::to_string(per_sm);
  lesson_result("count_resident launch", std::to_string(blocks) + " blocks of " +
                                             std::to_string(o.block) + " threads, " +
                                             std::to_string(o.smem) +
                                             " bytes of dynamic shared memory");
  lesson_result("count_resident resources",
                std::to_string(attr.numRegs) + " registers/thread, " +
                    std::to_string(attr.sharedSizeBytes) + " bytes static shared memory");
  lesson_result("count_resident blocks per SM, predicted",
                want + " (" + pct(predicted.occupancy) + ", limited by " +
                    predicted.limiting + ")");
  // coopviz places the trace's blocks by this schedule (on the emulator) or checks the measured
  // block records against its limit (on a GPU).
  printf("[schedule] count_resident: %d blocks per SM on %u SMs\n", per_sm, sms);
  if (o.launch.gpu) {
    lesson_result("count_resident blocks per SM, measured",
                  std::to_string(fewest) + ".." + std::to_string(most) + " over " +
                      std::to_string(sms_used) + " SMs");
    lesson_check(int(most) <= per_sm, "no SM ever held more blocks than predicted",
                 "at most " + want, "at most " + std::to_string(most), failed);
    lesson_check(int(most) == per_sm, "some SM filled up to the prediction", want,
                 std::to_string(most), failed);
  } else {
    lesson_skip("measured peak blocks per SM equals the prediction", want,
                "the emulator does not model residency; run on a GPU to measure it");
    // The waves the prediction implies, every block one unit of work: the block scheduler hands
    // blocks out in order, one to each SM in turn, until every SM holds per_sm of them.
    const unsigned wave = unsigned(per_sm) * sms;
    for (unsigned b = 0; b < blocks; ++b)
      printf("[schedule] count_resident: block %u on SM %u from %u to %u\n", b, b % sms, b / wave,
             b / wave + 1);
  }
  return 0;
}

uint32_t cpu_many_live_values(uint32_t x, int rounds) {
  uint32_t v[kLiveValues];
  for (int k = 0; k < kLiveValues; ++k) v[k] = x * 2654435761u + uint32_t(k);
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kLiveValues; ++k)
      v[k] = (v[k] ^ (v[(k + 7) % kLiveValues] >> 3)) * 0x9E3779B1u + uint32_t(r);
  uint32_t h = 2166136261u;
  for (int k = 0; k < kLiveValues; ++k) h = (h ^ v[k]) * 16777619u;
  return h;
}

// The register-hungry kernel against the CPU, bit for bit.
int register_pressure(const Options& o, bool& failed) {
  const size_t n = size_t(kPressureBlock) * kPressureBlocks;
  std::vector<uint32_t> in(n), got(n);
  for (size_t i = 0; i < n; ++i) in[i] = uint32_t(i * 7919u + 17u);
  uint32_t *input, *output;
  cudaMalloc(&input, n * sizeof(uint32_t));
  cudaMalloc(&output, n * sizeof(uint32_t));
  cudaMemcpy(input, in.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice);
  many_live_values<<<kPressureBlocks, kPressureBlock>>>(input, output, int(o.rounds));
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  cudaMemcpy(got.data(), output, n * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(input);
  cudaFree(output);
  if (e != cudaSuccess) return lesson_error("many_live_values: " + error_words(e));
  size_t right = 0;
  for (size_t i = 0; i < n; ++i) right += got[i] == cpu_many_live_values(in[i], int(o.rounds));
  lesson_check(right == n, "many_live_values equals the CPU reference, bit for bit",
               count_of(n, n), count_of(right, n), failed);
  return 0;
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string error = parse(argc, argv, o); !error.empty()) return lesson_error(error);
  bool failed = false;
  check_worked_examples(failed);
  if (int refused = measure_residency(o, failed)) return refused;
  if (int refused = register_pressure(o, failed)) return refused;
  return failed ? 1 : 0;
}
