// How lessons name many threads or blocks in one line, shared by lesson programs (through
// lesson_protocol.h) and coopviz's lessons (lessons/run_helpers.hpp), so both say it alike.
// Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// "0-31, 64, 96-127" for ids in the given order (runs of consecutive ids fold), showing at most
// `max_runs` runs and then how many ids were left out; "none" for an empty list.
inline std::string describe_ids(const std::vector<uint32_t>& ids, size_t max_runs = 8) {
  std::string out;
  size_t runs = 0;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (runs++ == max_runs) {
      out += ", ... (" + std::to_string(ids.size() - i) + " more)";
      break;
    }
    if (!out.empty()) out += ", ";
    out += std::to_string(ids[i]);
    if (j > i) out += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}
