// expect: cub rank decode shuffle PASSED
// CUB's lower-level block and warp tools in the program's own kernels, written the way a
// hand-rolled radix pass and a run-length expander use them: blocks of 48 threads (one whole
// warp and half of another) holding 3 keys each, read through cub::CacheModifiedInputIterator
// (LOAD_LDG) and cub::ThreadLoad; cub::BlockRadixRank ranking a tile by a 5-bit digit
// (cub::BFEDigitExtractor, ascending, with each digit's exclusive prefix) and by a 4-bit digit
// (cub::ShiftDigitExtractor, descending), the keys scattered by rank with cub::ThreadStore and a
// cub::CacheModifiedOutputIterator, and cub::BlockRadixRankMatch ranking by a 3-bit digit (equal
// digits by warp, item, lane); cub::BlockRunLengthDecode expanding 96 runs (some empty at the
// end) window by window, from their lengths and from their offsets; and cub::ShuffleUp,
// ShuffleDown and ShuffleIndex over logical warps of 16 lanes with bounds inside the segment,
// a double broadcast over the partial warp, and cub::ArgIndexInputIterator pairing each item with
// its index. Each result is compared with a loop on the host.
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_run_length_decode.cuh>
#include <cub/iterator/arg_index_input_iterator.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cub/iterator/cache_modified_output_iterator.cuh>
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_store.cuh>
#include <cub/util_ptx.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

constexpr int kThreads = 48;
constexpr int kKeys = 3;
constexpr int kTile = kThreads * kKeys;
constexpr int kBlocks = 2;
constexpr int kRuns = 2;            // runs per thread
constexpr int kDecoded = 4;         // decoded items per thread per window
constexpr int kRunsPerBlock = kThreads * kRuns;
constexpr int kDigits = 32;       // 5-bit digits

using RankUp = cub::BlockRadixRank<kThreads, 5, false>;
using RankDown = cub::BlockRadixRank<kThreads, 4, true>;
using RankMatch = cub::BlockRadixRankMatch<kThreads, 3, false>;
using Decode = cub::BlockRunLengthDecode<int, kThreads, kRuns, kDecoded>;

__global__ void rank_tiles(const unsigned *keys, unsigned *scattered_up, unsigned *scattered_down,
                           unsigned *scattered_match, int *prefixes) {
  __shared__ typename RankUp::TempStorage up_storage;
  __shared__ typename RankDown::TempStorage down_storage;
  __shared__ typename RankMatch::TempStorage match_storage;
  const int tile = blockIdx.x * kTile;
  cub::CacheModifiedInputIterator<cub::LOAD_LDG, unsigned> in(keys + tile);
  unsigned items[kKeys];
  for (int k = 0; k < kKeys; ++k) items[k] = in[threadIdx.x * kKeys + k];

  int ranks[kKeys];
  int prefix[RankUp::BINS_TRACKED_PER_THREAD];
  RankUp(up_storage).RankKeys(items, ranks, cub::BFEDigitExtractor<unsigned>(3, 5), prefix);
  for (int k = 0; k < kKeys; ++k)
    cub::ThreadStore<cub::STORE_CG>(scattered_up + tile + ranks[k], items[k]);
  for (int t = 0; t < RankUp::BINS_TRACKED_PER_THREAD; ++t) {
    const int bin = threadIdx.x * RankUp::BINS_TRACKED_PER_THREAD + t;
    if (bin < kDigits) prefixes[blockIdx.x * kDigits + bin] = prefix[t];
  }

  cub::CacheModifiedOutputIterator<cub::STORE_CS, unsigned> out(scattered_down + tile);
  RankDown(down_storage).RankKeys(items, ranks, cub::ShiftDigitExtractor<unsigned>(0, 4));
  for (int k = 0; k < kKeys; ++k) out[ranks[k]] = items[k];

  RankMatch(match_storage).RankKeys(items, ranks, cub::BFEDigitExtractor<unsigned>(8, 3));
  for (int k = 0; k < kKeys; ++k) scattered_match[tile + ranks[k]] = items[k];
}

