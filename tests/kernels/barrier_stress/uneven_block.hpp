// The barrier-stress kernel uneven_block, launched with its inputs set up.
#pragma once

#include "device/launch/executor.hpp"
#include "tests/kernels/barrier_stress/kernels.hpp"

namespace coop::lessons::barrier_stress {

// Runs uneven_block on `exec` (inputs 0, 1, 2, ... to copy) and leaves its trace in `trace`.
Status run_uneven_block(Executor& exec, const LaunchConfig& c, int rounds, int work, Trace& trace);

}  // namespace coop::lessons::barrier_stress
