// Picking the backend a lesson runs on: the GPU when asked for or found, the emulator otherwise.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "device/launch/executor.hpp"

namespace coop::app {

struct BackendChoice {
  std::unique_ptr<Executor> exec;
  std::string banner;  // said to the user when the choice was not the one they asked for
};

// which: "auto" (GPU if present, else emulator), "gpu" (error without one) or "emu".
// emulate: an architecture preset for the emulator ("sm_90"); empty = the local GPU's properties
// if there is one, else the default H100-like preset.
Result<BackendChoice> choose_backend(std::string_view which, std::string_view emulate = {});

}  // namespace coop::app
