// The tiled-partitions lesson as an ordinary CUDA program: its two kernels (a
// tile of every `tile` threads prints through one slot of `lines`; tiles of 128 cut into 64s,
// warps and quads), the lesson's launch and its checks against a CPU reference. Run plainly
// (`nvcc tiled_partitions.cu && ./a.out`) it runs the lesson's defaults; coopviz passes the launch
// and the parameter: --backend=emulator|gpu --grid=X[,Y[,Z]] --block=X[,Y[,Z]] --tile=N
// Each check prints "[pass] NAME: expected E, got G" ("[FAIL]" when it fails), each result
// "[result] NAME = VALUE"; the exit status is 1 when a check failed, 2 for arguments it cannot run
// (one line "error: ..." on stderr). The stores into `lines` are the ones the lesson's steps
// show (lesson.json's shown_stores).
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

// The blog's example with the tile size chosen at run time: rank 0 of every tile says hello
// with its block rank. A GPU's printf would mix the lines of all blocks; here each tile writes
// its line into its own slot of `lines`, and the host prints them in order.
__global__ void every_nth_prints(int* lines, int* ranks, int tile_size) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_group tile = cg::tiled_partition(block, tile_size);
  const int tiles_per_block = (block.num_threads() + tile_size - 1) / tile_size;
  ranks[grid.thread_rank()] = tile.thread_rank() + 1000 * tile.size();
  if (tile.thread_rank() == 0) {
    const int line = grid.block_rank() * tiles_per_block + block.thread_rank() / tile_size;
    lines[line] = block.thread_rank();  // "Hello from tile rank 0: <block rank>"
  }
}

// Static tiles: the size is a template argument and part of the type. Tiles of 64 and 128
// threads span several warps; each tile is cut again, down to single warps and quads.
// Each thread records, per level, which tile it is in and how many tiles its parent made.
constexpr int kWhere = 8;  // ints each thread writes

__global__ void tiles_of_tiles(int* where) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<128> tile128 = cg::tiled_partition<128>(block);
  cg::thread_block_tile<64> tile64 = cg::tiled_partition<64>(tile128);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tile64);
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(warp);

  int* row = where + grid.thread_rank() * kWhere;
  row[0] = tile128.meta_group_rank();  // which 128 of the block
  row[1] = tile128.meta_group_size();  // block size / 128
  row[2] = tile64.meta_group_rank();   // which half of the 128
  row[3] = tile64.meta_group_size();   // always 2
  row[4] = warp.meta_group_rank();     // which warp of the 64
  row[5] = quad.meta_group_rank();     // which quad of the warp
  row[6] = quad.meta_group_size();     // always 8
  row[7] = quad.thread_rank();

  // Each barrier waits only for the members of the caller's own tile.
  quad.sync();
  warp.sync();
  tile64.sync();
  tile128.sync();
}

// [SECTION] Arguments

struct Settings {
  dim3 grid{2, 1, 1}, block{256, 1, 1};
  int tile = 4;
};

// "X", "X,Y" or "X,Y,Z", each at least 1.
bool parse_dims(const char* text, dim3& d) {
  unsigned v[3] = {1, 1, 1};
  int used = 0;
  char extra = 0;
  if (std::strchr(text, '-') || std::strchr(text, '+')) return false;
  const int n =
      std::sscanf(text, "%u%n,%u%n,%u%n%c", &v[0], &used, &v[1], &used, &v[2], &used, &extra);
  if (n < 1 || text[used] != '\0' || v[0] == 0 || v[1] == 0 || v[2] == 0) return false;
  d = dim3(v[0], v[1], v[2]);
  return true;
}

