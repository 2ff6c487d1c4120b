// expect: cub block load sort PASSED
// CUB's block-wide primitives inside the program's own kernels, in the shape of CUB's block
// examples: the block size and items per thread as template parameters, one __shared__ union of
// the TempStorage of every primitive, and a __syncthreads() before that storage is reused.
// A tile sort (BlockLoad with a warp transpose, BlockRadixSort of key-value pairs, BlockStore),
// every BlockLoad algorithm loading the same tile (each must give each thread the items CUB
// gives it: blocked, or striped for BLOCK_LOAD_STRIPED), a guarded load of a partial tile with a
// default for the missing items, a BlockExchange to the striped arrangement and a descending
// sort of it, and WarpScan prefix sums with their warp totals. Each result is compared with a
// loop on the host.
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_scan.cuh>

#include <algorithm>
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

const int kThreads = 64, kItems = 4, kTile = kThreads * kItems;

// Sorts each block's tile of keys, with their input positions as values.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void BlockSortKernel(const int *d_in, int *d_keys_out, int *d_values_out) {
  using BlockLoadT =
      cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using BlockRadixSortT = cub::BlockRadixSort<int, BLOCK_THREADS, ITEMS_PER_THREAD, int>;
  using BlockStoreT =
      cub::BlockStore<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union TempStorage {
    typename BlockLoadT::TempStorage load;
    typename BlockRadixSortT::TempStorage sort;
    typename BlockStoreT::TempStorage store;
  } temp_storage;

  const int block_offset = blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
  int keys[ITEMS_PER_THREAD], values[ITEMS_PER_THREAD];
  BlockLoadT(temp_storage.load).Load(d_in + block_offset, keys);
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    values[i] = block_offset + threadIdx.x * ITEMS_PER_THREAD + i;
  __syncthreads();  // the load's storage is the sort's
  BlockRadixSortT(temp_storage.sort).Sort(keys, values);
  __syncthreads();
  BlockStoreT(temp_storage.store).Store(d_keys_out + block_offset, keys);
  cub::StoreDirectBlocked(threadIdx.x, d_values_out + block_offset, values);
}

// Each thread writes the items ALGORITHM loaded for it, as it holds them, to its own row.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, cub::BlockLoadAlgorithm ALGORITHM>
__global__ void LoadKernel(const int *d_in, int *d_rows, int valid_items) {
  using BlockLoadT = cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, ALGORITHM>;
  __shared__ typename BlockLoadT::TempStorage temp_storage;
  int items[ITEMS_PER_THREAD];
  BlockLoadT(temp_storage).Load(d_in, items, valid_items, -1);
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    d_rows[threadIdx.x * ITEMS_PER_THREAD + i] = items[i];
}

// The tile exchanged to the striped arrangement, sorted largest first, and warp prefix sums.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void ExchangeScanKernel(const int *d_in, int *d_striped, int *d_descending,
                                   int *d_prefix, int *d_warp_totals) {
  using BlockExchangeT = cub::BlockExchange<int, BLOCK_THREADS, ITEMS_PER_THREAD>;
  using BlockRadixSortT = cub::BlockRadixSort<int, BLOCK_THREADS, ITEMS_PER_THREAD>;
  using WarpScanT = cub::WarpScan<int>;
  __shared__ union {
    typename BlockExchangeT::TempStorage exchange;
    typename BlockRadixSortT::TempStorage sort;
  } temp_storage;
  __shared__ typename WarpScanT::TempStorage warp_storage[BLOCK_THREADS / 32];

  int items[ITEMS_PER_THREAD];
  cub::LoadDirectBlocked(threadIdx.x, d_in, items);
  BlockExchangeT(temp_storage.exchange).BlockedToStriped(items);
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    d_striped[threadIdx.x * ITEMS_PER_THREAD + i] = items[i];
  __syncthreads();
  BlockRadixSortT(temp_storage.sort).SortDescendingBlockedToStriped(items);
  cub::StoreDirectStriped<BLOCK_THREADS>(threadIdx.x, d_descending, items);

  int warp_total = 0, prefix = 0;
  WarpScanT(warp_storage[threadIdx.x / 32]).ExclusiveSum(items[0], prefix, warp_total);
  d_prefix[threadIdx.x] = prefix;
  if (threadIdx.x % 32 == 0) d_warp_totals[threadIdx.x / 32] = warp_total;
}

int g_wrong = 0;
void expect(bool ok, const char *what) {
  if (!ok) {
    printf("wrong: %s\n", what);
    ++g_wrong;
  }
}

std::vector<int> to_host(const int *d, int n) {
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  return h;
}

// Which tile item each thread's item i is, in the blocked or the striped arrangement.
int blocked(int thread, int i) { return thread * kItems + i; }
int striped(int thread, int i) { return i * kThreads + thread; }