// Each block expands its 96 runs: by lengths (writing every window until the total), then by
// offsets (one window, from an offset inside it).
__global__ void expand_runs(const int *values, const int *lengths, int *decoded, int *within,
                            int *totals, int *window) {
  __shared__ typename Decode::TempStorage storage;
  const int first_run = blockIdx.x * kRunsPerBlock + threadIdx.x * kRuns;
  int run_values[kRuns], run_lengths[kRuns];
  for (int r = 0; r < kRuns; ++r) {
    run_values[r] = cub::ThreadLoad<cub::LOAD_CA>(values + first_run + r);
    run_lengths[r] = lengths[first_run + r];
  }
  int total = 0;
  Decode decode(storage, run_values, run_lengths, total);
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
  int *block_out = decoded + blockIdx.x * 1024;
  int *block_within = within + blockIdx.x * 1024;
  for (int from = 0; from < total; from += kThreads * kDecoded) {
    int items[kDecoded], offsets[kDecoded];
    decode.RunLengthDecode(items, offsets, from);
    for (int i = 0; i < kDecoded; ++i) {
      const int at = from + threadIdx.x * kDecoded + i;
      if (at < total) {
        block_out[at] = items[i];
        block_within[at] = offsets[i];
      }
    }
  }
  __syncthreads();  // before the storage is used again

  // The same runs given by where each begins.
  __shared__ int begins[kRunsPerBlock];
  if (threadIdx.x == 0) {
    int at = 0;
    for (int r = 0; r < kRunsPerBlock; ++r) {
      begins[r] = at;
      at += lengths[blockIdx.x * kRunsPerBlock + r];
    }
  }
  __syncthreads();
  int run_begins[kRuns];
  for (int r = 0; r < kRuns; ++r) run_begins[r] = begins[threadIdx.x * kRuns + r];
  Decode by_offsets(storage, run_values, run_begins);
  int items[kDecoded];
  const int from = 37;
  by_offsets.RunLengthDecode(items, from);
  for (int i = 0; i < kDecoded; ++i) {
    const int at = from + threadIdx.x * kDecoded + i;
    if (at < total) window[blockIdx.x * kThreads * kDecoded + threadIdx.x * kDecoded + i] = items[i];
  }
}

__global__ void warp_moves(const int *in, const double *weights, int *up, int *down, int *index,
                           double *broadcast, long long *paired) {
  const int t = threadIdx.x;
  const unsigned mask = (t < 32) ? 0xffffffffu : 0x0000ffffu;  // the second warp is half full
  const int v = in[t];
  up[t] = cub::ShuffleUp<16>(v, 2, 1, mask);
  down[t] = cub::ShuffleDown<16>(v, 3, 13, mask);
  index[t] = cub::ShuffleIndex<16>(v, 5, mask);
  broadcast[t] = cub::ShuffleIndex<32>(weights[t], 7, mask);
  cub::ArgIndexInputIterator<const int *> pairs(in);
  const cub::KeyValuePair<ptrdiff_t, int> p = pairs[t];
  paired[t] = (long long)p.key * 1000 + p.value;
}

// Copies in and out, as small helpers do in course code.
template <class T>
T *to_device(const std::vector<T> &h) {
  T *d = nullptr;
  if (cudaMalloc(&d, h.size() * sizeof(T)) == cudaSuccess)
    cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <class T>
std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> h(n);
  if (cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess) h.clear();
  return h;
}

