// The row every thread of where_am_i (groups_and_ranks.cuh) writes: what its handles report.
// It lives in namespace coop::lessons so that both the GPU build of the kernel and its lowered
// emulator build (namespace coop::lessons::emulated::...) see the same layout as the lesson.
#pragma once

namespace coop::lessons {

struct WhereAmI {
  // clang-format off
  enum Field : int {
    kRank, kThreads,                      // block: thread_rank(), num_threads()
    kIndexX, kIndexY, kIndexZ,            // block: thread_index()
    kDimX, kDimY, kDimZ,                  // block: dim_threads()
    kGridRank, kGridThreads, kGridValid,  // grid: thread_rank(), num_threads(), is_valid()
    kClusterBlocks,                       // cluster: num_blocks()
    kActiveThreads, kActiveRank,          // coalesced_threads() inside the branch
    kFields
  };
  // clang-format on
};

}  // namespace coop::lessons
