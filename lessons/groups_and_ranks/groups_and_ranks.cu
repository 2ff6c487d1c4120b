// Groups and ranks: what a thread learns from its group handles, and how to hand a handle to a
// helper function.
//
// An ordinary CUDA program: `nvcc groups_and_ranks.cu && ./a.out` runs the lesson's default
// launch; coopviz passes --backend, --grid, --block, --cooperative and --pass (lessons/README.md).
// The stores into `row` (a thread's row of rows) and `out` are the ones the lesson's steps show
// (lesson.json's shown_stores). Its arguments and check lines are lesson_protocol.h's.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lesson_protocol.h"

namespace cg = cooperative_groups;

// The row every thread of where_am_i writes: what its handles report.
struct WhereAmI {
  enum Field : int {
    kRank, kThreads,                      // block: thread_rank(), num_threads()
    kIndexX, kIndexY, kIndexZ,            // block: thread_index()
    kDimX, kDimY, kDimZ,                  // block: dim_threads()
    kGridRank, kGridThreads, kGridValid,  // grid: thread_rank(), num_threads(), is_valid()
    kClusterBlocks,                       // cluster: num_blocks()
    kActiveThreads, kActiveRank,          // coalesced_threads() inside the branch
    kFields
  };
};

// Each thread fills one row of `rows` with what its handles report (fields: WhereAmI).
__global__ void where_am_i(int* rows) {
  // Handles first, before any branch: every thread of the block runs these lines.
  cg::thread_block block = cg::this_thread_block();  // all threads of my block
  cg::grid_group grid = cg::this_grid();             // all threads of the launch
  cg::cluster_group cluster = cg::this_cluster();    // the blocks of my cluster
  using F = WhereAmI;                                // names of the fields in a row
  int* row = rows + grid.thread_rank() * F::kFields;

  row[F::kRank] = block.thread_rank();  // 0 .. num_threads() - 1
  row[F::kThreads] = block.num_threads();
  const dim3 index = block.thread_index();  // the same as threadIdx
  const dim3 dims = block.dim_threads();    // the same as blockDim
  row[F::kIndexX] = index.x;
  row[F::kIndexY] = index.y;
  row[F::kIndexZ] = index.z;
  row[F::kDimX] = dims.x;
  row[F::kDimY] = dims.y;
  row[F::kDimZ] = dims.z;

  row[F::kGridRank] = grid.thread_rank();
  row[F::kGridThreads] = grid.num_threads();
  row[F::kGridValid] = grid.is_valid();  // true only under a cooperative launch
  row[F::kClusterBlocks] = cluster.num_blocks();

  if (block.thread_rank() % 3 == 0) {
    // Only every third thread gets here; coalesced_threads() is the part of its warp that did.
    cg::coalesced_group active = cg::coalesced_threads();
    row[F::kActiveThreads] = active.num_threads();
    row[F::kActiveRank] = active.thread_rank();
  }
}

// A helper that needs the whole block: every thread hands its value to its right-hand
// neighbour through shared memory. It takes the handle by reference, as the guide advises.
__device__ int from_left(const cg::thread_block& block, int* ring, int value) {
  const int rank = block.thread_rank(), n = block.num_threads();
  ring[rank] = value;
  block.sync();  // every value is in the ring before anyone reads
  return ring[(rank + n - 1) % n];
}

// The same helper given a copy of the handle: legal, but discouraged.
__device__ int from_left_by_copy(cg::thread_block copy, int* ring, int value) {
  return from_left(copy, ring, value);
}

// The same helper with a handle of its own, made after the caller has already branched.
__device__ int from_left_own_handle(int* ring, int value) {
  cg::thread_block late = cg::this_thread_block();
  return from_left(late, ring, value);
}

// how: 0 passes the handle by reference, 1 by copy, 2 lets the helper make its own.
__global__ void pass_handles(const int* in, int* out, int how) {
  __shared__ int ring[1024];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  int left;
  if (how == 0)
    left = from_left(block, ring, in[i]);
  else if (how == 1)
    left = from_left_by_copy(block, ring, in[i]);
  else
    left = from_left_own_handle(ring, in[i]);
  out[i] = left;
}

// ---- The host side: the launch it is given, the CPU reference and the checks. ----

using F = WhereAmI;

struct Options {
  LessonLaunch launch;
  long cooperative = 0, pass = 0;
};

