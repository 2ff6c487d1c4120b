// Shared helpers for the test suites.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "device/launch/executor.hpp"
#include "device/occupancy/presets.hpp"

namespace coop::testing {

// The GPU executor, or a skip naming why there is none (tests labelled `gpu` run for real in
// scripts/gpu-check.sh on a machine with a GPU).
#define COOP_GPU_OR_SKIP(exec_var)                                                 \
  auto exec_var##_result = ::coop::make_gpu_executor(0);                           \
  if (!exec_var##_result) GTEST_SKIP() << exec_var##_result.message();             \
  std::unique_ptr<::coop::Executor> exec_var = std::move(*exec_var##_result)

inline std::unique_ptr<Executor> emulator() { return make_emu_executor(default_emulated_device()); }

}  // namespace coop::testing
