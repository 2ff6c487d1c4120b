// expect: cub segments and bins PASSED
// CUB's block histogram, discontinuity, adjacent-difference, scan, shuffle and merge-sort
// primitives, and its warp load, store and segmented reduction, in the program's own kernels,
// written as a course exercise on "segments and bins" would write them: a block of 48 threads (not
// a whole number of warps) holding 3 items each, the TempStorage of each primitive __shared__, and
// a __syncthreads() before a storage or a histogram is read again. Per-block histograms of byte
// samples by both algorithms (BLOCK_HISTO_SORT's Histogram, BLOCK_HISTO_ATOMIC's InitHistogram and
// two Composites), with more bins than threads; head and tail flags of runs across tiles (the
// neighbouring tiles' items as predecessor and successor, and a flag operator that takes the item's
// index); the start of every run found by one block walking the tiles, its head flags scanned by a
// BlockScan of 3 items per thread whose prefix callback carries the running count; left and right
// differences with a partial last tile; the block's items offset, rotated and moved up and down by
// a shuffle; and logical warps of 16 lanes loading a tile transposed, summing segments that head
// flags start, and storing it striped; and merge sorts, stable and not, of a partial tile by a
// block of 64 and of a tile per warp. Each result is compared with a loop on the host (an
// unstable sort's only for what CUB promises: the keys in order, each with its own value).
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_store.cuh>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                          \
  do {                                                                            \
    cudaError_t e = (call);                                                       \
    if (e != cudaSuccess) {                                                       \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

#define BLOCK 48
#define ITEMS 3
#define TILE (BLOCK * ITEMS)
#define BINS 70

struct Differ {
  __device__ bool operator()(int a, int b) const { return a != b; }
};
// Also a break every 25 items of the tile (b_index is b's place in the tile).
struct DifferOrEvery25 {
  __device__ bool operator()(int a, int b, int b_index) const {
    return a != b || b_index % 25 == 0;
  }
};
struct Minus {
  __device__ int operator()(int a, int b) const { return a - b; }
};

// Each block counts its tile, and (atomically) its tile and the next block's.
__global__ void tile_histograms(const unsigned char *samples, unsigned int *by_sort,
                                unsigned int *by_atomic) {
  typedef cub::BlockHistogram<unsigned char, BLOCK, ITEMS, BINS> SortHistogram;
  typedef cub::BlockHistogram<unsigned char, BLOCK, ITEMS, BINS, cub::BLOCK_HISTO_ATOMIC>
      AtomicHistogram;
  __shared__ typename SortHistogram::TempStorage sort_temp;
  __shared__ typename AtomicHistogram::TempStorage atomic_temp;
  __shared__ unsigned int sort_bins[BINS];
  __shared__ unsigned int atomic_bins[BINS];

  unsigned char mine[ITEMS], next[ITEMS];
  int next_block = (blockIdx.x + 1) % gridDim.x;
  cub::LoadDirectBlocked(threadIdx.x, samples + blockIdx.x * TILE, mine);
  cub::LoadDirectBlocked(threadIdx.x, samples + next_block * TILE, next);

  SortHistogram(sort_temp).Histogram(mine, sort_bins);

  AtomicHistogram atomic_histogram(atomic_temp);
  atomic_histogram.InitHistogram(atomic_bins);
  __syncthreads();
  atomic_histogram.Composite(mine, atomic_bins);
  atomic_histogram.Composite(next, atomic_bins);
  __syncthreads();

  for (int bin = threadIdx.x; bin < BINS; bin += BLOCK) {
    by_sort[blockIdx.x * BINS + bin] = sort_bins[bin];
    by_atomic[blockIdx.x * BINS + bin] = atomic_bins[bin];
  }
}

// Head flags within each tile, then heads and tails of the whole array's runs (each tile told
// the item before and after it), then tails with a break every 25 tile items.
__global__ void run_flags(const int *keys, int *tile_heads, int *heads, int *tails,
                          int *tails_25) {
  typedef cub::BlockDiscontinuity<int, BLOCK> Discontinuity;
  __shared__ typename Discontinuity::TempStorage temp;
  int offset = blockIdx.x * TILE;
  int items[ITEMS], head[ITEMS], tail[ITEMS];
  cub::LoadDirectBlocked(threadIdx.x, keys + offset, items);

  Discontinuity(temp).FlagHeads(head, items, Differ());
  cub::StoreDirectBlocked(threadIdx.x, tile_heads + offset, head);
  __syncthreads();

  bool first = blockIdx.x == 0, last = blockIdx.x == gridDim.x - 1;
  if (first)
    Discontinuity(temp).FlagHeadsAndTails(head, tail, keys[offset + TILE], items, Differ());
  else if (last)
    Discontinuity(temp).FlagHeadsAndTails(head, keys[offset - 1], tail, items, Differ());
  else
    Discontinuity(temp).FlagHeadsAndTails(head, keys[offset - 1], tail, keys[offset + TILE],
                                          items, Differ());
  cub::StoreDirectBlocked(threadIdx.x, heads + offset, head);
  cub::StoreDirectBlocked(threadIdx.x, tails + offset, tail);
  __syncthreads();

  Discontinuity(temp).FlagTails(tail, items, DifferOrEvery25());
  cub::StoreDirectBlocked(threadIdx.x, tails_25 + offset, tail);
}

// A running total carried from tile to tile, as a block scan's prefix callback.
struct RunningTotal {
  int total;
  __device__ RunningTotal(int start) : total(start) {}
  __device__ int operator()(int tile_sum) {
    int before = total;
    total += tile_sum;
    return before;
  }
};

// One block walks every tile: the index of the first item of each run of equal keys goes to
// starts[r] for run r, counted by an exclusive scan of the head flags; runs[0] is their number.
__global__ void run_starts(const int *keys, int n, int *starts, int *runs) {
  typedef cub::BlockDiscontinuity<int, BLOCK> Discontinuity;
  typedef cub::BlockScan<int, BLOCK> Scan;
  __shared__ typename Discontinuity::TempStorage flag_temp;
  __shared__ typename Scan::TempStorage scan_temp;
  RunningTotal running(0);
  for (int offset = 0; offset < n; offset += TILE) {
    int items[ITEMS], head[ITEMS], slot[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, keys + offset, items);
    if (offset == 0)
      Discontinuity(flag_temp).FlagHeads(head, items, Differ());
    else
      Discontinuity(flag_temp).FlagHeads(head, items, Differ(), keys[offset - 1]);
    Scan(scan_temp).ExclusiveSum(head, slot, running);
    for (int i = 0; i < ITEMS; i++)
      if (head[i]) starts[slot[i]] = offset + threadIdx.x * ITEMS + i;
    __syncthreads();
  }
  if (threadIdx.x == 0) runs[0] = running.total;
}

// left[i] = a[i] - a[i-1] and right[i] = a[i] - a[i+1] over the whole array, the ends copied.
__global__ void differences(const int *a, int n, int *left, int *right) {
  typedef cub::BlockAdjacentDifference<int, BLOCK> Difference;
  __shared__ typename Difference::TempStorage temp;
  int offset = blockIdx.x * TILE;
  int valid = min(TILE, n - offset);
  int items[ITEMS], out[ITEMS];
  cub::LoadDirectBlocked(threadIdx.x, a + offset, items, valid, 0);

  if (blockIdx.x == 0)
    Difference(temp).SubtractLeft(items, out, Minus());
  else if (valid < TILE)
    Difference(temp).SubtractLeftPartialTile(items, out, Minus(), valid, a[offset - 1]);
  else
    Difference(temp).SubtractLeft(items, out, Minus(), a[offset - 1]);
  cub::StoreDirectBlocked(threadIdx.x, left + offset, out, valid);
  __syncthreads();

  if (valid < TILE)
    Difference(temp).SubtractRightPartialTile(items, out, Minus(), valid);
  else if (offset + TILE < n)
    Difference(temp).SubtractRight(items, out, Minus(), a[offset + TILE]);
  else
    Difference(temp).SubtractRight(items, out, Minus());
  cub::StoreDirectBlocked(threadIdx.x, right + offset, out, valid);
}

// One block: each thread's value t*10 offset back by one and rotated by five threads, and its
// items (100*t + i) moved up and down by one place in the tile.
__global__ void shuffles(int *offset_out, int *rotate_out, int *up_out, int *down_out,
                         int *ends) {
  typedef cub::BlockShuffle<int, BLOCK> Shuffle;
  __shared__ typename Shuffle::TempStorage temp;
  int t = threadIdx.x;
  int value = t * 10, moved = -7;
  Shuffle(temp).Offset(value, moved, -1);
  offset_out[t] = moved;
  __syncthreads();
  Shuffle(temp).Rotate(value, moved, 5);
  rotate_out[t] = moved;
  __syncthreads();

  int items[ITEMS], prev[ITEMS], next[ITEMS], suffix, prefix;
  for (int i = 0; i < ITEMS; i++) {
    items[i] = 100 * t + i;
    prev[i] = next[i] = -1;
  }
  Shuffle(temp).Up(items, prev, suffix);
  __syncthreads();
  Shuffle(temp).Down(items, next, prefix);
  for (int i = 0; i < ITEMS; i++) {
    up_out[t * ITEMS + i] = prev[i];
    down_out[t * ITEMS + i] = next[i];
  }
  if (t == 0) {
    ends[0] = suffix;
    ends[1] = prefix;
  }
}

// Logical warps of 16 lanes, 4 items each: each loads its tile of 64 (striped, transposed to
// blocked), sums each lane's items, sums those over the segments that start every 5 lanes, and
// stores its items back striped.
#define LANES 16
__global__ void warp_tiles(const int *in, int *segment_sums, int *striped) {
  typedef cub::WarpLoad<int, 4, cub::WARP_LOAD_TRANSPOSE, LANES> Load;
  typedef cub::WarpReduce<int, LANES> Reduce;
  typedef cub::WarpStore<int, 4, cub::WARP_STORE_STRIPED, LANES> Store;
  __shared__ typename Load::TempStorage load_temp[BLOCK / LANES];
  __shared__ typename Reduce::TempStorage reduce_temp[BLOCK / LANES];
  int warp = threadIdx.x / LANES, lane = threadIdx.x % LANES;
  int tile = (blockIdx.x * (BLOCK / LANES) + warp) * LANES * 4;
  int items[4];
  Load(load_temp[warp]).Load(in + tile, items);
  int mine = items[0] + items[1] + items[2] + items[3];
  int sum = Reduce(reduce_temp[warp]).HeadSegmentedSum(mine, lane % 5 == 0);
  if (lane % 5 == 0) segment_sums[tile / 4 + lane] = sum;
  Store().Store(striped + tile, items);
}

// One block of 64 threads sorts its first `valid` keys (3 each) largest first, with their
// positions as values, stably or (Sort) in any order of equal keys; the keys past them become -1.
struct Greater {
  __device__ bool operator()(int a, int b) const { return a > b; }
};
__global__ void merge_sort_tile(const int *keys, int valid, bool stable, int *sorted,
                                int *positions) {
  typedef cub::BlockMergeSort<int, 64, 3, int> MergeSort;
  __shared__ typename MergeSort::TempStorage temp;
  int k[3], v[3];
  for (int i = 0; i < 3; i++) {
    int at = threadIdx.x * 3 + i;
    k[i] = at < valid ? keys[at] : 0;
    v[i] = at;
  }
  if (stable)
    MergeSort(temp).StableSort(k, v, Greater(), valid, -1);
  else
    MergeSort(temp).Sort(k, v, Greater(), valid, -1);
  for (int i = 0; i < 3; i++) {
    sorted[threadIdx.x * 3 + i] = k[i];
    positions[threadIdx.x * 3 + i] = v[i];
  }
}

// Each warp of 32 lanes sorts its 64 keys (2 each) largest first with their positions as values,
// stably or not.
__global__ void merge_sort_warps(const int *keys, bool stable, int *sorted, int *positions) {
  typedef cub::WarpMergeSort<int, 2, 32, int> WarpSort;
  __shared__ typename WarpSort::TempStorage temp[2];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int k[2], v[2];
  for (int i = 0; i < 2; i++) {
    v[i] = warp * 64 + lane * 2 + i;
    k[i] = keys[v[i]];
  }
  WarpSort sorter(temp[warp]);
  if (stable)
    sorter.StableSort(k, v, Greater());
  else
    sorter.Sort(k, v, Greater());
  for (int i = 0; i < 2; i++) {
    sorted[warp * 64 + lane * 2 + i] = k[i];
    positions[warp * 64 + lane * 2 + i] = v[i];
  }
}

int wrong = 0;
void check(bool ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    wrong++;
  }
}

// Checks keys[first, first + n) sorted largest first into `sorted`, with their positions: each
// key with its own position always, and equal keys in input order when `stable` (else in any
// order, as CUB's Sort promises no order of them; it says which it found).
void merge_sorted(const std::vector<int> &keys, int first, int n, const std::vector<int> &sorted,
                  const std::vector<int> &positions, bool stable, const char *what) {
  std::vector<int> order(n);
  for (int i = 0; i < n; i++) order[i] = first + i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] > keys[b]; });
  bool ok = true, in_input_order = true;
  for (int i = 0; i < n; i++) {
    ok = ok && sorted[i] == keys[order[i]] && positions[i] >= first && positions[i] < first + n &&
         keys[positions[i]] == sorted[i];
    in_input_order = in_input_order && positions[i] == order[i];
  }
  std::vector<int> seen(positions.begin(), positions.begin() + n);
  std::sort(seen.begin(), seen.end());
  for (int i = 0; i < n; i++) ok = ok && seen[i] == first + i;
  check(ok && (in_input_order || !stable), what);
  if (!stable && first == 0)
    printf("%s kept equal keys in input order: %s\n", what, in_input_order ? "yes" : "no");
}

