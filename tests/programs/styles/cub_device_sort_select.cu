// expect: cub device sort select PASSED
// CUB's device-wide algorithms, called as CUB's examples call them: each call twice (a null
// temporary-storage pointer asks for its size, then storage of that size from cudaMalloc does
// the work), every runtime call checked. Radix sorts of key-value pairs, of floating-point keys
// in descending order, of a DoubleBuffer over a bit range and of segments; merge sorts under
// the program's comparison, stable and not (each checked only for what it promises); the first
// maximum and minimum with their index; a sum, a maximum, a running sum and a transform-reduce,
// directly and through a thrust::transform_iterator and a cub::CacheModifiedInputIterator;
// selection, partition and run-length encoding; even and ranged histograms; segmented
// reductions and a scan by key. Each result is compared with a loop on the host.
#include <thrust/iterator/transform_iterator.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#define CHECK(call)                                                                \
  do {                                                                             \
    cudaError_t err = (call);                                                      \
    if (err != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
      exit(EXIT_FAILURE);                                                          \
    }                                                                              \
  } while (0)

// Sizes the temporary storage with a first call, then makes the call again with it.
#define CUB_CALL(call)                                      \
  do {                                                      \
    void* d_temp_storage = nullptr;                         \
    size_t temp_storage_bytes = 0;                          \
    CHECK(call);                                            \
    CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes)); \
    CHECK(call);                                            \
    CHECK(cudaFree(d_temp_storage));                        \
  } while (0)

struct IsOdd {
  __host__ __device__ bool operator()(const int& x) const { return (x & 1) != 0; }
};
struct Square {
  __host__ __device__ long long operator()(const int& x) const { return (long long)x * x; }
};
struct GreaterKey {
  __host__ __device__ bool operator()(const int& a, const int& b) const { return a > b; }
};
struct ByHundreds {
  __host__ __device__ bool operator()(const int& a, const int& b) const {
    return a / 100 < b / 100;
  }
};
struct Plus {
  __host__ __device__ long long operator()(const long long& a, const long long& b) const {
    return a + b;
  }
};

template <typename T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T) + 1));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
std::vector<T> to_host(const T* d, size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

std::vector<int> gather(const std::vector<int>& from, const std::vector<int>& at) {
  std::vector<int> out;
  for (int i : at) out.push_back(from[i]);
  return out;
}

// Whether `got` is `want` but for the order within each run of items with one class(item): the
// result an unstable sort may give where a stable one gives `want`.
template <typename Class>
bool same_runs(const std::vector<int>& want, const std::vector<int>& got, Class class_of) {
  if (got.size() != want.size()) return false;
  for (size_t first = 0; first < want.size();) {
    size_t last = first + 1;
    while (last < want.size() && class_of(want[last]) == class_of(want[first])) ++last;
    std::vector<int> a(want.begin() + first, want.begin() + last);
    std::vector<int> b(got.begin() + first, got.begin() + last);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) return false;
    first = last;
  }
  return true;
}

int g_wrong = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    printf("wrong: %s\n", what);
    ++g_wrong;
  }
}

