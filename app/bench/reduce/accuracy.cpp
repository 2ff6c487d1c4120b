#include "app/bench/reduce/accuracy.hpp"

#include <cmath>
#include <limits>

namespace coop::lessons::reduction_performance {

HostSum host_sum(const std::vector<float>& values) {
  HostSum h;
  for (float x : values) {
    h.sum += x;
    h.abs_sum += std::fabs(x);
  }
  return h;
}

double error_bound(uint64_t depth, double abs_sum) {
  const double du = double(depth) * std::ldexp(1.0, -24);
  if (du >= 1) return std::numeric_limits<double>::infinity();
  return du / (1 - du) * abs_sum;
}

double SumCheck::relative_error() const {
  return reference != 0 ? error / std::fabs(reference) : error;
}
double SumCheck::relative_bound() const {
  return reference != 0 ? bound / std::fabs(reference) : bound;
}

SumCheck check_sum(double got, const HostSum& reference, uint64_t depth) {
  SumCheck c;
  c.got = got;
  c.reference = reference.sum;
  c.depth = depth;
  c.error = std::fabs(got - reference.sum);
  c.bound = error_bound(depth, reference.abs_sum);
  c.pass = std::isfinite(got) && c.error <= c.bound;
  return c;
}

SumCheck check_exact(double got, double reference) {
  SumCheck c;
  c.got = got;
  c.reference = reference;
  c.exact = true;
  c.error = std::fabs(got - reference);
  c.pass = got == reference;
  return c;
}

namespace {
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

std::vector<float> random_input(size_t n, uint64_t seed) {
  std::vector<float> v(n);
  uint64_t state = seed * 0x2545F4914F6CDD1Dull + 1;
  for (float& x : v) x = float(splitmix64(state) >> 40) * 0x1p-24f;  // 24 random bits: exact
  return v;
}

std::vector<float> integer_input(size_t n, uint64_t seed) {
  std::vector<float> v(n);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 7;
  for (float& x : v) x = float(splitmix64(state) >> 60);
  return v;
}

}  // namespace coop::lessons::reduction_performance
