// expect: cub merge batched PASSED
// CUB's newer device-wide calls, in the style of a particle-binning pipeline's host code: a
// two-input cub::DeviceTransform (its inputs a cuda::std tuple) and a one-input one with the
// temporary-storage query; cub::DeviceMerge merging two sorted key lists (ascending, and
// descending under cuda::std::greater) and two key-value lists; cub::DeviceCopy::Batched gathering
// ranges of different lengths through device arrays of pointers, and cub::DeviceMemcpy::Batched
// moving byte buffers of odd sizes; cub::DeviceRadixSort of a struct key through a decomposer
// (cell, then distance: over all bits, over the cell's bits only, and descending with a
// DoubleBuffer); and a sum read through cub::CacheModifiedInputIterator and an arg-min through
// cub::ArgIndexInputIterator. None of the sizes is a multiple of a tile. Each result is compared
// with a loop on the host.
#include <cub/device/device_copy.cuh>
#include <cub/device/device_memcpy.cuh>
#include <cub/device/device_merge.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>
#include <cub/iterator/arg_index_input_iterator.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cuda/std/functional>
#include <cuda/std/tuple>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
      return 1;                                                              \
    }                                                                        \
  } while (0)

struct Particle {
  int cell;
  float dist;
  unsigned id;
};

struct CellThenDist {
  __host__ __device__ cuda::std::tuple<int &, float &> operator()(Particle &p) const {
    return {p.cell, p.dist};
  }
};

struct MulAdd {
  __host__ __device__ int operator()(int a, int b) const { return a * b + 1; }
};
struct Square {
  __host__ __device__ long long operator()(int a) const { return (long long)a * a; }
};

struct SmallerValue {
  __host__ __device__ cub::KeyValuePair<ptrdiff_t, int> operator()(
      const cub::KeyValuePair<ptrdiff_t, int> &a, const cub::KeyValuePair<ptrdiff_t, int> &b) const {
    return (b.value < a.value || (b.value == a.value && b.key < a.key)) ? b : a;
  }
};

