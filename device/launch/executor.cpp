#include "device/launch/executor.hpp"

#include <algorithm>
#include <thread>

namespace coop {

void Executor::name_buffer(const BufferInfo& info) { buffers_.push_back(info); }

void Executor::forget_buffer(uint64_t base) {
  std::erase_if(buffers_, [base](const BufferInfo& b) { return b.base == base; });
}

Status Executor::launch_untraced(const ErasedLaunch& launch, const LaunchConfig& config, void*) {
  const ExecOptions kept = options_;
  options_.trace = false;
  // Blocks on several OS threads order cross-block atomics as the host's scheduler does, which
  // CUDA allows. A seeded schedule keeps its one thread to stay reproducible: seeded lockstep
  // too, whose lane orders come from each OS thread's generator in the order blocks reach it.
  if (options_.schedule == Schedule::Lockstep && options_.seed == 0)
    options_.jobs = std::max(1u, std::thread::hardware_concurrency());
  // A repeat runs without the check of every access against its allocation (half its time on
  // the emulator): its kernel and shape passed it when traced, and the guard zones around every
  // allocation still take a stray write. Initialisation checks stay: a checked launch after this
  // one must know what it wrote.
  options_.check_bounds = options_.check_initialisation;
  Trace untraced;
  const Status s = launch_erased(launch, config, untraced);
  options_ = kept;
  return s;
}

Status Executor::check_options(const LaunchConfig& config) const {
  if (options_.trace && config.total_threads() > kMaxTracedThreads)
    return Status::error("a traced launch may have at most " + std::to_string(kMaxTracedThreads) +
                         " threads: this one has " + std::to_string(config.total_threads()) +
                         " (turn tracing off for larger grids)");
  if (options_.trace && options_.trace_capacity > 0xffffffffull)
    return Status::error("a trace capacity of " + std::to_string(options_.trace_capacity) +
                         " events exceeds the 4294967295 a trace can number");
  return {};
}

void Executor::fill_header(Trace& trace, const ErasedLaunch& launch,
                           const LaunchConfig& config) const {
  TraceHeader& h = trace.header;
  h.kernel = launch.name;
  h.backend = backend();
  h.device = device();
  h.launch = config;
  h.seed = options_.seed;
  h.recorded_at = utc_now_iso8601();
  h.coopviz_version = COOPVIZ_VERSION;
  h.buffers = buffers_;
  if (backend() == Backend::Emu)
    h.clock = "emulator steps: a logical clock that orders every event exactly";
}

}  // namespace coop
