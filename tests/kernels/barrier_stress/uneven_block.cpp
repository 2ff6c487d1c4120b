#include "tests/kernels/barrier_stress/uneven_block.hpp"

#include <numeric>
#include <vector>

#include "device/launch/executor.hpp"

namespace coop::lessons::barrier_stress {

Status run_uneven_block(Executor& exec, const LaunchConfig& c, int rounds, int work, Trace& trace) {
  auto src = DeviceArray<int>::create(exec, c.total_threads(), "src");
  auto sink = DeviceArray<uint32_t>::create(exec, c.total_threads(), "sink");
  if (!src) return src.status();
  if (!sink) return sink.status();
  std::vector<int> values(c.total_threads());
  std::iota(values.begin(), values.end(), 0);
  if (Status s = src->upload(values); !s) return s;
  return exec.launch(kernels().uneven_block, c, trace, src->get(), sink->get(), rounds, work);
}

}  // namespace coop::lessons::barrier_stress
