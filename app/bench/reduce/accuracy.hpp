// Checking a float sum: the double-precision reference, the worst-case rounding bound for a
// given chain of additions, and inputs chosen so that a check means something (random values for
// the bound, small integers for exactness).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace coop::lessons::reduction_performance {

// Exact enough reference: the double-precision sum and the sum of magnitudes.
struct HostSum {
  double sum = 0;
  double abs_sum = 0;
};
HostSum host_sum(const std::vector<float>& values);

// |float sum - exact sum| <= gamma(depth) * sum |x|, gamma(d) = d u / (1 - d u), u = 2^-24: the
// classic worst-case bound for recursive summation. Infinite when d u >= 1.
double error_bound(uint64_t depth, double abs_sum);

// A sum compared with the reference.
struct SumCheck {
  double got = 0, reference = 0;
  double error = 0, bound = 0;  // absolute
  uint64_t depth = 0;
  bool exact = false;  // the bound is 0: inputs chosen so every addition is exact
  bool pass = false;
  double relative_error() const;
  double relative_bound() const;
};
SumCheck check_sum(double got, const HostSum& reference, uint64_t depth);
SumCheck check_exact(double got, double reference);

// n uniform floats in [0, 1), reproducible from the seed.
std::vector<float> random_input(size_t n, uint64_t seed);
// n integers 0..15 as floats: if n <= kExactMaxN every partial sum is an integer below 2^24, so
// any order of additions gives the exact sum and a single lost or doubled element shows.
std::vector<float> integer_input(size_t n, uint64_t seed);
constexpr uint64_t kExactMaxN = (uint64_t(1) << 24) / 15;

}  // namespace coop::lessons::reduction_performance
