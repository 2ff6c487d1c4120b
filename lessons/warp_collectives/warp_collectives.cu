// The warp-collectives lesson as an ordinary CUDA program: warp_collectives.cuh's two kernels
// (shuffles, votes and matches in lanes_move; the shfl_down tree in warp_sum), the lesson's values
// and its checks against a CPU reference. Run plainly (`nvcc warp_collectives.cu && ./a.out`) it
// runs the lesson's defaults; coopviz passes the launch and every parameter:
//   --backend=emulator|gpu --grid=X --block=X --src=N --delta=N --xor=N --values=N --data=N
// Each check prints one line "[pass] NAME: expected E, got G" ("[FAIL]" when it fails), each
// result "[result] NAME = VALUE"; the exit status is 1 when a check failed, 2 for arguments it
// cannot run (one line "error: ..." on stderr).
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kSlots = 10;  // results per lane in lanes_move

// Every lane starts with one value (by default 100 + its lane, so each number says where it came
// from) and records what each collective handed back to it.
__global__ void lanes_move(const int* in, int* out, int src, int delta, int lane_mask) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  int* o = out + i * kSlots;
  o[0] = warp.shfl(v, src);            // every lane reads lane src
  o[1] = warp.shfl_up(v, delta);       // lane l reads lane l - delta; lanes below delta keep v
  o[2] = warp.shfl_down(v, delta);     // lane l reads lane l + delta; lanes past 31 - delta keep v
  o[3] = warp.shfl_xor(v, lane_mask);  // lane l reads lane l ^ lane_mask: pairs swap
  // Votes: each lane puts in a yes or no and everyone gets the same answer back.
  o[4] = warp.any(v == 117);
  o[5] = warp.all(v >= 100);
  o[6] = int(warp.ballot(v % 2 == 0));  // bit l is lane l's vote
  // Matches: which lanes hold the same key as mine?
  const int key = v % 4;
  o[7] = int(warp.match_any(key));
  int all_same = 0;
  o[8] = int(warp.match_all(key, all_same));
  o[9] = all_same;
}

// The classic warp sum. Each step lane l adds the value `offset` lanes above it; after five
// steps (offsets 16, 8, 4, 2, 1) lane 0 holds the sum of all 32. A static tile knows its size at
// compile time, so the loop unrolls and no shared memory or barrier is needed.
__global__ void warp_sum(const int* in, int* partial, int* sums) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int offset = warp.size() / 2; offset > 0; offset /= 2) v += warp.shfl_down(v, offset);
  partial[i] = v;  // only lane 0's value is the whole sum; the others hold partial sums
  if (warp.thread_rank() == 0) sums[i / 32] = v;
}

// [SECTION] The run's settings, from the command line

struct Settings {
  unsigned grid = 1, block = 64;
  long long src = 5, delta = 2, lane_mask = 1, values = 0, data = 1;
};

// Empty when the run can go ahead, else what is wrong and the limit.
std::string parse(int argc, char** argv, Settings& s) {
  struct Param {
    const char* name;
    long long* value;
    long long min, max;
  } params[] = {{"src", &s.src, 0, 31},
                {"delta", &s.delta, 0, 31},
                {"xor", &s.lane_mask, 0, 31},
                {"values", &s.values, 0, 2},
                {"data", &s.data, 0, 1 << 30}};
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    const char* eq = std::strchr(arg, '=');
    const std::string name = eq && std::strncmp(arg, "--", 2) == 0 ? std::string(arg + 2, eq) : "";
    const char* value = eq ? eq + 1 : "";
    if (name == "backend") {
      if (std::strcmp(value, "emulator") != 0 && std::strcmp(value, "gpu") != 0)
        return std::string("--backend is emulator or gpu: got ") + value;
      continue;
    }
    char* end = nullptr;
    if (name == "grid" || name == "block") {
      // The kernels index by blockIdx.x and threadIdx.x alone: a 1D launch.
      const unsigned long x = std::strtoul(value, &end, 10);
      if (end == value || *end != '\0' || x == 0 || x > 0xffffffffUL)
        return "warp-collectives uses 1D blocks and grids: got --" + name + "=" + value;
      (name == "grid" ? s.grid : s.block) = unsigned(x);
      continue;
    }
    Param* p = nullptr;
    for (Param& q : params) p = name == q.name ? &q : p;
    if (!p)
      return std::string("unknown argument ") + arg +
             " (warp-collectives takes --backend, --grid, --block, --src, --delta, --xor, "
             "--values, --data)";
    const long long v = std::strtoll(value, &end, 10);
    if (end == value || *end != '\0' || v < p->min || v > p->max)
      return "parameter " + name + " = " + value + " is outside " + std::to_string(p->min) + ".." +
             std::to_string(p->max);
    *p->value = v;
  }
  // The lesson's launch rules.
  if (s.block % 32 != 0)
    return "warp-collectives works on whole warps: block size " + std::to_string(s.block) +
           " is not a multiple of 32";
  if (s.grid > 1024)
    return "warp-collectives allows at most 1024 blocks: got " + std::to_string(s.grid);
  return "";
}

