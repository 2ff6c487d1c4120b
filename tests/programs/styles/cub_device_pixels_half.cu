// expect: cub pixels and half keys PASSED
// CUB's device-wide calls as an image-processing blog post and a mixed-precision sorting example
// make them, each twice (a null temporary storage asks for its size first): the R, G and B
// histograms of an RGBA image (4 channels, 3 counted) with even bins over the whole image and with
// ranged bins over a region of interest given by a row stride; a selection by flags with a
// predicate on the flag; the first of each run of keys with its value; sums and maxima of runs of
// keys; differences of neighbours, doubled by a for-each; and radix sorts of __half keys (with
// -0.0, +0.0, infinities and NaNs of both signs, ascending and descending, key-value pairs, over a
// bit range, and in segments) and of __nv_bfloat16 keys. Each result is compared with a loop on the
// host.
#include <cub/cub.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t status = (call);                                             \
    if (status != cudaSuccess) {                                             \
      fprintf(stderr, "%s failed at line %d: %s\n", #call, __LINE__,         \
              cudaGetErrorString(status));                                   \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

// The two-call idiom: the size of the temporary storage, then the work.
#define CUB_TWICE(call)                              \
  do {                                               \
    void *d_temp_storage = NULL;                     \
    size_t temp_storage_bytes = 0;                   \
    CUDA_CHECK(call);                                \
    CUDA_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes)); \
    CUDA_CHECK(call);                                \
    CUDA_CHECK(cudaFree(d_temp_storage));            \
  } while (0)

struct AtLeast3 {
  __host__ __device__ bool operator()(const int &flag) const { return flag >= 3; }
};
// Doubles element i of its array (for DeviceFor::Bulk).
struct DoubleAt {
  int *data;
  __device__ void operator()(int i) const { data[i] *= 2; }
};
struct Larger {
  __host__ __device__ int operator()(const int &a, const int &b) const { return a > b ? a : b; }
};

static int failures = 0;
static void verify(bool ok, const char *what) {
  if (!ok) {
    printf("mismatch: %s\n", what);
    failures++;
  }
}

template <typename T>
static T *upload(const std::vector<T> &h) {
  T *d = NULL;
  CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(T) + 16));
  CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