template <typename T>
std::vector<T> download(const T *d, int n) {
  std::vector<T> h(n);
  CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  // Histograms: 4 tiles of byte samples in [0, BINS).
  const int blocks = 4, samples_n = blocks * TILE;
  std::vector<unsigned char> h_samples(samples_n);
  for (int i = 0; i < samples_n; i++) h_samples[i] = (unsigned char)((i * i + 3 * i) % BINS);
  unsigned char *d_samples;
  unsigned int *d_by_sort, *d_by_atomic;
  CUDA_CHECK(cudaMalloc(&d_samples, samples_n));
  CUDA_CHECK(cudaMalloc(&d_by_sort, blocks * BINS * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_by_atomic, blocks * BINS * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemcpy(d_samples, h_samples.data(), samples_n, cudaMemcpyHostToDevice));
  tile_histograms<<<blocks, BLOCK>>>(d_samples, d_by_sort, d_by_atomic);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned int> by_sort = download(d_by_sort, blocks * BINS);
  std::vector<unsigned int> by_atomic = download(d_by_atomic, blocks * BINS);
  bool sort_ok = true, atomic_ok = true;
  for (int b = 0; b < blocks; b++) {
    std::vector<unsigned int> own(BINS, 0), both(BINS, 0);
    for (int i = 0; i < TILE; i++) {
      own[h_samples[b * TILE + i]]++;
      both[h_samples[b * TILE + i]]++;
      both[h_samples[((b + 1) % blocks) * TILE + i]]++;
    }
    for (int bin = 0; bin < BINS; bin++) {
      sort_ok = sort_ok && by_sort[b * BINS + bin] == own[bin];
      atomic_ok = atomic_ok && by_atomic[b * BINS + bin] == both[bin];
    }
  }
  check(sort_ok, "BlockHistogram (sort) Histogram");
  check(atomic_ok, "BlockHistogram (atomic) InitHistogram + Composite");

  // Runs of equal keys, some crossing tile boundaries.
  const int keys_n = 3 * TILE;
  std::vector<int> h_keys(keys_n);
  for (int i = 0; i < keys_n; i++) h_keys[i] = (i / 7) + (i % 31 == 0 ? 1000 : 0);
  int *d_keys, *d_tile_heads, *d_heads, *d_tails, *d_tails_25;
  CUDA_CHECK(cudaMalloc(&d_keys, keys_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_tile_heads, keys_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_heads, keys_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_tails, keys_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_tails_25, keys_n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_keys, h_keys.data(), keys_n * sizeof(int), cudaMemcpyHostToDevice));
  run_flags<<<keys_n / TILE, BLOCK>>>(d_keys, d_tile_heads, d_heads, d_tails, d_tails_25);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> tile_heads = download(d_tile_heads, keys_n), heads = download(d_heads, keys_n);
  std::vector<int> tails = download(d_tails, keys_n), tails_25 = download(d_tails_25, keys_n);
  bool tile_ok = true, heads_ok = true, tails_ok = true, every_ok = true;
  for (int i = 0; i < keys_n; i++) {
    int in_tile = i % TILE;
    int want_tile_head = in_tile == 0 || h_keys[i] != h_keys[i - 1];
    int want_head = i == 0 || h_keys[i] != h_keys[i - 1];
    int want_tail = i == keys_n - 1 || h_keys[i] != h_keys[i + 1];
    int want_25 = in_tile == TILE - 1 || h_keys[i] != h_keys[i + 1] || (in_tile + 1) % 25 == 0;
    tile_ok = tile_ok && (tile_heads[i] != 0) == (want_tile_head != 0);
    heads_ok = heads_ok && (heads[i] != 0) == (want_head != 0);
    tails_ok = tails_ok && (tails[i] != 0) == (want_tail != 0);
    every_ok = every_ok && (tails_25[i] != 0) == (want_25 != 0);
  }
  check(tile_ok, "BlockDiscontinuity::FlagHeads");
  check(heads_ok, "BlockDiscontinuity::FlagHeadsAndTails heads (with the tiles' neighbours)");
  check(tails_ok, "BlockDiscontinuity::FlagHeadsAndTails tails (with the tiles' neighbours)");
  check(every_ok, "BlockDiscontinuity::FlagTails with an indexed flag operator");

  int *d_starts, *d_runs;
  CUDA_CHECK(cudaMalloc(&d_starts, keys_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_runs, sizeof(int)));
  run_starts<<<1, BLOCK>>>(d_keys, keys_n, d_starts, d_runs);
  CUDA_CHECK(cudaGetLastError());
  int runs = download(d_runs, 1)[0];
  std::vector<int> want_starts;
  for (int i = 0; i < keys_n; i++)
    if (i == 0 || h_keys[i] != h_keys[i - 1]) want_starts.push_back(i);
  check(runs == (int)want_starts.size() && download(d_starts, runs) == want_starts,
        "BlockScan::ExclusiveSum of items with a prefix callback");

  // Differences over 2 whole tiles and a partial one.
  const int a_n = 2 * TILE + 50, a_blocks = (a_n + TILE - 1) / TILE;
  std::vector<int> h_a(a_n);
  for (int i = 0; i < a_n; i++) h_a[i] = (i * 37) % 101 - 50;
  int *d_a, *d_left, *d_right;
  CUDA_CHECK(cudaMalloc(&d_a, a_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_left, a_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_right, a_n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), a_n * sizeof(int), cudaMemcpyHostToDevice));
  differences<<<a_blocks, BLOCK>>>(d_a, a_n, d_left, d_right);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> left = download(d_left, a_n), right = download(d_right, a_n);
  bool left_ok = true, right_ok = true;
  for (int i = 0; i < a_n; i++) {
    left_ok = left_ok && left[i] == (i == 0 ? h_a[i] : h_a[i] - h_a[i - 1]);
    right_ok = right_ok && right[i] == (i == a_n - 1 ? h_a[i] : h_a[i] - h_a[i + 1]);
  }
  check(left_ok, "BlockAdjacentDifference::SubtractLeft (and PartialTile)");
  check(right_ok, "BlockAdjacentDifference::SubtractRight (and PartialTile)");

  // Shuffles within one block.
  int *d_offset, *d_rotate, *d_up, *d_down, *d_ends;
  CUDA_CHECK(cudaMalloc(&d_offset, BLOCK * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_rotate, BLOCK * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_up, TILE * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_down, TILE * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_ends, 2 * sizeof(int)));
  shuffles<<<1, BLOCK>>>(d_offset, d_rotate, d_up, d_down, d_ends);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> offset_out = download(d_offset, BLOCK), rotate_out = download(d_rotate, BLOCK);
  std::vector<int> up = download(d_up, TILE), down = download(d_down, TILE);
  std::vector<int> ends = download(d_ends, 2);
  bool offset_ok = true, rotate_ok = true, up_ok = true, down_ok = true;
  for (int t = 0; t < BLOCK; t++) {
    offset_ok = offset_ok && offset_out[t] == (t == 0 ? -7 : (t - 1) * 10);
    rotate_ok = rotate_ok && rotate_out[t] == ((t + 5) % BLOCK) * 10;
  }
  for (int k = 0; k < TILE; k++) {
    // The tile's item k is 100 * (k / ITEMS) + k % ITEMS.
    int before = k == 0 ? -1 : 100 * ((k - 1) / ITEMS) + (k - 1) % ITEMS;
    int after = k == TILE - 1 ? -1 : 100 * ((k + 1) / ITEMS) + (k + 1) % ITEMS;
    up_ok = up_ok && up[k] == before;
    down_ok = down_ok && down[k] == after;
  }
  check(offset_ok, "BlockShuffle::Offset");
  check(rotate_ok, "BlockShuffle::Rotate");
  check(up_ok && ends[0] == 100 * (BLOCK - 1) + ITEMS - 1, "BlockShuffle::Up");
  check(down_ok && ends[1] == 0, "BlockShuffle::Down");

  // Warp tiles: 2 blocks of 3 logical warps.
  const int warp_n = 2 * BLOCK * 4;
  std::vector<int> h_w(warp_n);
  for (int i = 0; i < warp_n; i++) h_w[i] = (i * 53) % 17 - 8;
  int *d_w, *d_sums, *d_striped;
  CUDA_CHECK(cudaMalloc(&d_w, warp_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_sums, warp_n / 4 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_striped, warp_n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_w, h_w.data(), warp_n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_sums, 0, warp_n / 4 * sizeof(int)));
  warp_tiles<<<2, BLOCK>>>(d_w, d_sums, d_striped);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> sums = download(d_sums, warp_n / 4), striped = download(d_striped, warp_n);
  bool sums_ok = true, striped_ok = true;
  for (int tile = 0; tile < warp_n; tile += LANES * 4) {
    for (int lane = 0; lane < LANES; lane += 5) {
      int want = 0;
      for (int l = lane; l < LANES && (l == lane || l % 5 != 0); l++)
        for (int k = 0; k < 4; k++) want += h_w[tile + l * 4 + k];
      sums_ok = sums_ok && sums[tile / 4 + lane] == want;
    }
    for (int lane = 0; lane < LANES; lane++)
      for (int k = 0; k < 4; k++)
        striped_ok = striped_ok && striped[tile + k * LANES + lane] == h_w[tile + lane * 4 + k];
  }
  check(sums_ok, "WarpLoad (transpose) and WarpReduce::HeadSegmentedSum");
  check(striped_ok, "WarpStore (striped)");

  // A block merge sort of a partial tile.
  const int sort_n = 64 * 3, sort_valid = 170;
  int *d_sorted, *d_positions;
  CUDA_CHECK(cudaMalloc(&d_sorted, sort_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_positions, sort_n * sizeof(int)));
  for (int stable = 1; stable >= 0; stable--) {
    merge_sort_tile<<<1, 64>>>(d_keys, sort_valid, stable, d_sorted, d_positions);
    CUDA_CHECK(cudaGetLastError());
    merge_sorted(h_keys, 0, sort_valid, download(d_sorted, sort_n), download(d_positions, sort_n),
                 stable,
                 stable ? "BlockMergeSort::StableSort of a partial tile"
                        : "BlockMergeSort::Sort of a partial tile");
    merge_sort_warps<<<1, 64>>>(d_keys, stable, d_sorted, d_positions);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> sorted = download(d_sorted, 128), positions = download(d_positions, 128);
    for (int warp = 0; warp < 2; warp++)
      merge_sorted(h_keys, warp * 64, 64,
                   std::vector<int>(sorted.begin() + warp * 64, sorted.end()),
                   std::vector<int>(positions.begin() + warp * 64, positions.end()), stable,
                   stable ? "WarpMergeSort::StableSort" : "WarpMergeSort::Sort");
  }

  printf("bin 0 of block 0: %u, %d runs of keys\n", by_sort[0], runs);
  printf("cub segments and bins %s\n", wrong == 0 ? "PASSED" : "FAILED");
  cudaFree(d_samples);
  cudaFree(d_by_sort);
  cudaFree(d_by_atomic);
  cudaFree(d_keys);
  cudaFree(d_tile_heads);
  cudaFree(d_heads);
  cudaFree(d_tails);
  cudaFree(d_tails_25);
  cudaFree(d_starts);
  cudaFree(d_runs);
  cudaFree(d_a);
  cudaFree(d_left);
  cudaFree(d_right);
  cudaFree(d_offset);
  cudaFree(d_rotate);
  cudaFree(d_up);
  cudaFree(d_down);
  cudaFree(d_ends);
  cudaFree(d_w);
  cudaFree(d_sums);
  cudaFree(d_striped);
  cudaFree(d_sorted);
  cudaFree(d_positions);
  return wrong == 0 ? 0 : 1;
}