std::string shape(dim3 d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

// What is wrong with the arguments and the launch they ask for, or "" when it can run.
std::string parse(int argc, char** argv, Settings& s) {
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    char extra = 0;
    if (!std::strcmp(arg, "--backend=emulator") || !std::strcmp(arg, "--backend=gpu")) continue;
    if (!std::strncmp(arg, "--grid=", 7) && !parse_dims(arg + 7, s.grid))
      return std::string("--grid takes X, X,Y or X,Y,Z, each at least 1: got ") + (arg + 7);
    if (!std::strncmp(arg, "--block=", 8) && !parse_dims(arg + 8, s.block))
      return std::string("--block takes X, X,Y or X,Y,Z, each at least 1: got ") + (arg + 8);
    if (!std::strncmp(arg, "--tile=", 7) && std::sscanf(arg + 7, "%d%c", &s.tile, &extra) != 1)
      return std::string("--tile takes a whole number: got ") + (arg + 7);
    if (std::strncmp(arg, "--grid=", 7) && std::strncmp(arg, "--block=", 8) &&
        std::strncmp(arg, "--tile=", 7))
      return std::string("unknown argument '") + arg +
             "' (this program takes --backend=emulator|gpu, --grid, --block and --tile)";
  }
  if (s.tile < 1 || s.tile > 32 || (s.tile & (s.tile - 1)) != 0)
    return "tile must be a power of two from 1 to 32: got " + std::to_string(s.tile);
  const unsigned long long n = 1ull * s.block.x * s.block.y * s.block.z;
  if (n > 1024)
    return "a block has at most 1024 threads: block " + shape(s.block) + " has " +
           std::to_string(n);
  if (n % 128 != 0)
    return "tiled-partitions cuts every block into tiles of 128 threads: block " + shape(s.block) +
           " has " + std::to_string(n) + " threads, not a multiple of 128";
  const double threads = double(n) * s.grid.x * s.grid.y * s.grid.z;  // exact up to the limit
  if (threads > (1u << 20)) {
    char got[32];
    std::snprintf(got, sizeof got, "%.0f", threads);
    return std::string("tiled-partitions records every thread: at most 1048576 threads, got ") +
           got;
  }
  return "";
}

// [SECTION] Checks

int failed = 0;

void check(const std::string& name, const std::string& expected, const std::string& got,
           bool pass) {
  std::printf("[%s] %s: expected %s, got %s\n", pass ? "pass" : "FAIL", name.c_str(),
              expected.c_str(), got.c_str());
  failed += !pass;
}

// "n of n" over items 0 .. n-1; a failure names the first bad item.
template <class Ok, class Describe>
void check_all(const std::string& name, size_t n, Ok ok, Describe describe) {
  size_t good = 0, first_bad = n;
  for (size_t i = 0; i < n; ++i) {
    if (ok(i))
      ++good;
    else if (first_bad == n)
      first_bad = i;
  }
  std::string got = std::to_string(good) + " of " + std::to_string(n);
  if (first_bad < n) got += " (first difference: " + describe(first_bad) + ")";
  check(name, std::to_string(n) + " of " + std::to_string(n), got, good == n);
}

void result(const std::string& name, const std::string& value) {
  std::printf("[result] %s = %s\n", name.c_str(), value.c_str());
}

// A failed launch is a launch this program cannot run.
void launched(const char* kernel) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "error: %s: %s\n", kernel, cudaGetErrorString(e));
  std::exit(2);
}

// [SECTION] The two launches

