#include "lessons/run_helpers.hpp"

namespace coop::lessons {

std::string describe_ids(const std::vector<uint32_t>& ids, size_t max_runs) {
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

}  // namespace coop::lessons