// The runner's arguments (lesson_protocol.h) and this lesson's limits; "" when all are good, else
// what is wrong, for the one "error:" line.
std::string read_options(int argc, char** argv, Options& o) {
  unsigned* grid = o.launch.grid;
  unsigned* block = o.launch.block;
  grid[0] = 2;  // the lesson's default launch: 2 blocks of 8 x 4 x 2
  block[0] = 8, block[1] = 4, block[2] = 2;
  const std::string wrong = parse_lesson_arguments(
      argc, argv, o.launch, {{"cooperative", 0, 1, &o.cooperative}, {"pass", 0, 2, &o.pass}});
  if (!wrong.empty()) return wrong;
  const unsigned long n = 1ul * block[0] * block[1] * block[2];
  const unsigned long threads = n * grid[0] * grid[1] * grid[2];
  if (n > 1024)
    return "groups-and-ranks keeps one int per thread in a 1024-int shared ring: block " +
           dims_text(block) + " has " + std::to_string(n) + " threads";
  if (threads > (1ul << 20))
    return "groups-and-ranks records every thread: at most 1048576 threads, got " +
           std::to_string(threads);
  return "";
}

// What the handles must report for the thread at grid rank g (the CPU reference).
std::vector<int> expected_row(const Options& o, size_t g) {
  const unsigned* grid = o.launch.grid;
  const unsigned bx = o.launch.block[0], by = o.launch.block[1], bz = o.launch.block[2];
  const unsigned n = bx * by * bz, t = unsigned(g % n);
  std::vector<int> e(F::kFields, 0);
  e[F::kRank] = int(t);
  e[F::kThreads] = int(n);
  e[F::kIndexX] = int(t % bx);
  e[F::kIndexY] = int(t / bx % by);
  e[F::kIndexZ] = int(t / (bx * by));
  e[F::kDimX] = int(bx);
  e[F::kDimY] = int(by);
  e[F::kDimZ] = int(bz);
  e[F::kGridRank] = int(g);
  e[F::kGridThreads] = int(size_t(n) * grid[0] * grid[1] * grid[2]);
  e[F::kGridValid] = o.cooperative ? 1 : 0;
  e[F::kClusterBlocks] = 1;
  if (t % 3 == 0) {
    // The active lanes of t's warp: ranks that are multiples of 3 within the same 32.
    const unsigned warp_begin = t / 32 * 32, warp_end = std::min(warp_begin + 32, n);
    int members = 0, below = 0;
    for (unsigned r = warp_begin; r < warp_end; ++r)
      if (r % 3 == 0) {
        ++members;
        below += r < t;
      }
    e[F::kActiveThreads] = members;
    e[F::kActiveRank] = below;
  }
  return e;
}

// One check per group of fields: every thread's fields equal the reference.
void fields_check(const std::string& name, const std::vector<int>& rows, const Options& o,
                  std::initializer_list<F::Field> fields, bool& failed) {
  auto ok = [&](size_t g) {
    const std::vector<int> e = expected_row(o, g);
    for (F::Field f : fields)
      if (rows[g * F::kFields + f] != e[f]) return false;
    return true;
  };
  auto describe = [&](size_t g) {
    const std::vector<int> e = expected_row(o, g);
    std::string got, want;
    for (F::Field f : fields) {
      got += (got.empty() ? "" : ",") + std::to_string(rows[g * F::kFields + f]);
      want += (want.empty() ? "" : ",") + std::to_string(e[f]);
    }
    return "thread " + std::to_string(g) + " wrote " + got + ", expected " + want;
  };
  lesson_check_all(name, rows.size() / F::kFields, ok, describe, failed);
}

