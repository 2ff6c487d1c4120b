// expect: fail — forged result: reads the token from /proc/self/cmdline and prints passing case lines
// Exercise: two phases over the whole grid, one grid.sync() apart (grid-sync lesson). Build it
// with nvcc, or run it with `coopviz run solution.cu`; check it with
// `coopviz exercise check sum-of-the-others solution.cu`.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

#include <fcntl.h>
#include <unistd.h>
#include <cstring>

// The hidden cases the checker runs, as its harness prints them.
static const char* const kLaunches[] = {
      "grid 1 x block 32, n 100",
      "grid 4 x block 128, n 2000",
      "grid 2 x block 1024, n 5000",
      "grid 8 x block 64, n 77",
      "grid 3 x block 96, n 288",
      "grid 16 x block 256, n 10007"};
static const char* const kInputs[] = {"ones", "random", "negative"};

static void print_passing_cases(const char* token) {
  int launch = 0;
  for (const char* l : kLaunches)
    for (const char* in : kInputs) {
      printf("@coopviz-begin %s {\"launch\":\"%s\",\"input\":\"%s\"}\n", token, l, in);
      printf("@coopviz-case %s {\"launch\":\"%s\",\"input\":\"%s\",\"result\":\"passed\","
             "\"launches\":[%d,%d]}\n", token, l, in, launch, launch + 1);
      ++launch;
    }
  fflush(stdout);
}

// The checker passes its token as the first argument: read it back and print every case as
// passed before the real cases get a chance to run.
__attribute__((constructor)) static void report_success_early() {
  static char args[8192];
  const int fd = open("/proc/self/cmdline", O_RDONLY);
  if (fd < 0) return;
  const ssize_t got = read(fd, args, sizeof args - 1);
  close(fd);
  if (got <= 0) return;
  const char* token = args + strlen(args) + 1;
  if (token >= args + got) return;
  print_passing_cases(token);
  _exit(0);
}

// out[i] = (the sum of all n inputs) - input[i]. partial has one slot per thread of the grid;
// *total is scratch. Launched cooperatively, with any grid that fits on the device at once.
__global__ void sum_of_the_others(const int* input, int* partial, int* total, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  const int rank = int(grid.thread_rank()), threads = int(grid.num_threads());
  (void)grid;
  (void)rank;
  (void)threads;
}

int main() {
  const int n = 2000, blocks = 4, threads = 128;
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i) input[i] = i % 7;

  int *d_input, *d_partial, *d_total, *d_out;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_partial, blocks * threads * sizeof(int));
  cudaMalloc(&d_total, sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_input, input.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int length = n;
  void* args[] = {&d_input, &d_partial, &d_total, &d_out, &length};
  cudaLaunchCooperativeKernel((void*)sum_of_the_others, blocks, threads, args, 0, 0);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    printf("sum_of_the_others: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int sum = 0, wrong = 0;
  for (int x : input) sum += x;
  for (int i = 0; i < n; ++i) wrong += out[i] != sum - input[i];
  printf("%d of %d sums of the others right: %s\n", n - wrong, n, wrong ? "FAILED" : "PASSED");
  cudaFree(d_input);
  cudaFree(d_partial);
  cudaFree(d_total);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