// [SECTION] CPU reference: what each lane of one warp gets back

std::vector<int> cpu_lanes_move(const int* v, int src, int delta, int lane_mask) {
  std::vector<int> out(32 * kSlots);
  bool any = false, all = true;
  unsigned ballot = 0;
  for (int l = 0; l < 32; ++l) {
    any |= v[l] == 117;
    all &= v[l] >= 100;
    if (v[l] % 2 == 0) ballot |= 1u << l;
  }
  unsigned same_everywhere = ~0u;
  for (int l = 0; l < 32; ++l)
    if (v[l] % 4 != v[0] % 4) same_everywhere = 0;
  for (int l = 0; l < 32; ++l) {
    unsigned match = 0;
    for (int o = 0; o < 32; ++o)
      if (v[o] % 4 == v[l] % 4) match |= 1u << o;
    const int row[kSlots] = {v[src],
                             l >= delta ? v[l - delta] : v[l],
                             l + delta < 32 ? v[l + delta] : v[l],
                             v[l ^ lane_mask],
                             int(any),
                             int(all),
                             int(ballot),
                             int(match),
                             int(same_everywhere),
                             same_everywhere != 0};
    std::copy(row, row + kSlots, &out[size_t(l) * kSlots]);
  }
  return out;
}

// The shfl_down tree exactly as the kernel runs it, every lane's value after the last step.
std::vector<int> cpu_warp_tree(const int* in) {
  std::vector<int> v(in, in + 32), next(32);
  for (int offset = 16; offset > 0; offset /= 2) {
    for (int l = 0; l < 32; ++l) next[l] = v[l] + (l + offset < 32 ? v[l + offset] : v[l]);
    v = next;
  }
  return v;
}

// Lanes 0..31 of one warp: v[first], v[first + stride], ...
std::string lanes(const std::vector<int>& v, size_t first, size_t stride, bool hex = false) {
  std::string s;
  for (size_t l = 0; l < 32; ++l) {
    char buf[16];
    std::snprintf(buf, sizeof buf, hex ? "%08x" : "%d", v[first + l * stride]);
    s += (l ? " " : "") + std::string(buf);
  }
  return s;
}

std::string count_of(size_t good, size_t all) {
  return std::to_string(good) + " of " + std::to_string(all);
}

bool report(const std::string& name, const std::string& expected, const std::string& got,
            bool pass) {
  std::printf("[%s] %s: expected %s, got %s\n", pass ? "pass" : "FAIL", name.c_str(),
              expected.c_str(), got.c_str());
  return pass;
}

void result(const std::string& name, const std::string& value) {
  std::printf("[result] %s = %s\n", name.c_str(), value.c_str());
}

bool launched(const char* kernel) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) std::fprintf(stderr, "error: %s: %s\n", kernel, cudaGetErrorString(e));
  return e == cudaSuccess;
}