int main() {
  const int num_items = 2000;
  std::vector<int> h_keys(num_items), h_values(num_items);
  std::vector<float> h_floats(num_items);
  for (int i = 0; i < num_items; ++i) {
    h_keys[i] = (i * 7919) % 613 - 300;  // repeats, so stability shows
    h_values[i] = i;
    h_floats[i] = (i % 5 == 0) ? ((i % 10 == 0) ? -0.0f : 0.0f) : float((i * 37) % 199 - 99) / 8;
  }
  int *d_keys = to_device(h_keys), *d_values = to_device(h_values);
  float* d_floats = to_device(h_floats);
  int *d_keys_out = to_device(h_keys), *d_values_out = to_device(h_values);
  float* d_floats_out = to_device(h_floats);

  // Radix sort of pairs: keys ascending, equal keys in their input order.
  CUB_CALL(cub::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_keys_out,
                                           d_values, d_values_out, num_items));
  std::vector<int> order(num_items);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h_keys[a] < h_keys[b]; });
  std::vector<int> sorted_keys = to_host(d_keys_out, num_items);
  std::vector<int> sorted_values = to_host(d_values_out, num_items);
  bool ok = true;
  for (int i = 0; i < num_items; ++i)
    ok = ok && sorted_keys[i] == h_keys[order[i]] && sorted_values[i] == order[i];
  expect(ok, "DeviceRadixSort::SortPairs");

  // Floating-point keys, largest first; -0.0 and +0.0 are equal and keep their order.
  CUB_CALL(cub::DeviceRadixSort::SortKeysDescending(d_temp_storage, temp_storage_bytes, d_floats,
                                                    d_floats_out, num_items));
  std::vector<float> want_floats = h_floats, got_floats = to_host(d_floats_out, num_items);
  std::stable_sort(want_floats.begin(), want_floats.end(), [](float a, float b) { return a > b; });
  ok = true;
  for (int i = 0; i < num_items; ++i)
    ok = ok && got_floats[i] == want_floats[i] &&
         std::signbit(got_floats[i]) == std::signbit(want_floats[i]);
  expect(ok, "DeviceRadixSort::SortKeysDescending");

  // A DoubleBuffer sorted by its low 4 bits only: the result is in Current().
  CHECK(cudaMemcpy(d_keys_out, h_keys.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));
  int* d_spare = to_device(h_keys);
  cub::DoubleBuffer<int> d_buffer(d_keys_out, d_spare);
  CUB_CALL(cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, d_buffer, num_items,
                                          0, 4));
  std::vector<int> want_low = h_keys, got_low = to_host(d_buffer.Current(), num_items);
  std::stable_sort(want_low.begin(), want_low.end(),
                   [](int a, int b) { return (a & 15) < (b & 15); });
  expect(got_low == want_low, "DeviceRadixSort::SortKeys DoubleBuffer bits [0, 4)");

  // Segments of 100 keys sorted each on its own.
  const int num_segments = num_items / 100;
  std::vector<int> h_offsets(num_segments + 1);
  for (int s = 0; s <= num_segments; ++s) h_offsets[s] = s * 100;
  int* d_offsets = to_device(h_offsets);
  CUB_CALL(cub::DeviceSegmentedRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, d_keys,
                                                   d_keys_out, num_items, num_segments, d_offsets,
                                                   d_offsets + 1));
  std::vector<int> want_segments = h_keys;
  for (int s = 0; s < num_segments; ++s)
    std::sort(want_segments.begin() + h_offsets[s], want_segments.begin() + h_offsets[s + 1]);
  expect(to_host(d_keys_out, num_items) == want_segments, "DeviceSegmentedRadixSort::SortKeys");

  // Merge sort in place under a comparison of the program's.
  CHECK(cudaMemcpy(d_keys_out, h_keys.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_values_out, h_values.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));
  CUB_CALL(cub::DeviceMergeSort::StableSortPairs(d_temp_storage, temp_storage_bytes, d_keys_out,
                                                 d_values_out, num_items, GreaterKey()));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h_keys[a] > h_keys[b]; });
  sorted_values = to_host(d_values_out, num_items);
  expect(std::equal(order.begin(), order.end(), sorted_values.begin()),
         "DeviceMergeSort::StableSortPairs");

  // SortPairs promises the keys in order, each with its own value, but no order of equal keys:
  // each run of equal keys must hold the values the stable order's run holds, in any order.
  CHECK(cudaMemcpy(d_keys_out, h_keys.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_values_out, h_values.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));
  CUB_CALL(cub::DeviceMergeSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys_out,
                                           d_values_out, num_items, GreaterKey()));
  sorted_keys = to_host(d_keys_out, num_items);
  sorted_values = to_host(d_values_out, num_items);
  expect(same_runs(order, sorted_values, [&](int v) { return h_keys[v]; }) &&
             sorted_keys == gather(h_keys, order),
         "DeviceMergeSort::SortPairs");
  printf("DeviceMergeSort::SortPairs kept equal keys in input order: %s\n",
         sorted_values == order ? "yes" : "no");

  // Keys alone, compared by their hundreds: SortKeysCopy may give keys of one hundred in any
  // order, StableSortKeysCopy in their input order.
  std::vector<int> by_hundreds(num_items);
  std::iota(by_hundreds.begin(), by_hundreds.end(), 0);
  std::stable_sort(by_hundreds.begin(), by_hundreds.end(),
                   [&](int a, int b) { return h_keys[a] / 100 < h_keys[b] / 100; });
  const std::vector<int> want_hundreds = gather(h_keys, by_hundreds);
  CUB_CALL(cub::DeviceMergeSort::StableSortKeysCopy(d_temp_storage, temp_storage_bytes, d_keys,
                                                    d_keys_out, num_items, ByHundreds()));
  expect(to_host(d_keys_out, num_items) == want_hundreds, "DeviceMergeSort::StableSortKeysCopy");
  CUB_CALL(cub::DeviceMergeSort::SortKeysCopy(d_temp_storage, temp_storage_bytes, d_keys,
                                              d_keys_out, num_items, ByHundreds()));
  sorted_keys = to_host(d_keys_out, num_items);
  expect(same_runs(want_hundreds, sorted_keys, [](int k) { return k / 100; }),
         "DeviceMergeSort::SortKeysCopy");
  printf("DeviceMergeSort::SortKeysCopy kept equal keys in input order: %s\n",
         sorted_keys == want_hundreds ? "yes" : "no");

  // The first maximum (CUDA 13's two outputs) and the first minimum (a KeyValuePair).
  int* d_max = to_device(std::vector<int>(1));
  int64_t* d_max_index = to_device(std::vector<int64_t>(1));
  CUB_CALL(cub::DeviceReduce::ArgMax(d_temp_storage, temp_storage_bytes, d_keys, d_max, d_max_index,
                                     num_items));
  cub::KeyValuePair<int, int>* d_argmin = to_device(std::vector<cub::KeyValuePair<int, int>>(1));
  CUB_CALL(
      cub::DeviceReduce::ArgMin(d_temp_storage, temp_storage_bytes, d_keys, d_argmin, num_items));
  const int max_at = int(std::max_element(h_keys.begin(), h_keys.end()) - h_keys.begin());
  const int min_at = int(std::min_element(h_keys.begin(), h_keys.end()) - h_keys.begin());
  const cub::KeyValuePair<int, int> argmin = to_host(d_argmin, 1)[0];
  expect(to_host(d_max, 1)[0] == h_keys[max_at] && to_host(d_max_index, 1)[0] == max_at,
         "DeviceReduce::ArgMax");
  expect(argmin.key == min_at && argmin.value == h_keys[min_at], "DeviceReduce::ArgMin");

  // Sum, maximum, running sum, and sum of squares.
  int *d_sum = to_device(std::vector<int>(1)), *d_running = to_device(h_keys);
  CUB_CALL(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_keys, d_sum, num_items));
  const int want_sum = std::accumulate(h_keys.begin(), h_keys.end(), 0);
  expect(to_host(d_sum, 1)[0] == want_sum, "DeviceReduce::Sum");
  CUB_CALL(cub::DeviceReduce::Max(d_temp_storage, temp_storage_bytes, d_keys, d_sum, num_items));
  expect(to_host(d_sum, 1)[0] == h_keys[max_at], "DeviceReduce::Max");
  CUB_CALL(cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, d_keys, d_running,
                                         num_items));
  std::vector<int> want_running(num_items);
  std::partial_sum(h_keys.begin(), h_keys.end(), want_running.begin());
  expect(to_host(d_running, num_items) == want_running, "DeviceScan::InclusiveSum");
  long long* d_squares = to_device(std::vector<long long>(1));
  CUB_CALL(cub::DeviceReduce::TransformReduce(d_temp_storage, temp_storage_bytes, d_keys, d_squares,
                                              num_items, Plus(), Square(), 0LL));
  long long want_squares = 0;
  for (int k : h_keys) want_squares += (long long)k * k;
  expect(to_host(d_squares, 1)[0] == want_squares, "DeviceReduce::TransformReduce");
  // The same through iterators: squares from a thrust::transform_iterator, and the maximum
  // through CUB's cache-modified iterator.
  thrust::transform_iterator<Square, int*> squares(d_keys, Square());
  CUB_CALL(
      cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, squares, d_squares, num_items));
  expect(to_host(d_squares, 1)[0] == want_squares, "DeviceReduce::Sum of a transform_iterator");
  cub::CacheModifiedInputIterator<cub::LOAD_LDG, int> ldg_keys(d_keys);
  CUB_CALL(cub::DeviceReduce::Max(d_temp_storage, temp_storage_bytes, ldg_keys, d_sum, num_items));
  expect(to_host(d_sum, 1)[0] == h_keys[max_at],
         "DeviceReduce::Max through CacheModifiedInputIterator");

  // Selection and partition of the odd keys, flagged selection, unique runs.
  int* d_num_selected = to_device(std::vector<int>(2));
  std::vector<int> odd, even;
  for (int k : h_keys) (k & 1 ? odd : even).push_back(k);
  CUB_CALL(cub::DeviceSelect::If(d_temp_storage, temp_storage_bytes, d_keys, d_keys_out,
                                 d_num_selected, num_items, IsOdd()));
  expect(to_host(d_num_selected, 1)[0] == int(odd.size()) && to_host(d_keys_out, odd.size()) == odd,
         "DeviceSelect::If");
  CUB_CALL(cub::DevicePartition::If(d_temp_storage, temp_storage_bytes, d_keys, d_keys_out,
                                    d_num_selected, num_items, IsOdd()));
  std::vector<int> want_partition = odd;
  want_partition.insert(want_partition.end(), even.rbegin(), even.rend());  // the rest, reversed
  expect(to_host(d_num_selected, 1)[0] == int(odd.size()) &&
             to_host(d_keys_out, num_items) == want_partition,
         "DevicePartition::If");
  std::vector<char> h_flags(num_items);
  std::vector<int> flagged;
  for (int i = 0; i < num_items; ++i)
    if ((h_flags[i] = (i % 3 == 0))) flagged.push_back(h_values[i]);
  char* d_flags = to_device(h_flags);
  CUB_CALL(cub::DeviceSelect::Flagged(d_temp_storage, temp_storage_bytes, d_values, d_flags,
                                      d_values_out, d_num_selected, num_items));
  expect(to_host(d_num_selected, 1)[0] == int(flagged.size()) &&
             to_host(d_values_out, flagged.size()) == flagged,
         "DeviceSelect::Flagged");

  // Runs of the sorted keys: unique keys, their counts, and the runs longer than one.
  std::vector<int> h_sorted = h_keys;
  std::sort(h_sorted.begin(), h_sorted.end());
  int* d_sorted = to_device(h_sorted);
  std::vector<int> want_unique, want_counts, want_offsets, want_lengths;
  for (int i = 0; i < num_items;) {
    int j = i;
    while (j < num_items && h_sorted[j] == h_sorted[i]) ++j;
    want_unique.push_back(h_sorted[i]);
    want_counts.push_back(j - i);
    if (j - i > 1) {
      want_offsets.push_back(i);
      want_lengths.push_back(j - i);
    }
    i = j;
  }
  int *d_counts = to_device(std::vector<int>(num_items)),
      *d_num_runs = to_device(std::vector<int>(1));
  CUB_CALL(cub::DeviceSelect::Unique(d_temp_storage, temp_storage_bytes, d_sorted, d_keys_out,
                                     d_num_selected, num_items));
  expect(to_host(d_num_selected, 1)[0] == int(want_unique.size()) &&
             to_host(d_keys_out, want_unique.size()) == want_unique,
         "DeviceSelect::Unique");
  CUB_CALL(cub::DeviceRunLengthEncode::Encode(d_temp_storage, temp_storage_bytes, d_sorted,
                                              d_keys_out, d_counts, d_num_runs, num_items));
  expect(to_host(d_num_runs, 1)[0] == int(want_unique.size()) &&
             to_host(d_keys_out, want_unique.size()) == want_unique &&
             to_host(d_counts, want_counts.size()) == want_counts,
         "DeviceRunLengthEncode::Encode");
  CUB_CALL(cub::DeviceRunLengthEncode::NonTrivialRuns(d_temp_storage, temp_storage_bytes, d_sorted,
                                                      d_keys_out, d_counts, d_num_runs, num_items));
  expect(to_host(d_num_runs, 1)[0] == int(want_offsets.size()) &&
             to_host(d_keys_out, want_offsets.size()) == want_offsets &&
             to_host(d_counts, want_lengths.size()) == want_lengths,
         "DeviceRunLengthEncode::NonTrivialRuns");

  // Histograms: 8 even bins over [-200, 200), and bins between uneven levels.
  const int num_levels = 9;
  std::vector<int> h_levels = {-300, -250, -100, -10, 0, 10, 100, 250, 313};
  int *d_levels = to_device(h_levels), *d_histogram = to_device(std::vector<int>(num_levels - 1));
  std::vector<int> want_even(num_levels - 1), want_range(num_levels - 1);
  for (int k : h_keys) {
    if (k >= -200 && k < 200) ++want_even[(k + 200) * 8 / 400];
    for (int b = 0; b + 1 < num_levels; ++b)
      if (k >= h_levels[b] && k < h_levels[b + 1]) ++want_range[b];
  }
  CUB_CALL(cub::DeviceHistogram::HistogramEven(d_temp_storage, temp_storage_bytes, d_keys,
                                               d_histogram, num_levels, -200, 200, num_items));
  expect(to_host(d_histogram, num_levels - 1) == want_even, "DeviceHistogram::HistogramEven");
  CUB_CALL(cub::DeviceHistogram::HistogramRange(d_temp_storage, temp_storage_bytes, d_keys,
                                                d_histogram, num_levels, d_levels, num_items));
  expect(to_host(d_histogram, num_levels - 1) == want_range, "DeviceHistogram::HistogramRange");

  // Per segment: sums and maxima; a running sum that restarts at each new sorted key.
  CUB_CALL(cub::DeviceSegmentedReduce::Sum(d_temp_storage, temp_storage_bytes, d_keys, d_keys_out,
                                           num_segments, d_offsets, d_offsets + 1));
  std::vector<int> got_sums = to_host(d_keys_out, num_segments);
  CUB_CALL(cub::DeviceSegmentedReduce::Max(d_temp_storage, temp_storage_bytes, d_keys, d_keys_out,
                                           num_segments, d_offsets, d_offsets + 1));
  std::vector<int> got_maxima = to_host(d_keys_out, num_segments);
  ok = true;
  for (int s = 0; s < num_segments; ++s) {
    const auto first = h_keys.begin() + h_offsets[s], last = h_keys.begin() + h_offsets[s + 1];
    ok = ok && got_sums[s] == std::accumulate(first, last, 0) &&
         got_maxima[s] == *std::max_element(first, last);
  }
  expect(ok, "DeviceSegmentedReduce::Sum and Max");
  CUB_CALL(cub::DeviceScan::InclusiveSumByKey(d_temp_storage, temp_storage_bytes, d_sorted,
                                              d_values, d_values_out, num_items));
  std::vector<int> got_scan = to_host(d_values_out, num_items);
  ok = true;
  for (int i = 0, running = 0; i < num_items; ++i) {
    running = (i > 0 && h_sorted[i] == h_sorted[i - 1]) ? running + h_values[i] : h_values[i];
    ok = ok && got_scan[i] == running;
  }
  expect(ok, "DeviceScan::InclusiveSumByKey");

  printf("%d unique keys, %zu odd, %d wrong\n", int(want_unique.size()), odd.size(), g_wrong);
  printf("cub device sort select %s\n", g_wrong == 0 ? "PASSED" : "FAILED");
  for (void* p : {(void*)d_keys,         (void*)d_values,     (void*)d_floats,    (void*)d_keys_out,
                  (void*)d_values_out,   (void*)d_floats_out, (void*)d_spare,     (void*)d_offsets,
                  (void*)d_max,          (void*)d_max_index,  (void*)d_argmin,    (void*)d_squares,
                  (void*)d_num_selected, (void*)d_flags,      (void*)d_sorted,    (void*)d_counts,
                  (void*)d_num_runs,     (void*)d_levels,     (void*)d_histogram, (void*)d_sum,
                  (void*)d_running})
    CHECK(cudaFree(p));
  return g_wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
