// Picking the backend a lesson runs on: the GPU when asked for or found, the emulator otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "device/launch/executor.hpp"

namespace coop::app {

// The backend a run asks for: Gpu and Emu name the Backend a trace says it ran on; Auto takes the
// GPU when there is one and the emulator otherwise. The one truth behind --backend, the Launch
// panel's list, scripts' `backend` and the JSON reports.
enum class BackendRequest : uint8_t { Auto, Gpu, Emu };

// Every request, in the order help texts and the Launch panel's list give them.
inline constexpr BackendRequest kBackendRequests[] = {BackendRequest::Auto, BackendRequest::Gpu,
                                                      BackendRequest::Emu};
// The requests that name one backend: a benchmark measures the one it is told, never a stand-in.
inline constexpr BackendRequest kNamedBackends[] = {BackendRequest::Gpu, BackendRequest::Emu};

// "auto", or the named Backend's own word ("gpu", "emu"): as the command line, scripts and JSON
// write it.
const char* to_string(BackendRequest request);
// "auto, gpu or emu": the words of `allowed`, for help texts and errors.
std::string backend_request_words(std::span<const BackendRequest> allowed = kBackendRequests);
// The request `word` names, if it is one of `allowed`; else an error that names them,
// "<what> '<word>': choose auto, gpu or emu" (`what`: where the word came from).
Result<BackendRequest> parse_backend_request(
    std::string_view word, std::string_view what = "--backend",
    std::span<const BackendRequest> allowed = kBackendRequests);

struct BackendChoice {
  std::unique_ptr<Executor> exec;
  std::string banner;  // said to the user when the choice was not the one they asked for
};

// Auto: the GPU if present, else the emulator; Gpu: an error without one; Emu: the emulator.
// emulate: an architecture preset for the emulator ("sm_90"); empty = the local GPU's properties
// if there is one, else the default H100-like preset.
Result<BackendChoice> choose_backend(BackendRequest which, std::string_view emulate = {});

}  // namespace coop::app
