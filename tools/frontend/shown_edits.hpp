// Shown accesses, found in Clang's AST: in device code (the bodies of __global__ and __device__
// functions), a plain store into an element of a buffer named in `stores` becomes a traced one,
// and a read of an element of one named in `loads` a traced load, as a lesson's author writes
// them by hand (device/emu/cg/atomics.hpp, device/gpu/cg/atomics.cuh):
//
//   out[i] = v;        ->  ::coop::traced(out[i]) = v;
//   tile[y][x] = v;    ->  ::coop::traced(tile[y][x]) = v;      (a 2-D __shared__ array)
//   *out = v;          ->  ::coop::traced(*out) = v;
//   x = in[i] + 1;     ->  x = ::coop::traced_load(in[i]) + 1;
//
// A buffer is named as the kernel code names it: a parameter, a __shared__ variable or another
// variable of a device function; a __shared__ variable that is no array is its own element
// (`total = v` -> `::coop::traced(total) = v`). "total on the line with TEXT" shows total's
// accesses on the lines that hold TEXT alone, and an entry that shows nothing is said. Each
// edit is an insertion on the access's own line, so traced's __builtin_LINE() gives the user's
// line. Other forms (`out[i] += v`, `++out[i]`, an
// assignment whose value is used, a store through another pointer made from the buffer's) stay
// plain and are named in skip records whose reason starts "not shown: ".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "device/launch/shown_entry.hpp"
#include "tools/frontend/launch_edits.hpp"

namespace coop::frontend {

struct ShownNames {
  // Buffers whose plain stores (loads) are shown: a name, or "NAME on the line with TEXT" for
  // those on lines that hold TEXT alone (device/launch/shown_entry.hpp).
  std::vector<std::string> stores;
  std::vector<std::string> loads;
  bool empty() const { return stores.empty() && loads.empty(); }
  // Whether an entry names `name`, on any line.
  bool names(std::string_view name) const {
    for (const auto* list : {&stores, &loads})
      for (const std::string& entry : *list)
        if (coop::split_shown_entry(entry).name == name) return true;
    return false;
  }
};

// Adds the edits of `names`' accesses in the main file of `context` (kind "shown") to `into`,
// and a skip record for each access left plain.
void collect_shown_edits(clang::ASTContext& context, const ShownNames& names, LaunchEdits& into);

// Block records (a lesson's "records_blocks"): the body of each __global__ definition of the main
// file opens with `::coop::BlockRecord coop_block_record_(LINE);` (kind "blocks"), LINE the
// kernel's name's, so thread 0 of every block records the block's start as the kernel begins and
// its finish as it returns, by whatever path, as record_block_start() and record_block_finish()
// do (device/gpu/schedule.cuh, device/emu/schedule_emu.hpp): the Schedule view's bars.
void collect_block_records(clang::ASTContext& context, LaunchEdits& into);

}  // namespace coop::frontend
