// Host side of the kernels the GPU executor runs itself (device/gpu/executor_kernels.cu). CUDA
// types are erased so that gpu_executor.cpp stays plain C++.
#pragma once

#include <cstdint>

namespace coop::gpu {

// How often %globaltimer changes, in ns (32 on H100 and H200); 0 if it could not be measured.
uint32_t measure_timer_tick_ns(void* stream);

// For tests of how the app reports a failing GPU run, never for lessons: the environment
// variable COOPVIZ_TEST_GPU_FAILURE=fault makes every launch fault (an illegal address), and
// =spin makes it spin past the executor's time limit. Returns "fault", "spin" or nullptr.
const char* test_failure_requested();

// Enqueues the failing kernel `what` ("fault" or "spin", spinning `seconds`) on the stream;
// returns the cudaError_t of the launch.
int launch_test_failure(const char* what, double seconds, void* stream);

}  // namespace coop::gpu