int main() {
  int wrong = 0;

  // Ranking.
  std::vector<unsigned> h_keys(kBlocks * kTile);
  for (size_t i = 0; i < h_keys.size(); ++i) h_keys[i] = unsigned((i * 2654435761u) >> 7) & 0xffffu;
  unsigned *d_keys = to_device(h_keys), *d_up = nullptr, *d_down = nullptr, *d_match = nullptr;
  int *d_prefixes = nullptr;
  cudaMalloc(&d_up, h_keys.size() * sizeof(unsigned));
  cudaMalloc(&d_down, h_keys.size() * sizeof(unsigned));
  cudaMalloc(&d_match, h_keys.size() * sizeof(unsigned));
  cudaMalloc(&d_prefixes, kBlocks * kDigits * sizeof(int));
  rank_tiles<<<kBlocks, kThreads>>>(d_keys, d_up, d_down, d_match, d_prefixes);
  std::vector<unsigned> up = to_host(d_up, h_keys.size()), down = to_host(d_down, h_keys.size());
  std::vector<unsigned> match = to_host(d_match, h_keys.size());
  std::vector<int> prefixes = to_host(d_prefixes, kBlocks * kDigits);
  for (int b = 0; b < kBlocks; ++b) {
    std::vector<unsigned> tile(h_keys.begin() + b * kTile, h_keys.begin() + (b + 1) * kTile);
    std::vector<unsigned> want_up = tile, want_down = tile;
    std::stable_sort(want_up.begin(), want_up.end(),
                     [](unsigned x, unsigned y) { return ((x >> 3) & 31) < ((y >> 3) & 31); });
    std::stable_sort(want_down.begin(), want_down.end(),
                     [](unsigned x, unsigned y) { return (x & 15) > (y & 15); });
    for (int i = 0; i < kTile; ++i) {
      wrong += up[b * kTile + i] != want_up[i];
      wrong += down[b * kTile + i] != want_down[i];
    }
    // The match ranking orders equal digits by warp, then item, then lane.
    std::vector<int> order(kTile);
    for (int i = 0; i < kTile; ++i) order[i] = i;
    auto match_key = [&](int i) {
      const int t = i / kKeys, k = i % kKeys;
      return ((tile[i] >> 8) & 7) * 100000 + (t / 32) * 1000 + k * 100 + t % 32;
    };
    std::sort(order.begin(), order.end(), [&](int x, int y) { return match_key(x) < match_key(y); });
    for (int i = 0; i < kTile; ++i) wrong += match[b * kTile + i] != tile[order[i]];
    for (int d = 0; d < kDigits; ++d) {
      const int before = int(std::count_if(tile.begin(), tile.end(),
                                           [&](unsigned x) { return int((x >> 3) & 31) < d; }));
      wrong += prefixes[b * kDigits + d] != before;
    }
  }
  printf("ranked %d tiles, %d wrong so far\n", kBlocks, wrong);

  // Run-length decoding: lengths 1..5, the last 5 runs of each block empty (CUB allows a
  // zero-length run only where no longer run follows it).
  std::vector<int> h_values(kBlocks * kRunsPerBlock), h_lengths(kBlocks * kRunsPerBlock);
  for (int i = 0; i < kBlocks * kRunsPerBlock; ++i) {
    h_values[i] = i * 10 - 7;
    h_lengths[i] = (i % kRunsPerBlock) >= kRunsPerBlock - 5 ? 0 : 1 + (i * 7) % 5;
  }
  int *d_values = to_device(h_values), *d_lengths = to_device(h_lengths);
  int *d_decoded = nullptr, *d_within = nullptr, *d_totals = nullptr, *d_window = nullptr;
  cudaMalloc(&d_decoded, kBlocks * 1024 * sizeof(int));
  cudaMalloc(&d_within, kBlocks * 1024 * sizeof(int));
  cudaMalloc(&d_totals, kBlocks * sizeof(int));
  cudaMalloc(&d_window, kBlocks * kThreads * kDecoded * sizeof(int));
  expand_runs<<<kBlocks, kThreads>>>(d_values, d_lengths, d_decoded, d_within, d_totals, d_window);
  std::vector<int> totals = to_host(d_totals, kBlocks);
  std::vector<int> decoded = to_host(d_decoded, kBlocks * 1024);
  std::vector<int> within = to_host(d_within, kBlocks * 1024);
  std::vector<int> window = to_host(d_window, kBlocks * kThreads * kDecoded);
  for (int b = 0; b < kBlocks; ++b) {
    std::vector<int> want, want_within;
    for (int r = 0; r < kRunsPerBlock; ++r)
      for (int k = 0; k < h_lengths[b * kRunsPerBlock + r]; ++k) {
        want.push_back(h_values[b * kRunsPerBlock + r]);
        want_within.push_back(k);
      }
    wrong += totals[b] != int(want.size());
    for (size_t i = 0; i < want.size() && i < 1024; ++i) {
      wrong += decoded[b * 1024 + i] != want[i];
      wrong += within[b * 1024 + i] != want_within[i];
    }
    for (int i = 0; i < kThreads * kDecoded && 37 + i < int(want.size()); ++i)
      wrong += window[b * kThreads * kDecoded + i] != want[37 + i];
  }
  printf("decoded %d and %d items, %d wrong so far\n", totals[0], totals[1], wrong);

  // Shuffles over logical warps of 16 lanes.
  std::vector<int> h_in(kThreads);
  std::vector<double> h_weights(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    h_in[t] = t * t - 20;
    h_weights[t] = 0.5 * t + 0.125;
  }
  int *d_in = to_device(h_in), *d_upv = nullptr, *d_downv = nullptr, *d_index = nullptr;
  double *d_weights = to_device(h_weights), *d_broadcast = nullptr;
  long long *d_paired = nullptr;
  cudaMalloc(&d_upv, kThreads * sizeof(int));
  cudaMalloc(&d_downv, kThreads * sizeof(int));
  cudaMalloc(&d_index, kThreads * sizeof(int));
  cudaMalloc(&d_broadcast, kThreads * sizeof(double));
  cudaMalloc(&d_paired, kThreads * sizeof(long long));
  warp_moves<<<1, kThreads>>>(d_in, d_weights, d_upv, d_downv, d_index, d_broadcast, d_paired);
  std::vector<int> upv = to_host(d_upv, kThreads), downv = to_host(d_downv, kThreads),
                   index = to_host(d_index, kThreads);
  std::vector<double> broadcast = to_host(d_broadcast, kThreads);
  std::vector<long long> paired = to_host(d_paired, kThreads);
  for (int t = 0; t < kThreads; ++t) {
    const int segment = t & ~15, lane = t & 15;
    const int from_up = lane - 2 >= 1 ? t - 2 : t;
    const int from_down = lane + 3 <= 13 ? t + 3 : t;
    wrong += upv[t] != h_in[from_up];
    wrong += downv[t] != h_in[from_down];
    wrong += index[t] != h_in[segment + 5];
    wrong += broadcast[t] != h_weights[(t & ~31) + 7];
    wrong += paired[t] != (long long)t * 1000 + h_in[t];
  }
  printf("shuffled %d lanes, %d wrong\n", kThreads, wrong);

  if (wrong) {
    printf("cub rank decode shuffle FAILED\n");
    return 1;
  }
  printf("cub rank decode shuffle PASSED\n");
  return 0;
}