template <class T>
T *to_device(const std::vector<T> &h) {
  T *d = nullptr;
  cudaMalloc(&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <class T>
std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

static int g_wrong = 0;
static void expect(bool ok, const char *what) {
  if (!ok) {
    printf("wrong: %s\n", what);
    ++g_wrong;
  }
}

int main() {
  void *d_temp = nullptr;
  size_t temp_bytes = 0;

  // Transform: two inputs, then one with the storage query.
  const int n = 1013;
  std::vector<int> h_a(n), h_b(n);
  for (int i = 0; i < n; ++i) {
    h_a[i] = (i * 7) % 23 - 11;
    h_b[i] = (i * 5) % 17 - 3;
  }
  int *d_a = to_device(h_a), *d_b = to_device(h_b), *d_ab = nullptr;
  long long *d_sq = nullptr;
  CHECK(cudaMalloc(&d_ab, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sq, n * sizeof(long long)));
  CHECK(cub::DeviceTransform::Transform(cuda::std::make_tuple(d_a, d_b), d_ab, n, MulAdd{}));
  CHECK(cub::DeviceTransform::Transform(nullptr, temp_bytes, d_a, d_sq, n, Square{}));
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(cub::DeviceTransform::Transform(d_temp, temp_bytes, d_a, d_sq, n, Square{}));
  CHECK(cudaFree(d_temp));
  {
    std::vector<int> ab = to_host(d_ab, n);
    std::vector<long long> sq = to_host(d_sq, n);
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok = ok && ab[i] == h_a[i] * h_b[i] + 1 && sq[i] == (long long)h_a[i] * h_a[i];
    expect(ok, "DeviceTransform");
  }

  // Merge: 37 and 54 sorted keys with repeats, both orders; pairs with distinct keys.
  const int n1 = 37, n2 = 54;
  std::vector<int> k1(n1), k2(n2);
  for (int i = 0; i < n1; ++i) k1[i] = (i * 11) % 40;
  for (int i = 0; i < n2; ++i) k2[i] = (i * 13) % 45 - 2;
  std::sort(k1.begin(), k1.end());
  std::sort(k2.begin(), k2.end());
  std::vector<int> merged(n1 + n2);
  std::merge(k1.begin(), k1.end(), k2.begin(), k2.end(), merged.begin());
  int *d_k1 = to_device(k1), *d_k2 = to_device(k2), *d_merged = nullptr;
  CHECK(cudaMalloc(&d_merged, (n1 + n2) * sizeof(int)));
  temp_bytes = 0;
  CHECK(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, d_k1, n1, d_k2, n2, d_merged));
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(cub::DeviceMerge::MergeKeys(d_temp, temp_bytes, d_k1, n1, d_k2, n2, d_merged));
  expect(to_host(d_merged, n1 + n2) == merged, "DeviceMerge::MergeKeys");

  std::vector<int> r1(k1.rbegin(), k1.rend()), r2(k2.rbegin(), k2.rend());
  int *d_r1 = to_device(r1), *d_r2 = to_device(r2);
  CHECK(cub::DeviceMerge::MergeKeys(d_temp, temp_bytes, d_r1, n1, d_r2, n2, d_merged,
                                    cuda::std::greater<>{}));
  std::vector<int> merged_down(merged.rbegin(), merged.rend());
  expect(to_host(d_merged, n1 + n2) == merged_down, "DeviceMerge::MergeKeys descending");

  std::vector<int> pk1(n1), pk2(n2), pv1(n1), pv2(n2);
  for (int i = 0; i < n1; ++i) pk1[i] = 3 * i, pv1[i] = 1000 + i;
  for (int i = 0; i < n2; ++i) pk2[i] = 2 * i + 1, pv2[i] = 2000 + i;
  int *d_pk1 = to_device(pk1), *d_pk2 = to_device(pk2), *d_pv1 = to_device(pv1),
      *d_pv2 = to_device(pv2), *d_pv = nullptr;
  CHECK(cudaMalloc(&d_pv, (n1 + n2) * sizeof(int)));
  CHECK(cub::DeviceMerge::MergePairs(d_temp, temp_bytes, d_pk1, d_pv1, n1, d_pk2, d_pv2, n2,
                                     d_merged, d_pv));
  {
    std::vector<int> keys = to_host(d_merged, n1 + n2), values = to_host(d_pv, n1 + n2);
    bool ok = std::is_sorted(keys.begin(), keys.end());
    for (int i = 0; i < n1 + n2; ++i) {
      const int v = values[i];
      ok = ok && (v >= 2000 ? keys[i] == pk2[v - 2000] : keys[i] == pk1[v - 1000]);
    }
    expect(ok, "DeviceMerge::MergePairs");
  }
  CHECK(cudaFree(d_temp));

  // Batched copies: 6 ranges of ints gathered from scattered offsets, 5 byte buffers.
  const int kRanges = 6;
  const int range_from[kRanges] = {0, 17, 40, 41, 90, 200};
  const int range_size[kRanges] = {5, 0, 33, 1, 77, 9};
  int range_to[kRanges];
  for (int r = 0, at = 0; r < kRanges; at += range_size[r++]) range_to[r] = at;
  const int gathered = range_to[kRanges - 1] + range_size[kRanges - 1];
  std::vector<int> h_pool(256);
  for (int i = 0; i < 256; ++i) h_pool[i] = i * 3 - 100;
  int *d_pool = to_device(h_pool), *d_gathered = nullptr;
  CHECK(cudaMalloc(&d_gathered, gathered * sizeof(int)));
  std::vector<int *> h_srcs(kRanges), h_dsts(kRanges);
  for (int r = 0; r < kRanges; ++r) {
    h_srcs[r] = d_pool + range_from[r];
    h_dsts[r] = d_gathered + range_to[r];
  }
  int **d_srcs = to_device(h_srcs), **d_dsts = to_device(h_dsts);
  int *d_sizes = to_device(std::vector<int>(range_size, range_size + kRanges));
  temp_bytes = 0;
  CHECK(cub::DeviceCopy::Batched(nullptr, temp_bytes, d_srcs, d_dsts, d_sizes, kRanges));
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(cub::DeviceCopy::Batched(d_temp, temp_bytes, d_srcs, d_dsts, d_sizes, kRanges));
  CHECK(cudaFree(d_temp));
  {
    std::vector<int> got = to_host(d_gathered, gathered);
    bool ok = true;
    for (int r = 0; r < kRanges; ++r)
      for (int k = 0; k < range_size[r]; ++k)
        ok = ok && got[range_to[r] + k] == h_pool[range_from[r] + k];
    expect(ok, "DeviceCopy::Batched");
  }

  const int kBuffers = 5;
  const size_t buffer_bytes[kBuffers] = {3, 0, 129, 1, 62};
  size_t total_bytes = 0;
  for (size_t b : buffer_bytes) total_bytes += b;
  std::vector<unsigned char> h_bytes(total_bytes);
  for (size_t i = 0; i < total_bytes; ++i) h_bytes[i] = (unsigned char)(i * 37 + 11);
  unsigned char *d_bytes = to_device(h_bytes), *d_bytes_out = nullptr;
  CHECK(cudaMalloc(&d_bytes_out, total_bytes));
  std::vector<void *> h_from(kBuffers), h_to(kBuffers);
  // Buffer b goes to the mirror place: the last buffer's bytes first.
  for (size_t b = 0, in = 0, out = total_bytes; b < kBuffers; in += buffer_bytes[b++]) {
    out -= buffer_bytes[b];
    h_from[b] = d_bytes + in;
    h_to[b] = d_bytes_out + out;
  }
  void **d_from = to_device(h_from), **d_to = to_device(h_to);
  size_t *d_buffer_bytes = to_device(std::vector<size_t>(buffer_bytes, buffer_bytes + kBuffers));
  // One allocation for both the byte copy and a second, reversed copy of the gathered ints.
  size_t memcpy_bytes = 0, copy_bytes = 0;
  CHECK(cub::DeviceMemcpy::Batched(nullptr, memcpy_bytes, d_from, d_to, d_buffer_bytes, kBuffers));
  CHECK(cub::DeviceCopy::Batched(nullptr, copy_bytes, d_dsts, d_srcs, d_sizes, 1));
  temp_bytes = std::max(memcpy_bytes, copy_bytes);
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(cub::DeviceMemcpy::Batched(d_temp, temp_bytes, d_from, d_to, d_buffer_bytes, kBuffers));
  {
    std::vector<unsigned char> got = to_host(d_bytes_out, total_bytes);
    bool ok = true;
    for (size_t b = 0, in = 0, out = total_bytes; b < kBuffers; in += buffer_bytes[b++]) {
      out -= buffer_bytes[b];
      ok = ok && std::memcmp(got.data() + out, h_bytes.data() + in, buffer_bytes[b]) == 0;
    }
    expect(ok, "DeviceMemcpy::Batched");
  }
  // The first gathered range back over the pool's first five ints (doubled first).
  std::vector<int> doubled(h_pool.begin(), h_pool.begin() + 5);
  for (int &v : doubled) v *= 2;
  CHECK(cudaMemcpy(d_gathered, doubled.data(), 5 * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cub::DeviceCopy::Batched(d_temp, temp_bytes, d_dsts, d_srcs, d_sizes, 1));
  CHECK(cudaFree(d_temp));
  expect(to_host(d_pool, 5) == doubled, "DeviceCopy::Batched back");

  // Radix sort of a struct key through its decomposer: 517 particles, negative cells and
  // distances, -0.0 and +0.0, ties carried by id (radix sorts are stable).
  const int np = 517;
  std::vector<Particle> h_p(np);
  for (int i = 0; i < np; ++i) {
    h_p[i].cell = (i * 29) % 13 - 6;
    h_p[i].dist = float((i * 17) % 11 - 5) * 0.25f;
    if (i % 50 == 0) h_p[i].dist = (i % 100 == 0) ? -0.0f : 0.0f;
    h_p[i].id = unsigned(i);
  }
  auto order_of = [](float f) { return f == 0.0f ? 0.0f : f; };
  auto by_cell_dist = [&](const Particle &x, const Particle &y) {
    return x.cell != y.cell ? x.cell < y.cell : order_of(x.dist) < order_of(y.dist);
  };
  std::vector<Particle> want = h_p;
  std::stable_sort(want.begin(), want.end(), by_cell_dist);
  Particle *d_p = to_device(h_p), *d_p_out = nullptr;
  unsigned *d_ids = nullptr, *d_ids_out = nullptr;
  std::vector<unsigned> h_ids(np);
  for (int i = 0; i < np; ++i) h_ids[i] = unsigned(i) * 10u;
  d_ids = to_device(h_ids);
  CHECK(cudaMalloc(&d_p_out, np * sizeof(Particle)));
  CHECK(cudaMalloc(&d_ids_out, np * sizeof(unsigned)));
  temp_bytes = 0;
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, d_p, d_p_out, np, CellThenDist{}));
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_p, d_p_out, np, CellThenDist{}));
  {
    std::vector<Particle> got = to_host(d_p_out, np);
    bool ok = true;
    for (int i = 0; i < np; ++i) ok = ok && got[i].id == want[i].id;
    expect(ok, "DeviceRadixSort::SortKeys with a decomposer");
  }
  // The cell's bits only: [32, 64) of the key's 64 (the distance is bits [0, 32)).
  std::vector<Particle> want_cell = h_p;
  std::stable_sort(want_cell.begin(), want_cell.end(),
                   [](const Particle &x, const Particle &y) { return x.cell < y.cell; });
  CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_p, d_p_out, d_ids, d_ids_out, np,
                                        CellThenDist{}, 32, 64));
  {
    std::vector<Particle> got = to_host(d_p_out, np);
    std::vector<unsigned> ids = to_host(d_ids_out, np);
    bool ok = true;
    for (int i = 0; i < np; ++i)
      ok = ok && got[i].id == want_cell[i].id && ids[i] == want_cell[i].id * 10u;
    expect(ok, "DeviceRadixSort::SortPairs with a decomposer over the cell's bits");
  }
  std::vector<Particle> want_down = h_p;
  std::stable_sort(want_down.begin(), want_down.end(),
                   [&](const Particle &x, const Particle &y) { return by_cell_dist(y, x); });
  cub::DoubleBuffer<Particle> d_buffers(d_p, d_p_out);
  CHECK(cub::DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, d_buffers, np,
                                                 CellThenDist{}));
  {
    std::vector<Particle> got = to_host(d_buffers.Current(), np);
    bool ok = true;
    for (int i = 0; i < np; ++i) ok = ok && got[i].id == want_down[i].id;
    expect(ok, "DeviceRadixSort::SortKeysDescending with a decomposer");
  }
  CHECK(cudaFree(d_temp));

  // A sum through a cache-modified iterator, an arg-min through an arg-index iterator.
  cub::CacheModifiedInputIterator<cub::LOAD_LDG, int> d_ldg(d_a);
  int *d_sum = nullptr;
  CHECK(cudaMalloc(&d_sum, sizeof(int)));
  temp_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, d_ldg, d_sum, n));
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_ldg, d_sum, n));
  CHECK(cudaFree(d_temp));
  int want_sum = 0;
  for (int v : h_a) want_sum += v;
  expect(to_host(d_sum, 1)[0] == want_sum, "DeviceReduce::Sum through LOAD_LDG");

  using Pair = cub::ArgIndexInputIterator<int *>::value_type;
  cub::ArgIndexInputIterator<int *> d_indexed(d_ab);
  Pair *d_min = nullptr;
  CHECK(cudaMalloc(&d_min, sizeof(Pair)));
  Pair start(0, 1 << 30);
  temp_bytes = 0;
  CHECK(cub::DeviceReduce::Reduce(nullptr, temp_bytes, d_indexed, d_min, n, SmallerValue{}, start));
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  CHECK(cub::DeviceReduce::Reduce(d_temp, temp_bytes, d_indexed, d_min, n, SmallerValue{}, start));
  CHECK(cudaFree(d_temp));
  {
    std::vector<int> ab = to_host(d_ab, n);
    const long best = long(std::min_element(ab.begin(), ab.end()) - ab.begin());
    const Pair got = to_host(d_min, 1)[0];
    expect(got.key == best && got.value == ab[best], "arg-min through ArgIndexInputIterator");
  }

  printf("%d merged keys, %d gathered ints, %zu bytes moved, %d particles sorted\n", n1 + n2,
         gathered, total_bytes, np);
  if (g_wrong) {
    printf("cub merge batched FAILED (%d wrong)\n", g_wrong);
    return 1;
  }
  printf("cub merge batched PASSED\n");
  return 0;
}