// Launches where_am_i (cooperatively when asked) and checks every row.
void run_where_am_i(const Options& o, const dim3 grid, const dim3 block, size_t threads,
                    bool& failed) {
  int* rows;
  cudaMalloc(&rows, threads * F::kFields * sizeof(int));
  cudaMemset(rows, 0, threads * F::kFields * sizeof(int));
  if (o.cooperative) {
    void* args[] = {&rows};
    cudaLaunchCooperativeKernel((void*)where_am_i, grid, block, args);
  } else {
    where_am_i<<<grid, block>>>(rows);
  }
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    std::fprintf(stderr, "where_am_i: %s\n", cudaGetErrorString(e));
    std::exit(3);
  }
  std::vector<int> got(threads * F::kFields);
  cudaMemcpy(got.data(), rows, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(rows);

  fields_check("thread_rank() = x + dim.x * (y + dim.y * z)", got, o,
               {F::kRank, F::kIndexX, F::kIndexY, F::kIndexZ}, failed);
  fields_check("num_threads() and dim_threads() describe the block", got, o,
               {F::kThreads, F::kDimX, F::kDimY, F::kDimZ}, failed);
  fields_check("the grid handle: thread_rank() and num_threads()", got, o,
               {F::kGridRank, F::kGridThreads}, failed);
  // Guaranteed only for a cooperative launch; in a normal one CUDA 13 drivers report 1 as well
  // (seen on an H200), so that value is shown, not checked.
  if (o.cooperative)
    fields_check("grid.is_valid() is 1 under a cooperative launch", got, o, {F::kGridValid},
                 failed);
  fields_check("this_cluster() without clusters holds 1 block", got, o, {F::kClusterBlocks},
               failed);
  fields_check("coalesced_threads() inside the branch: the warp's lanes that took it, ranked in "
               "lane order",
               got, o, {F::kActiveThreads, F::kActiveRank}, failed);

  // A sample the student can read: the last thread of block 0.
  const unsigned n = block.x * block.y * block.z;
  const int* r = &got[(n - 1) * F::kFields];
  const auto text = [](int v) { return std::to_string(v); };
  lesson_result("block shape", dims_text(o.launch.block) + " (" + text(n) + " threads, " +
                                   text((n + 31) / 32) + " warps)");
  lesson_result("last thread of block 0", "index (" + text(r[F::kIndexX]) + "," +
                                              text(r[F::kIndexY]) + "," + text(r[F::kIndexZ]) +
                                              ") -> rank " + text(r[F::kRank]));
  lesson_result("grid.is_valid()", text(got[F::kGridValid]) +
                                       (o.cooperative ? " (cooperative launch)" : " (normal launch)"));
  lesson_result("coalesced group of thread 0", text(got[F::kActiveThreads]) + " threads");
}

// Launches pass_handles with `how` and checks that every thread got its left neighbour.
void run_pass_handles(int how, const dim3 grid, const dim3 block, size_t threads, bool& failed) {
  static const char* names[] = {"by reference", "by copy", "own handle"};
  const size_t n = size_t(block.x) * block.y * block.z;
  std::vector<int> host_in(threads);
  for (size_t i = 0; i < threads; ++i) host_in[i] = int(i);
  int *in, *out;
  cudaMalloc(&in, threads * sizeof(int));
  cudaMalloc(&out, threads * sizeof(int));
  cudaMemcpy(in, host_in.data(), threads * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, threads * sizeof(int));
  pass_handles<<<grid, block>>>(in, out, how);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    std::fprintf(stderr, "pass_handles: %s\n", cudaGetErrorString(e));
    std::exit(3);
  }
  std::vector<int> got(threads);
  cudaMemcpy(got.data(), out, threads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  auto left_of = [&](size_t i) { return int(i / n * n + (i % n + n - 1) % n); };
  lesson_check_all(
      std::string("from_left ") + names[how] + ": every thread got its left neighbour's value",
      threads, [&](size_t i) { return got[i] == left_of(i); },
      [&](size_t i) {
        return "thread " + std::to_string(i) + " got " + std::to_string(got[i]) + ", expected " +
               std::to_string(left_of(i));
      },
      failed);
}

int main(int argc, char** argv) {
  Options o;
  if (const std::string wrong = read_options(argc, argv, o); !wrong.empty())
    return lesson_error(wrong);
  const unsigned *g = o.launch.grid, *b = o.launch.block;
  const dim3 grid(g[0], g[1], g[2]), block(b[0], b[1], b[2]);
  const size_t threads = size_t(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
  bool failed = false;
  run_where_am_i(o, grid, block, threads, failed);
  // The reference version always runs, so the chosen one can be compared with it.
  run_pass_handles(0, grid, block, threads, failed);
  if (o.pass != 0) run_pass_handles(int(o.pass), grid, block, threads, failed);

  // What each thread of pass_handles records: its two handles (three when the helper makes its
  // own), one block barrier and its store into out. Only the trace can count them.
  const size_t creations = o.pass == 2 ? 3 : 2, last = o.pass == 0 ? 1 : 2;
  if (o.pass == 1)
    std::printf("[trace] the copy records exactly what the reference records: expected "
                "%zu group_create, %zu barrier, %zu store in pass_handles launch 2\n",
                2 * threads, threads, threads);
  if (o.pass == 2)
    std::printf("[trace] the helper's own handle adds one GroupCreate per thread: expected "
                "%zu group_create in pass_handles launch 2\n",
                3 * threads);
  std::printf("[trace] handle creations per thread: expected %zu group_create in pass_handles "
              "launch %zu\n",
              creations * threads, last);
  return failed ? 1 : 0;
}