int main(int argc, char** argv) {
  Settings s;
  if (const std::string wrong = parse(argc, argv, s); !wrong.empty()) {
    std::fprintf(stderr, "error: %s\n", wrong.c_str());
    return 2;
  }
  const int src = int(s.src), delta = int(s.delta), lane_mask = int(s.lane_mask);
  const size_t n = size_t(s.grid) * s.block, warps = n / 32;

  // values=0: 100 + lane; 1: random 100..139; 2: one value per warp (100 + warp index).
  std::vector<int> values(n);
  std::mt19937 rng(uint32_t(s.data));
  for (size_t i = 0; i < n; ++i)
    values[i] = s.values == 0   ? 100 + int(i % 32)
                : s.values == 1 ? 100 + int(rng() % 40)
                                : 100 + int(i / 32 % 100);

  int *in, *out, *partial, *sums;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * kSlots * sizeof(int));
  cudaMalloc(&partial, n * sizeof(int));
  cudaMalloc(&sums, warps * sizeof(int));
  cudaMemcpy(in, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * kSlots * sizeof(int));
  cudaMemset(partial, 0, n * sizeof(int));
  cudaMemset(sums, 0, warps * sizeof(int));
  bool passed = true;

  // Shuffles, votes and matches: every lane's ten results against the CPU's.
  lanes_move<<<s.grid, s.block>>>(in, out, src, delta, lane_mask);
  if (!launched("lanes_move")) return 2;
  std::vector<int> got(n * kSlots);
  cudaMemcpy(got.data(), out, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<size_t> good(kSlots, 0);
  for (size_t w = 0; w < warps; ++w) {
    const std::vector<int> expect = cpu_lanes_move(&values[w * 32], src, delta, lane_mask);
    for (size_t l = 0; l < 32; ++l)
      for (int k = 0; k < kSlots; ++k)
        good[size_t(k)] += expect[l * kSlots + size_t(k)] == got[(w * 32 + l) * kSlots + size_t(k)];
  }
  const char* const slot_names[kSlots] = {
      "shfl", "shfl_up", "shfl_down", "shfl_xor",  "any",
      "all",  "ballot",  "match_any", "match_all", "match_all's predicate"};
  for (int k = 0; k < kSlots; ++k)
    passed &= report(std::string(slot_names[k]) + ": every lane got what the CPU predicts",
                     count_of(n, n) + " lanes", count_of(good[size_t(k)], n) + " lanes",
                     good[size_t(k)] == n);
  result("warp 0 values, lanes 0..31", lanes(values, 0, 1));
  result("shfl(v, " + std::to_string(src) + ")", lanes(got, 0, kSlots));
  result("shfl_up(v, " + std::to_string(delta) + ")", lanes(got, 1, kSlots));
  result("shfl_down(v, " + std::to_string(delta) + ")", lanes(got, 2, kSlots));
  result("shfl_xor(v, " + std::to_string(lane_mask) + ")", lanes(got, 3, kSlots));
  result("any(v == 117), all(v >= 100)", std::to_string(got[4]) + ", " + std::to_string(got[5]));
  result("ballot(v % 2 == 0)", lanes(got, 6, kSlots, true).substr(0, 8));
  result("match_any(v % 4), lanes 0..31", lanes(got, 7, kSlots, true));
  result("match_all(v % 4): mask, predicate",
         lanes(got, 8, kSlots, true).substr(0, 8) + ", " + std::to_string(got[9]));

  // The shfl_down tree: lane 0's sum and every lane's partial sum.
  warp_sum<<<s.grid, s.block>>>(in, partial, sums);
  if (!launched("warp_sum")) return 2;
  std::vector<int> got_partial(n), got_sums(warps);
  cudaMemcpy(got_partial.data(), partial, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_sums.data(), sums, warps * sizeof(int), cudaMemcpyDeviceToHost);
  size_t good_sums = 0, good_lanes = 0;
  for (size_t w = 0; w < warps; ++w) {
    int sum = 0;
    for (size_t l = 0; l < 32; ++l) sum += values[w * 32 + l];
    good_sums += got_sums[w] == sum;
    const std::vector<int> tree = cpu_warp_tree(&values[w * 32]);
    for (size_t l = 0; l < 32; ++l) good_lanes += got_partial[w * 32 + l] == tree[l];
  }
  passed &= report("lane 0 holds its warp's sum after five shfl_down steps",
                   count_of(warps, warps) + " warps", count_of(good_sums, warps) + " warps",
                   good_sums == warps);
  passed &= report("every other lane holds the partial sum the CPU tree predicts",
                   count_of(n, n) + " lanes", count_of(good_lanes, n) + " lanes", good_lanes == n);
  std::string first_sums;
  for (size_t w = 0; w < warps && w < 8; ++w)
    first_sums += (w ? " " : "") + std::to_string(got_sums[w]);
  result("warp sums", first_sums);
  result("warp 0 lanes after the tree", lanes(got_partial, 0, 1));
  cudaFree(in);
  cudaFree(out);
  cudaFree(partial);
  cudaFree(sums);
  return passed ? 0 : 1;
}
