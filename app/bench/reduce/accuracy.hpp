// Checking a float sum: the double-precision reference, and the rounding bound and inputs the
// benchmark shares with the lesson's program (lessons/reduction_performance/reduction_variants.h:
// random values for the bound, small integers for exactness).
#pragma once

#include <cstdint>
#include <vector>

#include "lessons/reduction_performance/reduction_variants.h"

namespace coop::lessons::reduction_performance {

// Exact enough reference: the double-precision sum and the sum of magnitudes.
struct HostSum {
  double sum = 0;
  double abs_sum = 0;
};
HostSum host_sum(const std::vector<float>& values);

using reduction::check_exact;
using reduction::error_bound;
using reduction::integer_input;
using reduction::kExactMaxN;
using reduction::random_input;
using reduction::SumCheck;

// `got` against the reference, within the bound of `depth` chained additions of its values.
SumCheck check_sum(double got, const HostSum& reference, uint64_t depth);

}  // namespace coop::lessons::reduction_performance
