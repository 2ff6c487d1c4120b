#include "device/launch/executor.hpp"

#include <algorithm>

namespace coop {

void Executor::name_buffer(const BufferInfo& info) { buffers_.push_back(info); }

void Executor::forget_buffer(uint64_t base) {
  std::erase_if(buffers_, [base](const BufferInfo& b) { return b.base == base; });
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
}

}  // namespace coop
