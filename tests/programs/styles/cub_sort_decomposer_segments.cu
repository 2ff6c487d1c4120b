// expect: cub decomposer segments PASSED
// Sorting records by a composite key, in the style of a leaderboard job's kernels and host code:
// cub::BlockRadixSort of a struct key (league, then score) through a decomposer, in each of its
// sixteen forms (blocked and blocked-to-striped, ascending and descending, keys alone and with
// values, the bits left to the decomposer or named: all, the league's or the score's); a partial
// last tile padded with keys that sort last. Then per-league segments, some empty and some of one record:
// cub::DeviceSegmentedRadixSort through DoubleBuffers (pairs ascending over a bit range, keys
// descending), and cub::DeviceSegmentedSort's unstable and stable forms. Radix sorts are stable,
// so records with equal keys are checked to keep their order; an unstable sort is checked for
// sorted keys and the same records in each segment, in whatever order equal keys came.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/tuple>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cstdio>
#include <vector>

#define CUDA_CHECK(call)                                                          \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

struct Entry {
  short league;
  float score;
};

// Most significant first: the league, then the score.
struct LeagueThenScore {
  __host__ __device__ cuda::std::tuple<short &, float &> operator()(Entry &e) const {
    return {e.league, e.score};
  }
};

constexpr int kThreads = 64;
constexpr int kPerThread = 3;
constexpr int kTile = kThreads * kPerThread;

// Each of BlockRadixSort's sixteen decomposer overloads: its sort, whether with values, and the
// bits it sorts by ([0, 48) all of them, [32, 48) the league's, [0, 32) the score's), and whether
// the call names those bits or leaves them to the decomposer.
struct Mode {
  bool descending, striped, pairs, bits_named;
  int begin_bit, end_bit;
};
__host__ __device__ constexpr Mode mode_of(int m) {
  // m: bit 0 pairs, bit 1 bits named, bit 2 descending, bit 3 striped. Named bits: the league's
  // (ascending keys, descending pairs), the score's (descending keys) or all (ascending pairs).
  const bool pairs = (m & 1) != 0, named = (m & 2) != 0, down = (m & 4) != 0;
  return Mode{down, (m & 8) != 0, pairs, named, named && pairs == down ? 32 : 0,
              named && !pairs && down ? 32 : 48};
}
constexpr int kModes = 16;

// The sort of a mode (CUB 13's keys-only decomposer sorts take a BlockRadixSort declared without
// values, so keys alone have one of those).
template <int MODE, class BlockSort>
__device__ void sort_items(BlockSort &sorter, Entry (&keys)[kPerThread], int (&ids)[kPerThread]) {
  constexpr Mode m = mode_of(MODE);
  const LeagueThenScore d{};
  if constexpr (m.pairs && m.bits_named) {
    if constexpr (!m.striped && !m.descending)
      sorter.Sort(keys, ids, d, m.begin_bit, m.end_bit);
    else if constexpr (!m.striped)
      sorter.SortDescending(keys, ids, d, m.begin_bit, m.end_bit);
    else if constexpr (!m.descending)
      sorter.SortBlockedToStriped(keys, ids, d, m.begin_bit, m.end_bit);
    else
      sorter.SortDescendingBlockedToStriped(keys, ids, d, m.begin_bit, m.end_bit);
  } else if constexpr (m.pairs) {
    if constexpr (!m.striped && !m.descending)
      sorter.Sort(keys, ids, d);
    else if constexpr (!m.striped)
      sorter.SortDescending(keys, ids, d);
    else if constexpr (!m.descending)
      sorter.SortBlockedToStriped(keys, ids, d);
    else
      sorter.SortDescendingBlockedToStriped(keys, ids, d);
  } else if constexpr (m.bits_named) {
    if constexpr (!m.striped && !m.descending)
      sorter.Sort(keys, d, m.begin_bit, m.end_bit);
    else if constexpr (!m.striped)
      sorter.SortDescending(keys, d, m.begin_bit, m.end_bit);
    else if constexpr (!m.descending)
      sorter.SortBlockedToStriped(keys, d, m.begin_bit, m.end_bit);
    else
      sorter.SortDescendingBlockedToStriped(keys, d, m.begin_bit, m.end_bit);
  } else {
    if constexpr (!m.striped && !m.descending)
      sorter.Sort(keys, d);
    else if constexpr (!m.striped)
      sorter.SortDescending(keys, d);
    else if constexpr (!m.descending)
      sorter.SortBlockedToStriped(keys, d);
    else
      sorter.SortDescendingBlockedToStriped(keys, d);
  }
}