template <cub::BlockLoadAlgorithm ALGORITHM>
void check_load(const int *d_in, int *d_rows, const std::vector<int> &h_in, bool is_striped,
                const char *name) {
  const int valid_items = kTile - 37;  // a partial tile: the rest get the default, -1
  LoadKernel<kThreads, kItems, ALGORITHM><<<1, kThreads>>>(d_in, d_rows, valid_items);
  CHECK(cudaGetLastError());
  std::vector<int> rows = to_host(d_rows, kTile);
  bool ok = true;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kItems; ++i) {
      const int at = is_striped ? striped(t, i) : blocked(t, i);
      ok = ok && rows[blocked(t, i)] == (at < valid_items ? h_in[at] : -1);
    }
  expect(ok, name);
}

int main() {
  const int num_blocks = 3, num_items = num_blocks * kTile;
  std::vector<int> h_in(num_items);
  for (int i = 0; i < num_items; ++i) h_in[i] = (i * 7919) % 97 - 40;  // repeats: stability shows
  int *d_in, *d_keys, *d_values, *d_rows, *d_prefix, *d_warp_totals;
  CHECK(cudaMalloc(&d_in, num_items * sizeof(int)));
  CHECK(cudaMalloc(&d_keys, num_items * sizeof(int)));
  CHECK(cudaMalloc(&d_values, num_items * sizeof(int)));
  CHECK(cudaMalloc(&d_rows, 2 * kTile * sizeof(int)));
  CHECK(cudaMalloc(&d_prefix, kThreads * sizeof(int)));
  CHECK(cudaMalloc(&d_warp_totals, kThreads / 32 * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));

  BlockSortKernel<kThreads, kItems><<<num_blocks, kThreads>>>(d_in, d_keys, d_values);
  CHECK(cudaGetLastError());
  std::vector<int> keys = to_host(d_keys, num_items), values = to_host(d_values, num_items);
  bool ok = true;
  for (int b = 0; b < num_blocks; ++b) {
    std::vector<int> order(kTile);
    std::iota(order.begin(), order.end(), b * kTile);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return h_in[x] < h_in[y]; });
    for (int k = 0; k < kTile; ++k)
      ok = ok && keys[b * kTile + k] == h_in[order[k]] && values[b * kTile + k] == order[k];
  }
  expect(ok, "BlockLoad, BlockRadixSort::Sort pairs, BlockStore");

  check_load<cub::BLOCK_LOAD_DIRECT>(d_in, d_rows, h_in, false, "BLOCK_LOAD_DIRECT");
  check_load<cub::BLOCK_LOAD_STRIPED>(d_in, d_rows, h_in, true, "BLOCK_LOAD_STRIPED");
  check_load<cub::BLOCK_LOAD_VECTORIZE>(d_in, d_rows, h_in, false, "BLOCK_LOAD_VECTORIZE");
  check_load<cub::BLOCK_LOAD_TRANSPOSE>(d_in, d_rows, h_in, false, "BLOCK_LOAD_TRANSPOSE");
  check_load<cub::BLOCK_LOAD_WARP_TRANSPOSE>(d_in, d_rows, h_in, false,
                                             "BLOCK_LOAD_WARP_TRANSPOSE");

  int *d_striped = d_rows, *d_descending = d_rows + kTile;
  ExchangeScanKernel<kThreads, kItems><<<1, kThreads>>>(d_in, d_striped, d_descending, d_prefix,
                                                        d_warp_totals);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> rows = to_host(d_rows, 2 * kTile), prefix = to_host(d_prefix, kThreads);
  std::vector<int> warp_totals = to_host(d_warp_totals, kThreads / 32);
  std::vector<int> descending(h_in.begin(), h_in.begin() + kTile);
  std::sort(descending.begin(), descending.end(), [](int x, int y) { return x > y; });
  ok = true;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kItems; ++i) ok = ok && rows[blocked(t, i)] == h_in[striped(t, i)];
  expect(ok, "BlockExchange::BlockedToStriped");
  expect(std::equal(descending.begin(), descending.end(), rows.begin() + kTile),
         "BlockRadixSort::SortDescendingBlockedToStriped");
  ok = true;
  for (int w = 0; w < kThreads / 32; ++w) {
    int running = 0;
    for (int lane = 0; lane < 32; ++lane) {
      const int t = w * 32 + lane;
      ok = ok && prefix[t] == running;
      running += descending[striped(t, 0)];
    }
    ok = ok && warp_totals[w] == running;
  }
  expect(ok, "WarpScan::ExclusiveSum");

  printf("tile 0 smallest %d, largest %d, %d wrong\n", keys[0], descending[0], g_wrong);
  printf("cub block load sort %s\n", g_wrong == 0 ? "PASSED" : "FAILED");
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_rows));
  CHECK(cudaFree(d_prefix));
  CHECK(cudaFree(d_warp_totals));
  return g_wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
