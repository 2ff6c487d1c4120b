// Helpers for lesson tests: requests with non-default parameters, a GPU stand-in that only
// counts launch attempts (to prove that hazard variants never reach a GPU), and the comparison
// of a lesson run on a GPU with the same run on the emulator.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "device/trace/compare.hpp"
#include "lessons/lesson.hpp"

namespace coop::testing {

// The lesson's default request with some parameters (and optionally the block) changed.
inline lessons::RunRequest lesson_request(const lessons::LessonDef& l,
                                          const lessons::Params& changed = {}) {
  lessons::RunRequest r;
  r.config = l.default_config;
  for (const lessons::ParamDef& p : l.params) r.params[p.name] = p.default_value;
  for (const auto& [name, value] : changed) r.params[name] = value;
  return r;
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
inline void expect_checks_pass(const lessons::LessonRun& run, const std::string& where) {
  ASSERT_TRUE(run.status.ok()) << where << ": " << run.status.message();
  ASSERT_FALSE(run.checks.empty()) << where;
  for (const lessons::Check& c : run.checks)
    EXPECT_TRUE(c.pass || c.skipped)
        << where << ": " << c.name << ": expected " << c.expected << ", got " << c.got;
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
