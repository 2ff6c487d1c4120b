#include "app/bench/reduce/accuracy.hpp"

#include <cmath>

namespace coop::lessons::reduction_performance {

HostSum host_sum(const std::vector<float>& values) {
  HostSum h;
  for (float x : values) {
    h.sum += x;
    h.abs_sum += std::fabs(x);
  }
  return h;
}

SumCheck check_sum(double got, const HostSum& reference, uint64_t depth) {
  return reduction::check_sum(got, reference.sum, reference.abs_sum, depth);
}

}  // namespace coop::lessons::reduction_performance
