// coopviz bench trace: the GPU recorder under load (a traced reduction filling every SM).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "app/bench/kernels/kernels.hpp"
#include "app/bench/timing.hpp"
#include "app/cli/commands.hpp"
#include "device/launch/executor.hpp"
#include "device/occupancy/occupancy.hpp"

namespace coop::app {
namespace {

using Clock = std::chrono::steady_clock;

struct TraceRun {
  double kernel_ms = 0;
  uint64_t recorded = 0, attempts = 0;
  float sum = 0;
  Status status;
};

TraceRun run_once(Executor& exec, const LaunchConfig& config, const DeviceArray<float>& in,
                  DeviceArray<float>& out, unsigned n) {
  TraceRun r;
  out.zero();
  Trace trace;
  r.status = exec.launch(lessons::bench::kernels().traced_grid_sum, config, trace, in.get(),
                         out.get(), n);
  r.kernel_ms = trace.header.kernel_ms;
  r.recorded = trace.events.size();
  r.attempts = trace.header.attempts;
  if (auto host = out.download()) r.sum = (*host)[0];
  return r;
}

}  // namespace

void register_bench_trace(CLI::App& bench, CliState& state) {
  struct Options {
    bool json = false;
    unsigned loads_per_thread = 30;
    int reps = 5;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = bench.add_subcommand("trace", "GPU recorder throughput on a traced reduction over "
                                            "a full GPU, traced vs untraced, and overflow");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--loads", o->loads_per_thread, "Traced loads per thread")->capture_default_str();
  cmd->add_option("--reps", o->reps, "Timed repetitions")->capture_default_str();
  cmd->callback([o, &state] {
    auto gpu = make_gpu_executor(0);
    if (!gpu) {
      state.exit_code = usage_error("bench trace measures the GPU recorder and needs a GPU: " +
                                    gpu.message());
      return;
    }
    Executor& exec = **gpu;
    const auto& k = lessons::bench::kernels().traced_grid_sum;
    LaunchConfig config;
    config.block = {1024, 1, 1};
    // Every SM at full occupancy: as many 1024-thread blocks as fit on each SM, on every SM.
    const KernelResources res = exec.resources(k.gpu, k.name);
    OccupancyInput occ;
    occ.block = config.block;
    occ.regs_per_thread = res.regs_per_thread;
    occ.static_smem = res.static_smem;
    auto occupancy = compute_occupancy(exec.device(), occ);
    if (!occupancy) {
      state.exit_code = usage_error(occupancy.message());
      return;
    }
    config.grid = {uint32_t(occupancy->max_cooperative_grid), 1, 1};
    const uint64_t threads = config.total_threads();
    const unsigned n = unsigned(threads * o->loads_per_thread);
    std::vector<float> host(n);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    double expected = 0;
    for (float& x : host) expected += (x = u(rng));
    auto in = DeviceArray<float>::create(exec, n, "input");
    auto out = DeviceArray<float>::create(exec, 1, "total");
    if (!in || !out) {
      state.exit_code = usage_error("allocation failed");
      return;
    }
    in->upload(host);
    const uint64_t per_thread = o->loads_per_thread + 1 + 10;  // loads, the block handle, syncs
    exec.options().trace_capacity = threads * per_thread + threads / 1024 + 1024;

    std::vector<double> traced, untraced;
    TraceRun last;
    for (int r = -1; r < o->reps; ++r) {  // r == -1: warm-up
      exec.options().trace = true;
      last = run_once(exec, config, *in, *out, n);
      if (!last.status) break;
      if (r >= 0) traced.push_back(last.kernel_ms);
      exec.options().trace = false;
      TraceRun plain = run_once(exec, config, *in, *out, n);
      if (r >= 0) untraced.push_back(plain.kernel_ms);
    }
    if (!last.status) {
      state.exit_code = usage_error(last.status.message());
      return;
    }
    // Overflow: a quarter of the slots; the rest must be counted, not written.
    exec.options().trace = true;
    exec.options().trace_capacity = last.attempts / 4;
    const TraceRun small = run_once(exec, config, *in, *out, n);

    const double ms = median(traced), plain_ms = median(untraced);
    const double rate = double(last.recorded) / (ms * 1e-3);
    nlohmann::json j = {
        {"device", exec.device().name},
        {"grid", config.grid.x},
        {"block", config.block.x},
        {"blocks_per_sm", occupancy->active_blocks_per_sm},
        {"threads", threads},
        {"events", last.recorded},
        {"dropped", last.attempts - last.recorded},
        {"traced_kernel_ms", ms},
        {"untraced_kernel_ms", plain_ms},
        {"traced_over_untraced", plain_ms > 0 ? ms / plain_ms : 0},
        {"events_per_second", rate},
        {"sum_relative_error", std::abs(last.sum - expected) / expected},
        {"overflow", {{"capacity", last.attempts / 4}, {"recorded", small.recorded},
                      {"offered", small.attempts},
                      {"dropped_counted", small.attempts - small.recorded}}},
    };
    const bool pass = last.recorded >= 10'000'000 && last.attempts == last.recorded && ms < 20.0 &&
                      rate >= 0.5e9 && small.recorded == last.attempts / 4 &&
                      small.attempts == last.attempts;
    j["pass"] = pass;
    if (o->json) {
      std::cout << j.dump(2) << "\n";
    } else {
      std::printf("%llu events in %.2f ms of kernel time (%.2f G events/s), %llu dropped; "
                  "untraced %.3f ms (ratio %.1f); overflow run kept %llu of %llu\n",
                  (unsigned long long)last.recorded, ms, rate / 1e9,
                  (unsigned long long)(last.attempts - last.recorded), plain_ms,
                  plain_ms > 0 ? ms / plain_ms : 0, (unsigned long long)small.recorded,
                  (unsigned long long)small.attempts);
    }
    state.exit_code = pass ? 0 : 1;
  });
}

}  // namespace coop::app
