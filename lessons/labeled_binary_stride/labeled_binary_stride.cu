// The labeled-binary-stride lesson as an ordinary CUDA program: labeled_binary_stride.cuh's kernel,
// the lesson's colours (mt19937 seeded with `data`, uniform over `labels` colours) and its checks
// against a CPU reference. Run plainly (`nvcc labeled_binary_stride.cu && ./a.out`) it runs the
// lesson's defaults; coopviz passes the launch and every parameter:
//   --backend=emulator|gpu --grid=X[,Y[,Z]] --block=X[,Y[,Z]] --labels=N --stride=N --data=N
// Each check prints one line "[pass] NAME: expected E, got G" ("[FAIL]" when it fails), each
// result "[result] NAME = VALUE"; the exit status is 1 when a check failed, 2 for arguments it
// cannot run (one line "error: ..." on stderr).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

// CUDA 13's headers lack the programming guide's stride_partition, which coopviz provides (and
// traces as stride groups). Built by plain nvcc, the program makes the same groups the way coopviz
// does: a labeled partition by thread_rank() % n. COOP_BYO_RUNTIME and COOP_BYO_ENTRY are defined
// when coopviz builds the program, for its emulator and for a GPU.
#if !defined(COOP_BYO_RUNTIME) && !defined(COOP_BYO_ENTRY)
namespace cooperative_groups {
template <class Group>
__device__ coalesced_group stride_partition(const Group& parent, unsigned int n) {
  return labeled_partition(parent, parent.thread_rank() % n);
}
}  // namespace cooperative_groups
#endif

constexpr int kFacts = 8;  // ints each thread writes

__global__ void split_by_label(const int* colour, int* facts, int stride) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = grid.thread_rank();
  const int lane = warp.thread_rank();
  int* mine = facts + i * kFacts;

  // The lanes of this warp that hold the same colour form one group.
  cg::coalesced_group same = cg::labeled_partition(warp, colour[i]);
  mine[0] = same.thread_rank();
  mine[1] = same.num_threads();
  mine[2] = same.meta_group_rank();                   // groups numbered by their first lane
  mine[3] = cg::reduce(same, lane, cg::less<int>());  // that first lane: the group's leader

  // Odd and even lanes: a partition by a true/false label.
  cg::coalesced_group parity = cg::binary_partition(warp, lane % 2 == 1);
  mine[4] = parity.thread_rank();
  mine[5] = parity.meta_group_rank();

  // The guide's stride partition: lanes dealt round-robin, lane r to group r % stride.
  cg::coalesced_group dealt = cg::stride_partition(warp, stride);
  mine[6] = dealt.thread_rank();
  mine[7] = dealt.num_threads();
}

// [SECTION] The run's settings, from the command line

struct Settings {
  dim3 grid{2}, block{64};
  long long labels = 3, stride = 4, data = 1;
};

// "X", "X,Y" or "X,Y,Z", each at least 1.
bool parse_dim(const char* text, dim3& d) {
  unsigned v[3] = {1, 1, 1};
  int count = 0;
  for (const char* p = text; count < 3; ++p) {
    char* end = nullptr;
    const unsigned long x = std::strtoul(p, &end, 10);
    if (end == p || x == 0 || x > 0xffffffffUL) return false;
    v[count++] = unsigned(x);
    p = end;
    if (*p == '\0') {
      d = dim3(v[0], v[1], v[2]);
      return true;
    }
    if (*p != ',') return false;
  }
  return false;
}

// "X", "X,Y" or "X,Y,Z" as the arguments write a launch's sizes.
std::string dims(dim3 d) {
  std::string s = std::to_string(d.x);
  if (d.y != 1 || d.z != 1) s += "," + std::to_string(d.y);
  if (d.z != 1) s += "," + std::to_string(d.z);
  return s;
}

// Empty when the run can go ahead, else what is wrong and the limit.
std::string parse(int argc, char** argv, Settings& s) {
  struct Param {
    const char* name;
    long long* value;
    long long min, max;
  } params[] = {
      {"labels", &s.labels, 1, 8}, {"stride", &s.stride, 1, 32}, {"data", &s.data, 0, 1 << 30}};
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
    if (name == "grid" || name == "block") {
      if (!parse_dim(value, name == "grid" ? s.grid : s.block))
        return "--" + name + " takes X, X,Y or X,Y,Z, each at least 1: got " + value;
      continue;
    }
    Param* p = nullptr;
    for (Param& q : params) p = name == q.name ? &q : p;
    char* end = nullptr;
    const long long v = p ? std::strtoll(value, &end, 10) : 0;
    if (!p)
      return std::string("unknown argument ") + arg +
             " (labeled-binary-stride takes --backend, --grid, --block, --labels, --stride, "
             "--data)";
    if (end == value || *end != '\0' || v < p->min || v > p->max)
      return "parameter " + name + " = " + value + " is outside " + std::to_string(p->min) + ".." +
             std::to_string(p->max);
    *p->value = v;
  }
  // The lesson's launch rules.
  const unsigned long long per_block = 1ull * s.block.x * s.block.y * s.block.z;
  const unsigned long long threads = per_block * s.grid.x * s.grid.y * s.grid.z;
  if (per_block % 32 != 0)
    return "labeled-binary-stride cuts each block into warp tiles of 32: block " + dims(s.block) +
           " has " + std::to_string(per_block) + " threads, not a multiple of 32";
  if (threads > (1u << 20))
    return "labeled-binary-stride records every thread: at most 1048576 threads, got " +
           std::to_string(threads);
  return "";
}

// [SECTION] CPU reference and checks