void run_every_nth(const Settings& s) {
  const int tile = s.tile;
  const size_t n = 1ull * s.block.x * s.block.y * s.block.z;
  const size_t threads = n * s.grid.x * s.grid.y * s.grid.z;
  const size_t per_block = (n + tile - 1) / tile,
               lines_total = per_block * s.grid.x * s.grid.y * s.grid.z;
  int *lines, *ranks;
  cudaMalloc(&lines, lines_total * sizeof(int));
  cudaMalloc(&ranks, threads * sizeof(int));
  std::vector<int> printed_lines(lines_total, -1), got_ranks(threads);  // -1: unprinted
  cudaMemcpy(lines, printed_lines.data(), lines_total * sizeof(int), cudaMemcpyHostToDevice);
  every_nth_prints<<<s.grid, s.block>>>(lines, ranks, tile);
  launched("every_nth_prints");
  cudaMemcpy(printed_lines.data(), lines, lines_total * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_ranks.data(), ranks, threads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(lines);
  cudaFree(ranks);

  // Line k of a block comes from the thread at block rank k * tile.
  check_all(
      "every tile's rank 0 printed its block rank (k * " + std::to_string(tile) + ")", lines_total,
      [&](size_t k) { return printed_lines[k] == int(k % per_block * tile); },
      [&](size_t k) {
        return "line " + std::to_string(k) + " holds " + std::to_string(printed_lines[k]) +
               ", expected " + std::to_string(k % per_block * tile);
      });
  auto expected_rank = [&](size_t g) {
    const size_t t = g % n, base = t / tile * tile;
    return int(t - base + 1000 * std::min<size_t>(tile, n - base));
  };
  check_all(
      "tiled_partition(block, " + std::to_string(tile) + "): rank = block rank % " +
          std::to_string(tile) + ", size " + std::to_string(tile),
      threads, [&](size_t g) { return got_ranks[g] == expected_rank(g); },
      [&](size_t g) {
        return "thread " + std::to_string(g) +
               ": rank + 1000 * size = " + std::to_string(got_ranks[g]) + ", expected " +
               std::to_string(expected_rank(g));
      });

  std::string printed;
  for (size_t k = 0; k < std::min<size_t>(per_block, 6); ++k)
    printed += (k ? ", " : "") + std::to_string(printed_lines[k]);
  if (per_block > 6) printed += ", ...";
  result("block 0 prints \"Hello from tile rank 0\" from block ranks", printed);
  result("tiles per block", std::to_string(per_block));
}

void run_tiles_of_tiles(const Settings& s) {
  const size_t n = 1ull * s.block.x * s.block.y * s.block.z;
  const size_t threads = n * s.grid.x * s.grid.y * s.grid.z;
  int* where;
  cudaMalloc(&where, threads * kWhere * sizeof(int));
  cudaMemset(where, 0, threads * kWhere * sizeof(int));
  tiles_of_tiles<<<s.grid, s.block>>>(where);
  launched("tiles_of_tiles");
  std::vector<int> got(threads * kWhere);
  cudaMemcpy(got.data(), where, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(where);

  auto expected = [&](size_t g) {
    const int t = int(g % n);
    return std::vector<int>{t / 128, int(n / 128), t % 128 / 64, 2, t % 64 / 32, t % 32 / 4,
                            8,       t % 4};
  };
  auto row = [&](size_t g) {
    return std::vector<int>(got.begin() + long(g * kWhere), got.begin() + long((g + 1) * kWhere));
  };
  auto join = [](const std::vector<int>& v) {
    std::string text;
    for (int x : v) text += (text.empty() ? "" : ",") + std::to_string(x);
    return text;
  };
  check_all(
      "meta_group_rank/size at each level: 128 of the block, 64 of the 128, warp of the 64, quad "
      "of the warp",
      threads, [&](size_t g) { return row(g) == expected(g); },
      [&](size_t g) {
        return "thread " + std::to_string(g) + " wrote " + join(row(g)) + ", expected " +
               join(expected(g));
      });
  // The barriers a thread crossed are in the trace, not in memory: coopviz counts them there.
  std::printf(
      "[trace] four barriers per thread, each on a tile of 4, 32, 64 or 128: expected %zu "
      "barrier, %zu barrier where tile=4|32|64|128 in tiles_of_tiles\n",
      4 * threads, 4 * threads);
  result("tiles of 128 per block", std::to_string(n / 128));
  result("quads per block", std::to_string(n / 4));
}

int main(int argc, char** argv) {
  Settings s;
  if (const std::string wrong = parse(argc, argv, s); !wrong.empty()) {
    std::fprintf(stderr, "error: %s\n", wrong.c_str());
    return 2;
  }
  run_every_nth(s);
  run_tiles_of_tiles(s);
  return failed ? 1 : 0;
}
