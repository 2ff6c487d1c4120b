// A program's block records (ShownAccesses::blocks, a lesson's "records_blocks"): the front end
// opens the body of each of its kernels with `::coop::BlockRecord coop_block_record_(LINE);`
// (tools/frontend/shown_edits.hpp), so thread 0 of every block records the block's start as the
// kernel begins and its finish as it returns, by whatever path, after its last barrier: the
// records record_block_start() and record_block_finish() make (device/gpu/schedule.cuh,
// device/emu/schedule_emu.hpp), at the line that names the kernel.
#pragma once

#if defined(__CUDACC__)
#include "device/gpu/schedule.cuh"
#define COOP_BLOCK_RECORD_DEVICE __device__
#else
#include "device/emu/schedule_emu.hpp"
#define COOP_BLOCK_RECORD_DEVICE
#endif

namespace coop {

struct BlockRecord {
  int line;
  COOP_BLOCK_RECORD_DEVICE explicit BlockRecord(int kernel_line) : line(kernel_line) {
    record_block_start(line);
  }
  COOP_BLOCK_RECORD_DEVICE ~BlockRecord() { record_block_finish(line); }
  BlockRecord(const BlockRecord&) = delete;
  BlockRecord& operator=(const BlockRecord&) = delete;
};

}  // namespace coop

#undef COOP_BLOCK_RECORD_DEVICE
