// A quicksort whose ranges sort themselves, in the style of CUDA's own dynamic parallelism
// samples: one thread partitions its range around the middle element and launches one child grid
// per side, each into a non-blocking stream it creates for it, until a range is short or the
// recursion deep; there it sorts by selection. The host checks the result against std::sort and
// the number of launches the kernels made against the same recursion run on the CPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

constexpr int kMaxDepth = 10;   // below this depth a range partitions and launches
constexpr int kShortRange = 12;  // ranges this short are sorted in place

__host__ __device__ void sort_by_selection(unsigned* v, int lo, int hi) {
  for (int i = lo; i < hi; ++i) {
    int least = i;
    for (int j = i + 1; j <= hi; ++j)
      if (v[j] < v[least]) least = j;
    const unsigned t = v[i];
    v[i] = v[least];
    v[least] = t;
  }
}

// Hoare's partition around the middle value: [lo, *last] <= pivot <= [*first, hi].
__host__ __device__ void split_range(unsigned* v, int lo, int hi, int* last, int* first) {
  const unsigned pivot = v[lo + (hi - lo) / 2];
  int i = lo, j = hi;
  while (i <= j) {
    while (v[i] < pivot) ++i;
    while (v[j] > pivot) --j;
    if (i <= j) {
      const unsigned t = v[i];
      v[i++] = v[j];
      v[j--] = t;
    }
  }
  *last = j;
  *first = i;
}

__global__ void quicksort(unsigned* v, int lo, int hi, int depth, int* launched);

// One side's grid, launched into a non-blocking stream of its own.
__device__ void sort_side(unsigned* v, int lo, int hi, int depth, int* launched) {
  cudaStream_t side;
  cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  quicksort<<<1, 1, 0, side>>>(v, lo, hi, depth, launched);
  if (cudaGetLastError() == cudaSuccess) atomicAdd(launched, 1);
  cudaStreamDestroy(side);
}

__global__ void quicksort(unsigned* v, int lo, int hi, int depth, int* launched) {
  if (depth >= kMaxDepth || hi - lo < kShortRange) {
    sort_by_selection(v, lo, hi);
    return;
  }
  int last, first;
  split_range(v, lo, hi, &last, &first);
  if (lo < last) sort_side(v, lo, last, depth + 1, launched);
  if (first < hi) sort_side(v, first, hi, depth + 1, launched);
}

// The same recursion on the CPU: how many launches the kernels should make.
int launches_on_cpu(std::vector<unsigned>& v, int lo, int hi, int depth) {
  if (depth >= kMaxDepth || hi - lo < kShortRange) {
    sort_by_selection(v.data(), lo, hi);
    return 0;
  }
  int last, first, n = 0;
  split_range(v.data(), lo, hi, &last, &first);
  if (lo < last) n += 1 + launches_on_cpu(v, lo, last, depth + 1);
  if (first < hi) n += 1 + launches_on_cpu(v, first, hi, depth + 1);
  return n;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 300;
  std::vector<unsigned> h(n);
  unsigned seed = 2047;
  for (unsigned& x : h) x = (seed = seed * 1103515245u + 12345u) >> 16 & 1023;

  unsigned* d = nullptr;
  int* d_launched = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_launched, sizeof(int)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_launched, 0, sizeof(int)));
  quicksort<<<1, 1>>>(d, 0, n - 1, 0, d_launched);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> sorted(n);
  int launched = 0;
  CHECK(cudaMemcpy(sorted.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&launched, d_launched, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<unsigned> expected = h;
  const int expected_launches = launches_on_cpu(expected, 0, n - 1, 0);
  std::sort(h.begin(), h.end());
  const bool ok = sorted == h && expected == h && launched == expected_launches;
  std::printf("sorted %d values with %d launches from kernels (expected %d): %s\n", n, launched,
              expected_launches, ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(d));
  CHECK(cudaFree(d_launched));
  return ok ? 0 : 1;
}