template <bool PAIRS>
struct TileSort {
  typedef cub::BlockRadixSort<Entry, kThreads, kPerThread, int> type;
};
template <>
struct TileSort<false> {
  typedef cub::BlockRadixSort<Entry, kThreads, kPerThread> type;
};

// One tile per block: the tile's valid entries, the rest padded with a key that sorts after every
// real one in this mode's order (the highest league and score, or the lowest when descending).
template <int MODE>
__global__ void sort_tiles(const Entry *in, const int *ids_in, Entry *out, int *ids_out, int n) {
  constexpr Mode m = mode_of(MODE);
  typedef cub::BlockLoad<Entry, kThreads, kPerThread, cub::BLOCK_LOAD_DIRECT> Load;
  typedef typename TileSort<m.pairs>::type Sort;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
  } temp;

  const int tile = blockIdx.x * kTile;
  const int valid = min(kTile, n - tile);
  Entry pad;
  pad.league = m.descending ? SHRT_MIN : SHRT_MAX;
  pad.score = m.descending ? -FLT_MAX : FLT_MAX;
  Entry keys[kPerThread];
  int ids[kPerThread];
  Load(temp.load).Load(in + tile, keys, valid, pad);
  for (int k = 0; k < kPerThread; ++k) {
    const int i = threadIdx.x * kPerThread + k;
    ids[k] = i < valid ? ids_in[tile + i] : -1;
  }
  __syncthreads();

  Sort sorter(temp.sort);
  sort_items<MODE>(sorter, keys, ids);

  for (int k = 0; k < kPerThread; ++k) {
    const int i = m.striped ? k * kThreads + threadIdx.x : threadIdx.x * kPerThread + k;
    if (i < valid) {
      out[tile + i] = keys[k];
      ids_out[tile + i] = ids[k];
    }
  }
}

// The host's order of a mode: a stable sort by the bits the mode sorts.
bool before(const Mode &m, const Entry &a, const Entry &b) {
  const bool by_league = m.begin_bit == 32, by_score = m.end_bit == 32;
  if (!by_score && a.league != b.league)
    return m.descending ? a.league > b.league : a.league < b.league;
  if (by_league || a.score == b.score) return false;
  return m.descending ? a.score > b.score : a.score < b.score;
}

template <int MODE>
int run_mode(const Entry *d_in, const int *d_ids, Entry *d_out, int *d_ids_out, int n,
             const std::vector<Entry> &h_in, bool &ok) {
  const int tiles = (n + kTile - 1) / kTile;
  sort_tiles<MODE><<<tiles, kThreads>>>(d_in, d_ids, d_out, d_ids_out, n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<Entry> got(n);
  std::vector<int> got_ids(n);
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(Entry), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(got_ids.data(), d_ids_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool mode_ok = true;
  for (int tile = 0; tile < n; tile += kTile) {
    const int valid = std::min(kTile, n - tile);
    std::vector<int> order(valid);
    for (int i = 0; i < valid; ++i) order[i] = tile + i;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return before(mode_of(MODE), h_in[a], h_in[b]); });
    for (int i = 0; i < valid; ++i) {
      const Entry &want = h_in[order[i]];
      const Entry &have = got[tile + i];
      mode_ok = mode_ok && have.league == want.league && have.score == want.score;
      if (mode_of(MODE).pairs) mode_ok = mode_ok && got_ids[tile + i] == order[i];
    }
  }
  if (!mode_ok) printf("BlockRadixSort with a decomposer, mode %d: wrong order\n", MODE);
  ok = ok && mode_ok;
  return 0;
}

template <int MODE>
int run_modes(const Entry *d_in, const int *d_ids, Entry *d_out, int *d_ids_out, int n,
              const std::vector<Entry> &h_in, bool &ok) {
  if (run_mode<MODE>(d_in, d_ids, d_out, d_ids_out, n, h_in, ok)) return 1;
  if constexpr (MODE + 1 < kModes)
    return run_modes<MODE + 1>(d_in, d_ids, d_out, d_ids_out, n, h_in, ok);
  return 0;
}