// What split_by_label must report for lane `lane` of a warp whose lanes carry `labels`: the group
// of lanes sharing a label, ranked in lane order, groups numbered by first lane, then the odd/even
// halves and the stride classes.
std::vector<int> expected_facts(const int* labels, int lane, int stride) {
  int rank = 0, size = 0, leader = -1;
  for (int l = 0; l < 32; ++l)
    if (labels[l] == labels[lane]) {
      if (leader < 0) leader = l;
      ++size;
      rank += l < lane;
    }
  int meta = 0;  // groups whose first lane comes before this group's first lane
  for (int l = 0; l < leader; ++l) {
    bool first_of_its_label = true;
    for (int k = 0; k < l; ++k) first_of_its_label &= labels[k] != labels[l];
    meta += first_of_its_label;
  }
  const int residue = lane % stride;
  const int dealt_size = (32 - residue + stride - 1) / stride;
  return {rank, size, meta, leader, lane / 2, lane % 2, lane / stride, dealt_size};
}

std::string join(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

bool report(const std::string& name, const std::string& expected, const std::string& got,
            bool pass) {
  std::printf("[%s] %s: expected %s, got %s\n", pass ? "pass" : "FAIL", name.c_str(),
              expected.c_str(), got.c_str());
  return pass;
}

int main(int argc, char** argv) {
  Settings s;
  if (const std::string wrong = parse(argc, argv, s); !wrong.empty()) {
    std::fprintf(stderr, "error: %s\n", wrong.c_str());
    return 2;
  }
  const int labels = int(s.labels), stride = int(s.stride);
  const size_t threads = size_t(s.block.x) * s.block.y * s.block.z * s.grid.x * s.grid.y * s.grid.z;

  std::vector<int> host_colour(threads);
  std::mt19937 rng(uint32_t(s.data));
  std::uniform_int_distribution<int> pick(0, labels - 1);
  for (int& x : host_colour) x = pick(rng);

  int *colour, *facts;
  cudaMalloc(&colour, threads * sizeof(int));
  cudaMalloc(&facts, threads * kFacts * sizeof(int));
  cudaMemcpy(colour, host_colour.data(), threads * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(facts, 0, threads * kFacts * sizeof(int));
  split_by_label<<<s.grid, s.block>>>(colour, facts, stride);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "error: split_by_label: %s\n", cudaGetErrorString(e));
    return 2;
  }
  std::vector<int> got(threads * kFacts);
  cudaMemcpy(got.data(), facts, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(colour);
  cudaFree(facts);

  // Every thread's facts [first, first + count) against the CPU's, "n of n" with the first
  // thread that differs.
  bool passed = true;
  auto check = [&](const std::string& name, int first, int count) {
    size_t good = 0, first_bad = threads;
    for (size_t g = 0; g < threads; ++g) {
      const std::vector<int> expect =
          expected_facts(&host_colour[g / 32 * 32], int(g % 32), stride);
      const bool same = std::equal(expect.begin() + first, expect.begin() + first + count,
                                   got.begin() + long(g * kFacts + first));
      good += same;
      if (!same && first_bad == threads) first_bad = g;
    }
    std::string said = std::to_string(good) + " of " + std::to_string(threads);
    if (first_bad < threads) {
      const size_t g = first_bad;
      const std::vector<int> all = expected_facts(&host_colour[g / 32 * 32], int(g % 32), stride);
      const std::vector<int> wrote(got.begin() + long(g * kFacts + first),
                                   got.begin() + long(g * kFacts + first + count));
      const std::vector<int> expect(all.begin() + first, all.begin() + first + count);
      said += " (first difference: thread " + std::to_string(g) + " (label " +
              std::to_string(host_colour[g]) + ") wrote " + join(wrote) + ", expected " +
              join(expect) + ")";
    }
    passed &= report(name, std::to_string(threads) + " of " + std::to_string(threads), said,
                     good == threads);
  };
  check("labeled_partition: rank, size and meta rank among the lanes sharing a label", 0, 3);
  check("reduce(less) over each label group finds its first lane", 3, 1);
  check("binary_partition(odd lane): rank lane / 2, meta rank 0 for even, 1 for odd", 4, 2);
  check("stride_partition(" + std::to_string(stride) + "): rank lane / " + std::to_string(stride) +
            ", lanes r, r + " + std::to_string(stride) + ", ... together",
        6, 2);
  // Each thread made one labeled group and one stride group: it wrote both groups' sizes (at
  // least 1) over the zeroed facts. (coopviz's trace records them as labeled and stride groups.)
  size_t labeled = 0, strided = 0;
  for (size_t g = 0; g < threads; ++g) {
    labeled += got[g * kFacts + 1] >= 1;
    strided += got[g * kFacts + 7] >= 1;
  }
  passed &= report("one labeled and one stride group creation per thread",
                   std::to_string(threads) + " and " + std::to_string(threads),
                   std::to_string(labeled) + " and " + std::to_string(strided),
                   labeled == threads && strided == threads);

  std::string lane_colours, groups;
  for (int l = 0; l < 32; ++l) lane_colours += (l ? " " : "") + std::to_string(host_colour[l]);
  for (int label = 0; label < labels; ++label) {
    int members = 0;
    for (int l = 0; l < 32; ++l) members += host_colour[l] == label;
    groups += (label ? ", " : "") + std::string("label ") + std::to_string(label) + ": " +
              std::to_string(members);
  }
  const int largest = (32 + stride - 1) / stride, smallest = 32 / stride;
  std::printf("[result] labels of warp 0, lane 0 first = %s\n", lane_colours.c_str());
  std::printf("[result] label group sizes in warp 0 = %s\n", groups.c_str());
  std::printf("[result] stride groups per warp = %d of %d%s lanes\n", stride, largest,
              largest == smallest ? "" : (" or " + std::to_string(smallest)).c_str());
  return passed ? 0 : 1;
}
