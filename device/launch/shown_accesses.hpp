// The plain loads and stores a program shows as traced ones: those into the buffers named here,
// by the names its kernel code gives them (a parameter, a __shared__ array or variable), each on
// every line or on the lines that hold a text (shown_entry.hpp). An ordinary CUDA
// program cannot write traced(x) = v, yet a lesson's steps show such stores; with
// `stores = {"x"}` the front end builds every plain `x[i] = v` of its kernels as
// traced(x[i]) = v (tools/frontend/shown_edits.hpp), on either backend.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "device/launch/result.hpp"

namespace coop {

struct ShownAccesses {
  std::vector<std::string> stores;  // buffers whose plain stores are shown
  std::vector<std::string> loads;   // buffers whose plain loads are shown
  // Each block's start and finish recorded as its kernel begins and returns, as
  // record_block_start() and record_block_finish() record them (a lesson's "records_blocks",
  // `coopviz run --record-blocks`): the bars of the Schedule view, from a program that writes
  // none of it.
  bool blocks = false;
  bool empty() const { return stores.empty() && loads.empty() && !blocks; }
};

// At most this many names in each list (a program names a few; a command line is no list).
inline constexpr size_t kMaxShownBuffers = 16;
// At most this many characters of text in an entry "NAME on the line with TEXT"
// (device/launch/shown_entry.hpp): a line's words, not a file.
inline constexpr size_t kMaxShownLineText = 200;

// "out,ranks" -> {"out", "ranks"} ("" -> none); each a C identifier, or one limited to some lines,
// "total on the line with total = total +" (shown_entry.hpp; its text holds no comma, which
// joins entries). `what` names the option or variable in the error ("--show-stores NAMES").
Result<std::vector<std::string>> parse_shown_buffers(std::string_view joined,
                                                     std::string_view what);
// The form parse_shown_buffers reads.
std::string join_shown_buffers(const std::vector<std::string>& names);

}  // namespace coop