int main() {
  bool ok = true;

  // 451 entries: two whole tiles of 192 and a partial one of 67. Few leagues and scores, so that
  // many keys tie.
  const int n = 451;
  std::vector<Entry> h_in(n);
  std::vector<int> h_ids(n);
  for (int i = 0; i < n; ++i) {
    h_in[i].league = short((i * 7) % 5 - 2);
    h_in[i].score = float((i * 13) % 9 - 4) * 0.5f;
    h_ids[i] = i;
  }
  Entry *d_in, *d_out;
  int *d_ids, *d_ids_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(Entry)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(Entry)));
  CUDA_CHECK(cudaMalloc(&d_ids, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_ids_out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(Entry), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_ids, h_ids.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  if (run_modes<0>(d_in, d_ids, d_out, d_ids_out, n, h_in, ok)) return 1;

  // Segments of scores: lengths 5, 0, 1, 37, 0, 1, 2, 121 (167 items), as offsets d_offsets[s]
  // to d_offsets[s + 1].
  const int lengths[] = {5, 0, 1, 37, 0, 1, 2, 121};
  const int num_segments = 8;
  std::vector<int> h_offsets(num_segments + 1, 0);
  for (int s = 0; s < num_segments; ++s) h_offsets[s + 1] = h_offsets[s] + lengths[s];
  const int m = h_offsets[num_segments];
  std::vector<unsigned> h_keys(m);
  std::vector<int> h_vals(m);
  for (int i = 0; i < m; ++i) {
    h_keys[i] = (unsigned(i) * 2654435761u) % 1000u + 0x30000u * unsigned(i % 3);
    h_vals[i] = i;
  }
  int *d_offsets, *d_vals_a, *d_vals_b;
  unsigned *d_keys_a, *d_keys_b;
  CUDA_CHECK(cudaMalloc(&d_offsets, (num_segments + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_keys_a, m * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_keys_b, m * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_vals_a, m * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_vals_b, m * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_offsets, h_offsets.data(), (num_segments + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));

  // The host's stable sort of each segment under `less` (of key, value pairs).
  auto per_segment = [&](auto less) {
    std::vector<int> order(m);
    for (int i = 0; i < m; ++i) order[i] = i;
    for (int s = 0; s < num_segments; ++s)
      std::stable_sort(order.begin() + h_offsets[s], order.begin() + h_offsets[s + 1], less);
    return order;
  };
  auto upload = [&]() -> int {
    CUDA_CHECK(cudaMemcpy(d_keys_a, h_keys.data(), m * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_vals_a, h_vals.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    return 0;
  };
  void *d_temp = nullptr;
  size_t temp_bytes = 0;

  // Pairs ascending by bits [0, 16) only: keys that differ above bit 16 tie, and keep their order.
  if (upload()) return 1;
  {
    cub::DoubleBuffer<unsigned> keys(d_keys_a, d_keys_b);
    cub::DoubleBuffer<int> vals(d_vals_a, d_vals_b);
    CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(d_temp, temp_bytes, keys, vals, m,
                                                        num_segments, d_offsets, d_offsets + 1, 0,
                                                        16));
    CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
    CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(d_temp, temp_bytes, keys, vals, m,
                                                        num_segments, d_offsets, d_offsets + 1, 0,
                                                        16));
    CUDA_CHECK(cudaFree(d_temp));
    d_temp = nullptr;
    const std::vector<int> want = per_segment(
        [&](int a, int b) { return (h_keys[a] & 0xffffu) < (h_keys[b] & 0xffffu); });
    std::vector<unsigned> got_keys(m);
    std::vector<int> got_vals(m);
    CUDA_CHECK(cudaMemcpy(got_keys.data(), keys.Current(), m * sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got_vals.data(), vals.Current(), m * sizeof(int),
                          cudaMemcpyDeviceToHost));
    bool seg_ok = true;
    for (int i = 0; i < m; ++i)
      seg_ok = seg_ok && got_keys[i] == h_keys[want[i]] && got_vals[i] == h_vals[want[i]];
    if (!seg_ok) printf("DeviceSegmentedRadixSort::SortPairs (DoubleBuffer, bits 0-16) wrong\n");
    ok = ok && seg_ok;
  }

  // Keys descending over all their bits.
  if (upload()) return 1;
  {
    cub::DoubleBuffer<unsigned> keys(d_keys_a, d_keys_b);
    temp_bytes = 0;
    CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortKeysDescending(
        d_temp, temp_bytes, keys, m, num_segments, d_offsets, d_offsets + 1));
    CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
    CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortKeysDescending(
        d_temp, temp_bytes, keys, m, num_segments, d_offsets, d_offsets + 1));
    CUDA_CHECK(cudaFree(d_temp));
    d_temp = nullptr;
    const std::vector<int> want = per_segment([&](int a, int b) { return h_keys[a] > h_keys[b]; });
    std::vector<unsigned> got_keys(m);
    CUDA_CHECK(cudaMemcpy(got_keys.data(), keys.Current(), m * sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
    bool seg_ok = true;
    for (int i = 0; i < m; ++i) seg_ok = seg_ok && got_keys[i] == h_keys[want[i]];
    if (!seg_ok) printf("DeviceSegmentedRadixSort::SortKeysDescending (DoubleBuffer) wrong\n");
    ok = ok && seg_ok;
  }

  // DeviceSegmentedSort on keys with many ties (the key modulo 7): the unstable SortPairs is
  // checked for sorted keys and each segment's records, the stable one for their order too.
  for (int i = 0; i < m; ++i) h_keys[i] %= 7u;
  for (int stable = 0; stable < 2; ++stable) {
    if (upload()) return 1;
    temp_bytes = 0;
    unsigned *d_keys_sorted = d_keys_b;
    int *d_vals_sorted = d_vals_b;
    if (stable) {
      cub::DoubleBuffer<unsigned> keys(d_keys_a, d_keys_b);
      cub::DoubleBuffer<int> vals(d_vals_a, d_vals_b);
      CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairsDescending(
          d_temp, temp_bytes, keys, vals, m, num_segments, d_offsets, d_offsets + 1));
      CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
      CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairsDescending(
          d_temp, temp_bytes, keys, vals, m, num_segments, d_offsets, d_offsets + 1));
      d_keys_sorted = keys.Current();
      d_vals_sorted = vals.Current();
    } else {
      CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(d_temp, temp_bytes, d_keys_a, d_keys_b,
                                                     d_vals_a, d_vals_b, m, num_segments,
                                                     d_offsets, d_offsets + 1));
      CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
      CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(d_temp, temp_bytes, d_keys_a, d_keys_b,
                                                     d_vals_a, d_vals_b, m, num_segments,
                                                     d_offsets, d_offsets + 1));
    }
    CUDA_CHECK(cudaFree(d_temp));
    d_temp = nullptr;
    std::vector<unsigned> got_keys(m);
    std::vector<int> got_vals(m);
    CUDA_CHECK(cudaMemcpy(got_keys.data(), d_keys_sorted, m * sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got_vals.data(), d_vals_sorted, m * sizeof(int),
                          cudaMemcpyDeviceToHost));
    const std::vector<int> want =
        stable ? per_segment([&](int a, int b) { return h_keys[a] > h_keys[b]; })
               : per_segment([&](int a, int b) { return h_keys[a] < h_keys[b]; });
    bool seg_ok = true;
    for (int s = 0; s < num_segments; ++s) {
      std::vector<int> records;  // each value once, with its own key
      for (int i = h_offsets[s]; i < h_offsets[s + 1]; ++i) {
        seg_ok = seg_ok && got_keys[i] == h_keys[want[i]];
        seg_ok = seg_ok && got_vals[i] >= h_offsets[s] && got_vals[i] < h_offsets[s + 1] &&
                 h_keys[got_vals[i]] == got_keys[i];
        if (stable) seg_ok = seg_ok && got_vals[i] == want[i];
        records.push_back(got_vals[i]);
      }
      std::sort(records.begin(), records.end());
      seg_ok = seg_ok && std::adjacent_find(records.begin(), records.end()) == records.end();
    }
    if (!seg_ok)
      printf("DeviceSegmentedSort::%s wrong\n",
             stable ? "StableSortPairsDescending (DoubleBuffer)" : "SortPairs");
    ok = ok && seg_ok;
  }

  // The unstable SortKeys through a DoubleBuffer: sorted keys, each segment's keys the same.
  if (upload()) return 1;
  {
    cub::DoubleBuffer<unsigned> keys(d_keys_a, d_keys_b);
    temp_bytes = 0;
    CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(d_temp, temp_bytes, keys, m, num_segments,
                                                  d_offsets, d_offsets + 1));
    CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
    CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(d_temp, temp_bytes, keys, m, num_segments,
                                                  d_offsets, d_offsets + 1));
    CUDA_CHECK(cudaFree(d_temp));
    std::vector<unsigned> got_keys(m);
    CUDA_CHECK(cudaMemcpy(got_keys.data(), keys.Current(), m * sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
    const std::vector<int> want = per_segment([&](int a, int b) { return h_keys[a] < h_keys[b]; });
    bool seg_ok = true;
    for (int i = 0; i < m; ++i) seg_ok = seg_ok && got_keys[i] == h_keys[want[i]];
    if (!seg_ok) printf("DeviceSegmentedSort::SortKeys (DoubleBuffer) wrong\n");
    ok = ok && seg_ok;
  }

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_ids));
  CUDA_CHECK(cudaFree(d_ids_out));
  CUDA_CHECK(cudaFree(d_offsets));
  CUDA_CHECK(cudaFree(d_keys_a));
  CUDA_CHECK(cudaFree(d_keys_b));
  CUDA_CHECK(cudaFree(d_vals_a));
  CUDA_CHECK(cudaFree(d_vals_b));
  if (!ok) {
    printf("cub decomposer segments FAILED\n");
    return 1;
  }
  printf("cub decomposer segments PASSED\n");
  return 0;
}
