// Helpers for lesson tests: requests with non-default parameters, results and checks by name, a
// GPU stand-in that only counts launch attempts (to prove that hazard variants never reach a
// GPU), and the comparison of a lesson run on a GPU with the same run on the emulator.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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

// The same with another launch shape (a zero x leaves the lesson's default).
inline RunRequest request_with(const LessonDef& l, const Params& changes = {},
                               Dim3 grid = {0, 0, 0}, Dim3 block = {0, 0, 0}) {
  RunRequest r = lesson_request(l, changes);
  if (grid.x) r.config.grid = grid;
  if (block.x) r.config.block = block;
  return r;
}

// How many checks were skipped (GPU-only measurements on the emulator).
inline size_t skipped_checks(const LessonRun& run) {
  size_t n = 0;
  for (const Check& c : run.checks) n += c.skipped;
  return n;
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

// Reports itself as a GPU of the given compute capability, keeps memory on the host, and
// refuses every launch while counting it. A lesson that must not launch on a GPU leaves
// `launches` at 0.
class CountingGpu : public Executor {
 public:
  explicit CountingGpu(int cc_major, int cc_minor = 0) {
    device_.name = "counting stand-in GPU";
    device_.cc_major = cc_major;
    device_.cc_minor = cc_minor;
    device_.sm_count = 8;
  }
  Backend backend() const override { return Backend::Gpu; }
  const DeviceProps& device() const override { return device_; }
  Result<void*> allocate(size_t bytes) override { return static_cast<void*>(new char[bytes]); }
  void release(void* p) override { delete[] static_cast<char*>(p); }
  Status upload(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return {};
  }
  Status download(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return {};
  }
  Status fill(void* dst, int byte, size_t bytes) override {
    std::memset(dst, byte, bytes);
    return {};
  }
  KernelResources resources(const GpuKernelEntry&, const char*) override { return {}; }

  int launches = 0;

 protected:
  Status launch_erased(const ErasedLaunch&, const LaunchConfig&, Trace&) override {
    ++launches;
    return Status::error("the counting stand-in GPU runs nothing");
  }

 private:
  DeviceProps device_;
};

// Every check of a run passed (or was skipped with a reason).
inline void expect_checks_pass(const LessonRun& run, const std::string& where = "") {
  ASSERT_TRUE(run.status.ok()) << where << ": " << run.status.message();
  ASSERT_FALSE(run.checks.empty()) << where;
  for (const Check& c : run.checks)
    EXPECT_TRUE(c.pass || c.skipped)
        << where << ": " << c.name << ": expected " << c.expected << ", got " << c.got;
}

// A hazard variant (`variant` of the lesson's parameter "variant") run on a GPU is refused, as
// emulator-only, before it launches anything.
inline void expect_hazard_refused(const LessonDef& l, Executor& gpu, int64_t variant) {
  const LessonRun refused = run_lesson(l, gpu, lesson_request(l, {{"variant", variant}}));
  ASSERT_FALSE(refused.status.ok()) << "variant " << variant;
  EXPECT_NE(refused.status.message().find("runs only on the emulator"), std::string::npos)
      << refused.status.message();
  EXPECT_TRUE(refused.launches.empty()) << "variant " << variant << " must not launch";
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

// gpu: the same request on the GPU and on an emulator of that GPU: checks pass on both, and
// when the lesson's traces are comparable, every launch agrees on every deterministic field.
inline void expect_backends_agree(Executor& gpu, const std::string& id,
                                  const lessons::RunRequest& r) {
  const lessons::LessonDef* l = lessons::find_lesson(id);
  ASSERT_NE(l, nullptr) << id;
  auto emu = make_emu_executor(gpu.device());
  const lessons::LessonRun on_gpu = lessons::run_lesson(*l, gpu, r);
  const lessons::LessonRun on_emu = lessons::run_lesson(*l, *emu, r);
  expect_checks_pass(on_gpu, id + " on the GPU");
  expect_checks_pass(on_emu, id + " on the emulator");
  if (!l->traces_comparable) return;
  ASSERT_EQ(on_gpu.launches.size(), on_emu.launches.size());
  for (size_t i = 0; i < on_gpu.launches.size(); ++i) {
    const TraceDiff diff = compare_deterministic(on_gpu.launches[i], on_emu.launches[i]);
    EXPECT_TRUE(diff.equal()) << id << ", " << on_gpu.launches[i].header.kernel << ": "
                              << diff.mismatches << " differences, first: "
                              << (diff.examples.empty() ? "" : diff.examples[0]);
  }
}

}  // namespace coop::testing
