// The plain loads and stores a launch shows as traced ones: those into the buffers named here,
// by the names the program gives them (a cudaMalloc'd pointer's variable, a __shared__ array).
// An ordinary CUDA program cannot write traced(x) = v, yet a lesson's steps show such stores;
// with `stores = {"x"}` the emulator records every plain store into x as traced(x) = v would
// (memory_record.hpp), and nothing else besides. Empty lists cost a launch nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "device/launch/result.hpp"

namespace coop {

struct ShownAccesses {
  std::vector<std::string> stores;  // buffers whose plain stores are shown
  std::vector<std::string> loads;   // buffers whose plain loads are shown
  bool empty() const { return stores.empty() && loads.empty(); }
};

// At most this many names in each list: every access the emulator sees is looked up in them.
inline constexpr size_t kMaxShownBuffers = 16;

// "out,ranks" -> {"out", "ranks"} ("" -> none); each a C identifier. `what` names the option or
// variable in the error ("--show-stores NAMES").
Result<std::vector<std::string>> parse_shown_buffers(std::string_view joined,
                                                     std::string_view what);
// The form parse_shown_buffers reads.
std::string join_shown_buffers(const std::vector<std::string>& names);

}  // namespace coop
