// When a run on the GPU cannot happen or fails part way (no GPU, no or an old driver, a device
// without cooperative launch, an error or a timeout on the GPU), the app says what happened in
// plain words and offers the way on: the emulator, or a trace recorded on a real GPU. Pure
// logic: the window draws it (panel_gpu_problem.cpp), tests check it without a display.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/backend.hpp"
#include "device/launch/status.hpp"

namespace coop::app {

enum class GpuProblem {
  None,           // the run succeeded, or failed for a reason that is not the GPU's
  NoGpu,          // no CUDA device
  NoDriver,       // no NVIDIA driver installed
  OldDriver,      // the driver is older than the CUDA runtime needs
  NoCooperative,  // the device cannot launch a cooperative grid
  TooOld,         // the device's compute capability is below the lesson's
  EmulatorOnly,   // the lesson demonstrates a hazard and never runs on a GPU
  Fault,          // the GPU reported an error during the run
  Timeout,        // the kernel did not finish within the time limit
};

struct GpuProblemText {
  GpuProblem kind = GpuProblem::None;
  std::string title;        // one line: "No GPU found"
  std::string explanation;  // what happened and what it means, for a student
};

// Classifies a run's outcome: `requested` is the backend asked for, `used` the one that ran (none
// when none could be made).
GpuProblemText explain_gpu_problem(BackendRequest requested, std::optional<Backend> used,
                                   const Status& status);

// A short name for scripts and tests: "none", "no-gpu", "old-driver", "fault", ...
const char* to_string(GpuProblem problem);

// <lesson>.cvt where coopviz can find it: under $COOPVIZ_ASSETS/traces, else among the traces
// that ship with coopviz (data_dirs()); empty when there is none.
std::string recorded_trace_path(std::string_view lesson_id);

}  // namespace coop::app