static std::vector<T> fetch(const T *d, size_t n) {
  std::vector<T> h(n);
  CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

static uint16_t bits_of(__half h) {
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
static __half half_from_bits(uint16_t b) {
  __half_raw r;
  r.x = b;
  return __half(r);
}

// The order of 16-bit float bit patterns as a radix sort takes them: -0.0 as +0.0, then the
// sign bit flipped (positive) or every bit (negative).
static uint16_t radix_pattern(uint16_t b) {
  if (b == 0x8000) b = 0;
  return (b & 0x8000) ? (uint16_t)~b : (uint16_t)(b ^ 0x8000);
}

// A value order for the host's check: -NaN first, numbers by value (-0.0 equal to +0.0), +NaN
// last.
static int nan_class(float f, uint16_t bits) {
  if (f != f) return (bits & 0x8000) ? 0 : 2;
  return 1;
}
static bool half_less(uint16_t a, uint16_t b) {
  float fa = __half2float(half_from_bits(a)), fb = __half2float(half_from_bits(b));
  int ca = nan_class(fa, a), cb = nan_class(fb, b);
  if (ca != cb) return ca < cb;
  return ca == 1 && fa < fb;
}

int main() {
  // ---- An RGBA image: histograms of R, G and B (alpha not counted).
  const int width = 40, height = 30, pixels = width * height;
  std::vector<unsigned char> h_image(pixels * 4);
  for (int p = 0; p < pixels; p++) {
    h_image[4 * p + 0] = (unsigned char)(p * 7 % 256);
    h_image[4 * p + 1] = (unsigned char)((p * p) % 251);
    h_image[4 * p + 2] = (unsigned char)(255 - p % 256);
    h_image[4 * p + 3] = 255;
  }
  unsigned char *d_image = upload(h_image);
  const int bins = 32;
  int *d_hist[3];
  for (int c = 0; c < 3; c++) CUDA_CHECK(cudaMalloc(&d_hist[c], 256 * sizeof(int)));
  int num_levels[3] = {bins + 1, bins + 1, bins + 1};
  unsigned int lower_level[3] = {0, 0, 0};
  unsigned int upper_level[3] = {256, 256, 256};
  CUB_TWICE((cub::DeviceHistogram::MultiHistogramEven<4, 3>(
      d_temp_storage, temp_storage_bytes, d_image, d_hist, num_levels, lower_level, upper_level,
      pixels)));
  bool even_ok = true;
  for (int c = 0; c < 3; c++) {
    std::vector<int> got = fetch(d_hist[c], bins), want(bins, 0);
    for (int p = 0; p < pixels; p++) want[h_image[4 * p + c] * bins / 256]++;
    even_ok = even_ok && got == want;
  }
  verify(even_ok, "DeviceHistogram::MultiHistogramEven<4, 3>");

  // Ranged bins over the region of interest: rows 5..24, columns 10..29.
  const int roi_x = 10, roi_y = 5, roi_w = 20, roi_h = 20;
  std::vector<int> h_levels = {0, 10, 50, 100, 128, 200, 250};  // 6 bins; 250..255 in none
  int *d_levels = upload(h_levels);
  const int *d_levels_per_channel[3] = {d_levels, d_levels, d_levels};
  int range_levels[3] = {7, 7, 7};
  const unsigned char *roi = d_image + 4 * (roi_y * width + roi_x);
  CUB_TWICE((cub::DeviceHistogram::MultiHistogramRange<4, 3>(
      d_temp_storage, temp_storage_bytes, roi, d_hist, range_levels, d_levels_per_channel, roi_w,
      roi_h, (size_t)width * 4)));
  bool range_ok = true;
  for (int c = 0; c < 3; c++) {
    std::vector<int> got = fetch(d_hist[c], 6), want(6, 0);
    for (int y = roi_y; y < roi_y + roi_h; y++)
      for (int x = roi_x; x < roi_x + roi_w; x++) {
        int s = h_image[4 * (y * width + x) + c];
        for (int b = 0; b < 6; b++)
          if (s >= h_levels[b] && s < h_levels[b + 1]) want[b]++;
      }
    range_ok = range_ok && got == want;
  }
  verify(range_ok, "DeviceHistogram::MultiHistogramRange<4, 3> over a row stride");

  // ---- Selection by flag, unique by key, reduce by key.
  const int n = 500;
  std::vector<int> h_items(n), h_flags(n), h_keys(n), h_values(n);
  for (int i = 0; i < n; i++) {
    h_items[i] = i * 3 - 100;
    h_flags[i] = (i * 13) % 7;
    h_keys[i] = (i / 9) % 17 + (i % 41 == 0 ? 100 : 0);  // runs, some of one item
    h_values[i] = (i * 29) % 53 - 20;
  }
  int *d_items = upload(h_items), *d_flags = upload(h_flags), *d_keys = upload(h_keys);
  int *d_values = upload(h_values), *d_out = upload(std::vector<int>(n, 0));
  int *d_out2 = upload(std::vector<int>(n, 0)), *d_count = upload(std::vector<int>(1, 0));

  CUB_TWICE(cub::DeviceSelect::FlaggedIf(d_temp_storage, temp_storage_bytes, d_items, d_flags,
                                         d_out, d_count, n, AtLeast3()));
  std::vector<int> want_selected;
  for (int i = 0; i < n; i++)
    if (h_flags[i] >= 3) want_selected.push_back(h_items[i]);
  int selected = fetch(d_count, 1)[0];
  verify(selected == (int)want_selected.size() && fetch(d_out, selected) == want_selected,
         "DeviceSelect::FlaggedIf");

  std::vector<int> want_keys, want_first, want_sums, want_max;
  for (int i = 0; i < n; i++) {
    if (i == 0 || h_keys[i] != h_keys[i - 1]) {
      want_keys.push_back(h_keys[i]);
      want_first.push_back(h_values[i]);
      want_sums.push_back(0);
      want_max.push_back(h_values[i]);
    }
    want_sums.back() += h_values[i];
    want_max.back() = std::max(want_max.back(), h_values[i]);
  }
  const int runs = (int)want_keys.size();
  CUB_TWICE(cub::DeviceSelect::UniqueByKey(d_temp_storage, temp_storage_bytes, d_keys, d_values,
                                           d_out, d_out2, d_count, n));
  verify(fetch(d_count, 1)[0] == runs && fetch(d_out, runs) == want_keys &&
             fetch(d_out2, runs) == want_first,
         "DeviceSelect::UniqueByKey");
  CUB_TWICE(cub::DeviceReduce::ReduceByKey(d_temp_storage, temp_storage_bytes, d_keys, d_out,
                                           d_values, d_out2, d_count, Larger(), n));
  verify(fetch(d_count, 1)[0] == runs && fetch(d_out, runs) == want_keys &&
             fetch(d_out2, runs) == want_max,
         "DeviceReduce::ReduceByKey (maximum)");
  CUB_TWICE(cub::DeviceReduce::ReduceByKey(d_temp_storage, temp_storage_bytes, d_keys, d_out,
                                           d_values, d_out2, d_count, cuda::std::plus<int>(), n));
  verify(fetch(d_out2, runs) == want_sums, "DeviceReduce::ReduceByKey (sum)");

  // ---- Differences of neighbours, then each doubled in place.
  CUB_TWICE(cub::DeviceAdjacentDifference::SubtractLeftCopy(d_temp_storage, temp_storage_bytes,
                                                            d_values, d_out, n));
  CUDA_CHECK(cub::DeviceFor::Bulk(n, DoubleAt{d_out}));
  std::vector<int> want_diff(n);
  for (int i = 0; i < n; i++)
    want_diff[i] = 2 * (i == 0 ? h_values[0] : h_values[i] - h_values[i - 1]);
  verify(fetch(d_out, n) == want_diff,
         "DeviceAdjacentDifference::SubtractLeftCopy, DeviceFor::Bulk");

  // ---- Radix sorts of __half keys.
  std::vector<uint16_t> specials = {0x8000, 0x0000, 0x7C00, 0xFC00, 0x7E00, 0xFE00,
                                    0x0001, 0x8001, 0x3C00, 0xBC00, 0x0000, 0x8000};
  const int m = 300;
  std::vector<__half> h_half(m);
  std::vector<uint16_t> h_bits(m);
  for (int i = 0; i < m; i++) {
    h_half[i] = i % 25 == 0 ? half_from_bits(specials[(i / 25) % specials.size()])
                            : __float2half((float)((i * 7919) % 401 - 200) / 8.0f);
    h_bits[i] = bits_of(h_half[i]);
  }
  std::vector<int> h_index(m);
  std::iota(h_index.begin(), h_index.end(), 0);
  __half *d_half_in = upload(h_half), *d_half_out = upload(h_half);
  int *d_index = upload(h_index), *d_index_out = upload(h_index);

  std::vector<int> ascending(h_index), descending(h_index);
  std::stable_sort(ascending.begin(), ascending.end(),
                   [&](int a, int b) { return half_less(h_bits[a], h_bits[b]); });
  std::stable_sort(descending.begin(), descending.end(),
                   [&](int a, int b) { return half_less(h_bits[b], h_bits[a]); });

  CUB_TWICE(cub::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_half_in,
                                            d_half_out, d_index, d_index_out, m));
  std::vector<__half> got_half = fetch(d_half_out, m);
  std::vector<int> got_index = fetch(d_index_out, m);
  bool pairs_ok = got_index == ascending;
  for (int i = 0; i < m; i++) pairs_ok = pairs_ok && bits_of(got_half[i]) == h_bits[ascending[i]];
  verify(pairs_ok, "DeviceRadixSort::SortPairs of __half keys (stable, -0.0 equal to +0.0)");

  CUB_TWICE(cub::DeviceRadixSort::SortPairsDescending(d_temp_storage, temp_storage_bytes,
                                                      d_half_in, d_half_out, d_index,
                                                      d_index_out, m));
  verify(fetch(d_index_out, m) == descending, "DeviceRadixSort::SortPairsDescending of __half");

  // Bits 10..15 only: sign and exponent, each class of them in input order.
  std::vector<int> by_exponent(h_index);
  std::stable_sort(by_exponent.begin(), by_exponent.end(), [&](int a, int b) {
    return (radix_pattern(h_bits[a]) >> 10) < (radix_pattern(h_bits[b]) >> 10);
  });
  CUB_TWICE(cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, d_half_in,
                                           d_half_out, m, 10, 16));
  got_half = fetch(d_half_out, m);
  bool range_sort_ok = true;
  for (int i = 0; i < m; i++)
    range_sort_ok = range_sort_ok && bits_of(got_half[i]) == h_bits[by_exponent[i]];
  verify(range_sort_ok, "DeviceRadixSort::SortKeys of __half over bits [10, 16)");

  // ---- Segments of __half keys sorted each on its own (one empty, items 290.. in none).
  std::vector<int> h_begin = {0, 100, 100, 230}, h_end = {100, 100, 230, 290};
  int *d_begin = upload(h_begin), *d_end = upload(h_end);
  CUDA_CHECK(cudaMemcpy(d_half_out, d_half_in, m * sizeof(__half), cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpy(d_index_out, d_index, m * sizeof(int), cudaMemcpyDeviceToDevice));
  CUB_TWICE(cub::DeviceSegmentedSort::StableSortPairs(d_temp_storage, temp_storage_bytes,
                                                      d_half_in, d_half_out, d_index, d_index_out,
                                                      m, 4, d_begin, d_end));
  std::vector<int> by_segment(h_index);
  for (int s = 0; s < 4; s++)
    std::stable_sort(by_segment.begin() + h_begin[s], by_segment.begin() + h_end[s],
                     [&](int a, int b) { return half_less(h_bits[a], h_bits[b]); });
  verify(fetch(d_index_out, m) == by_segment, "DeviceSegmentedSort::StableSortPairs of __half");

  // ---- __nv_bfloat16 keys, descending.
  std::vector<__nv_bfloat16> h_bf(64);
  std::vector<float> h_bf_values(64);
  for (int i = 0; i < 64; i++) {
    h_bf[i] = __float2bfloat16((float)((i * 37) % 29 - 14) * 0.75f);
    h_bf_values[i] = __bfloat162float(h_bf[i]);
  }
  __nv_bfloat16 *d_bf_in = upload(h_bf), *d_bf_out = upload(h_bf);
  CUB_TWICE(cub::DeviceRadixSort::SortKeysDescending(d_temp_storage, temp_storage_bytes, d_bf_in,
                                                     d_bf_out, 64));
  std::vector<__nv_bfloat16> got_bf = fetch(d_bf_out, 64);
  std::sort(h_bf_values.begin(), h_bf_values.end(), [](float a, float b) { return a > b; });
  bool bf_ok = true;
  for (int i = 0; i < 64; i++) bf_ok = bf_ok && __bfloat162float(got_bf[i]) == h_bf_values[i];
  verify(bf_ok, "DeviceRadixSort::SortKeysDescending of __nv_bfloat16");

  printf("red bin 0: %d pixels, %d runs of keys, smallest half %g\n",
         fetch(d_hist[0], 1)[0], runs, __half2float(fetch(d_half_in, m)[ascending[1]]));
  printf("cub pixels and half keys %s\n", failures == 0 ? "PASSED" : "FAILED");
  for (int c = 0; c < 3; c++) CUDA_CHECK(cudaFree(d_hist[c]));
  CUDA_CHECK(cudaFree(d_image));
  CUDA_CHECK(cudaFree(d_levels));
  CUDA_CHECK(cudaFree(d_items));
  CUDA_CHECK(cudaFree(d_flags));
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_values));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_out2));
  CUDA_CHECK(cudaFree(d_count));
  CUDA_CHECK(cudaFree(d_half_in));
  CUDA_CHECK(cudaFree(d_half_out));
  CUDA_CHECK(cudaFree(d_index));
  CUDA_CHECK(cudaFree(d_index_out));
  CUDA_CHECK(cudaFree(d_begin));
  CUDA_CHECK(cudaFree(d_end));
  CUDA_CHECK(cudaFree(d_bf_in));
  CUDA_CHECK(cudaFree(d_bf_out));
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
