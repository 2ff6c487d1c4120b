// Groups and ranks: what a thread learns from its group handles, and how to hand a handle to a
// helper function.
#pragma once
#include "device/coop/kernel_api.hpp"
#include "lessons/groups_and_ranks/where_am_i.hpp"

namespace coop::lessons::groups_and_ranks {

// Each thread fills one row of `rows` with what its handles report (fields: where_am_i.hpp).
__global__ void where_am_i(int* rows) {
  // Handles first, before any branch: every thread of the block runs these lines.
  cg::thread_block block = cg::this_thread_block();  // all threads of my block
  cg::grid_group grid = cg::this_grid();             // all threads of the launch
  cg::cluster_group cluster = cg::this_cluster();    // the blocks of my cluster
  using F = WhereAmI;                                // names of the fields in a row
  int* row = rows + grid.thread_rank() * F::kFields;

  traced(row[F::kRank]) = block.thread_rank();  // 0 .. num_threads() - 1
  traced(row[F::kThreads]) = block.num_threads();
  const dim3 index = block.thread_index();  // the same as threadIdx
  const dim3 dims = block.dim_threads();    // the same as blockDim
  traced(row[F::kIndexX]) = index.x;
  traced(row[F::kIndexY]) = index.y;
  traced(row[F::kIndexZ]) = index.z;
  traced(row[F::kDimX]) = dims.x;
  traced(row[F::kDimY]) = dims.y;
  traced(row[F::kDimZ]) = dims.z;

  traced(row[F::kGridRank]) = grid.thread_rank();
  traced(row[F::kGridThreads]) = grid.num_threads();
  traced(row[F::kGridValid]) = grid.is_valid();  // true only under a cooperative launch
  traced(row[F::kClusterBlocks]) = cluster.num_blocks();

  if (block.thread_rank() % 3 == 0) {
    // Only every third thread gets here; coalesced_threads() is the part of its warp that did.
    cg::coalesced_group active = cg::coalesced_threads();
    traced(row[F::kActiveThreads]) = active.num_threads();
    traced(row[F::kActiveRank]) = active.thread_rank();
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
  traced(out[i]) = left;
}

}  // namespace coop::lessons::groups_and_ranks
