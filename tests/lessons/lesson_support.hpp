// Helpers for lesson-specific tests: requests with chosen params and launch shapes, and reading
// a run's results and checks.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "lessons/lesson.hpp"

namespace coop::lessons::testing {

// The lesson's default request with some params (and optionally the launch shape) replaced.
inline RunRequest request_with(const LessonDef& l, const Params& changes = {},
                               Dim3 grid = {0, 0, 0}, Dim3 block = {0, 0, 0}) {
  RunRequest r;
  r.config = l.default_config;
  if (grid.x) r.config.grid = grid;
  if (block.x) r.config.block = block;
  for (const ParamDef& p : l.params) r.params[p.name] = p.default_value;
  for (const auto& [k, v] : changes) r.params[k] = v;
  return r;
}

// The value of a named result, or "" if the run has none.
inline std::string result_of(const LessonRun& run, const std::string& name) {
  for (const auto& [k, v] : run.results)
    if (k == name) return v;
  return "";
}

// Every check passed or was skipped; failures are reported by name.
inline void expect_checks_pass(const LessonRun& run, const std::string& where) {
  ASSERT_TRUE(run.status.ok()) << where << ": " << run.status.message();
  EXPECT_FALSE(run.checks.empty()) << where;
  for (const Check& c : run.checks)
    EXPECT_TRUE(c.pass || c.skipped)
        << where << ": " << c.name << ": expected " << c.expected << ", got " << c.got;
}

// How many checks were skipped (GPU-only measurements on the emulator).
inline size_t skipped_checks(const LessonRun& run) {
  size_t n = 0;
  for (const Check& c : run.checks) n += c.skipped;
  return n;
}

}  // namespace coop::lessons::testing
