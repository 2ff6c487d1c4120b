// Helpers for lesson-specific tests: requests with parameter overrides, results by name, checks.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "device/trace/compare.hpp"
#include "lessons/lesson.hpp"

namespace coop::testing {

using lessons::Check;
using lessons::LessonDef;
using lessons::LessonRun;
using lessons::ParamDef;
using lessons::Params;
using lessons::RunRequest;

// The lesson's default launch and parameters, with `overrides` applied.
inline RunRequest lesson_request(const LessonDef& l, const Params& overrides = {},
                                 uint64_t seed = 0) {
  RunRequest r;
  r.config = l.default_config;
  r.seed = seed;
  for (const ParamDef& p : l.params) r.params[p.name] = p.default_value;
  for (const auto& [k, v] : overrides) r.params[k] = v;
  return r;
}

// The same with another 1D grid and block.
inline RunRequest lesson_request(const LessonDef& l, const Params& overrides, uint32_t grid,
                                 uint32_t block, uint64_t seed = 0) {
  RunRequest r = lesson_request(l, overrides, seed);
  r.config.grid = {grid, 1, 1};
  r.config.block = {block, 1, 1};
  return r;
}

// The value of the result called `name`, or "" when the run has none.
inline std::string result_of(const LessonRun& run, const std::string& name) {
  for (const auto& [k, v] : run.results)
    if (k == name) return v;
  return "";
}

// The first check whose name starts with `prefix`.
inline const Check* check_named(const LessonRun& run, const std::string& prefix) {
  for (const Check& c : run.checks)
    if (c.name.rfind(prefix, 0) == 0) return &c;
  return nullptr;
}

// The run succeeded and every check passed or was skipped with a reason.
inline void expect_checks_pass(const LessonRun& run, const char* where = "") {
  ASSERT_TRUE(run.status.ok()) << where << run.status.message();
  for (const Check& c : run.checks)
    EXPECT_TRUE(c.pass || c.skipped)
        << where << c.name << ": expected " << c.expected << ", got " << c.got;
}

// Two runs of the same request launched the same kernels, and their traces agree on every field
// the backends must agree on.
inline void expect_same_traces(const LessonRun& a, const LessonRun& b) {
  ASSERT_EQ(a.launches.size(), b.launches.size());
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const TraceDiff d = compare_deterministic(a.launches[i], b.launches[i]);
    EXPECT_TRUE(d.equal()) << a.launches[i].header.kernel << ": " << d.mismatches
                           << " differences, first: " << (d.examples.empty() ? "" : d.examples[0]);
  }
}

}  // namespace coop::testing
