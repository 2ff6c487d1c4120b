// Lesson "async-data-movement": memcpy_async into shared memory, wait / wait_prior, a
// double-buffered pipeline, and 4-byte against 16-byte copies timed on a GPU. CPU reference.
#include <random>
#include <string>
#include <vector>

#include "lessons/async_data_movement/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::async_data_movement {
namespace {

// [SECTION] CPU reference

// The tile shape of async_data_movement.cuh (the kernel file is not host code; the lesson test
// checks that these match its text).
constexpr int kMaxBlock = 256;
constexpr size_t kPerThread = 4;

// Small whole numbers as floats: every sum is exact, whatever order it is formed in.
std::vector<float> make_values(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = float(rng() % 10);
  return v;
}

std::vector<float> cpu_two_copies(const std::vector<float>& in, size_t blocks, size_t n) {
  std::vector<float> out(blocks * n);
  for (size_t b = 0; b < blocks; ++b)
    for (size_t t = 0; t < n; ++t) {
      const float* src = &in[b * 2 * n];
      out[b * n + t] = src[(t + 1) % n] + src[n + (t + 1) % n];
    }
  return out;
}

std::vector<float> cpu_pipeline(const std::vector<float>& in, size_t blocks, size_t threads,
                                size_t tiles) {
  const size_t n = threads * kPerThread;
  std::vector<float> out(blocks * threads);
  for (size_t b = 0; b < blocks; ++b)
    for (size_t t = 0; t < threads; ++t) {
      float sum = 0;
      for (size_t k = 0; k < tiles; ++k) {
        const float* tile = &in[(b * tiles + k) * n];
        for (size_t j = 0; j < kPerThread; ++j) sum += tile[t * kPerThread + j];
        sum += 0.5f * tile[(t * kPerThread + kPerThread) % n];
      }
      out[b * threads + t] = sum;
    }
  return out;
}

// Thread 0's copy calls in the order it made them: "copy, copy, wait_prior<1>, ...".
std::string copy_calls_of_thread0(const Trace& t) {
  std::string s;
  for (const Event& e : t.events) {
    if (e.thread != 0 || (e.kind != EventKind::CopyIssue && e.kind != EventKind::CopyWait))
      continue;
    s += s.empty() ? "" : ", ";
    s += e.kind == EventKind::CopyIssue ? "copy"
         : e.extra                      ? "wait_prior<" + std::to_string(e.extra) + ">"
                                        : "wait";
  }
  return s;
}

size_t matching(const std::vector<float>& a, const std::vector<float>& b) {
  size_t good = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) good += a[i] == b[i];
  return good;
}

// [SECTION] Launch rules

Status validate(const LaunchConfig& c, const Params&) {
  if (Status s = require_1d_launch(c, "async-data-movement"); !s) return s;
  if (c.block.x > uint32_t(kMaxBlock))
    return Status::error("async-data-movement's shared buffers hold tiles for at most " +
                         std::to_string(kMaxBlock) + " threads: got a block of " +
                         std::to_string(c.block.x));
  if (c.grid.x > 1024)
    return Status::error("async-data-movement allows at most 1024 blocks in its traced runs: got " +
                         std::to_string(c.grid.x));
  return {};
}

// [SECTION] The runs

Status run_two_copies(Executor& exec, const RunRequest& req, LessonRun& out) {
  const size_t blocks = req.config.grid.x, n = req.config.block.x;
  const std::vector<float> in = make_values(blocks * 2 * n, uint32_t(req.params.at("data")));
  auto d_in = upload_array(exec, in, "in");
  auto d_out = zero_array<float>(exec, blocks * n, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  Trace trace;
  Status launched = exec.launch(kernels().two_copies, req.config, trace, d_in->get(), d_out->get());
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto got = d_out->download();
  if (!got) return got.status();
  const size_t good = matching(*got, cpu_two_copies(in, blocks, n));
  out.checks.push_back(make_check("two_copies: each thread read both copies' neighbour values",
                                  count_of(blocks * n, blocks * n) + " threads",
                                  count_of(good, blocks * n) + " threads", good == blocks * n));
  return {};
}

// The pipeline with 4-byte (wide = 0) and 16-byte (wide = 1) pieces, traced.
Status run_pipelines(Executor& exec, const RunRequest& req, LessonRun& out) {
  const size_t blocks = req.config.grid.x, threads = req.config.block.x;
  const size_t tiles = size_t(req.params.at("tiles")), n = threads * kPerThread;
  const std::vector<float> in =
      make_values(blocks * tiles * n, uint32_t(req.params.at("data")) + 1);
  const std::vector<float> expect = cpu_pipeline(in, blocks, threads, tiles);
  auto d_in = upload_array(exec, in, "in");
  auto d_out = zero_array<float>(exec, blocks * threads, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  for (int wide = 0; wide < 2; ++wide) {
    if (Status s = d_out->zero(); !s) return s;
    Trace trace;
    Status launched = exec.launch(kernels().pipeline, req.config, trace, d_in->get(), d_out->get(),
                                  int(tiles), wide);
    const size_t issues = count_events(trace, EventKind::CopyIssue);
    const size_t waits = count_events(trace, EventKind::CopyWait);
    if (wide == 0)
      out.results.emplace_back("thread 0's copy calls, in order", copy_calls_of_thread0(trace));
    out.launches.push_back(std::move(trace));
    if (!launched) return launched;
    auto got = d_out->download();
    if (!got) return got.status();
    const size_t good = matching(*got, expect), all = blocks * threads;
    const std::string name = wide ? "pipeline, 16-byte pieces" : "pipeline, 4-byte pieces";
    out.checks.push_back(make_check(
        name + ": every thread's sum over " + std::to_string(tiles) + " tiles equals the CPU's",
        count_of(all, all) + " threads", count_of(good, all) + " threads", good == all));
    out.checks.push_back(
        make_check(name + ": one copy issued and one wait per tile and thread",
                   std::to_string(all * tiles) + " and " + std::to_string(all * tiles),
                   std::to_string(issues) + " and " + std::to_string(waits),
                   issues == all * tiles && waits == all * tiles));
  }
  out.results.emplace_back("copy pieces per thread per tile",
                           std::to_string(kPerThread) + " of 4 bytes, or 1 of 16 bytes");
  return {};
}

// GPU only: the two piece sizes over many tiles, untraced and timed.
Status time_pipelines(Executor& exec, const RunRequest& req, LessonRun& out) {
  const DeviceProps& d = exec.device();
  LaunchConfig big = req.config;
  big.block.x = uint32_t(kMaxBlock);
  big.grid.x = uint32_t(std::max(1, d.sm_count) * 4);
  const size_t tiles = size_t(req.params.at("timing_tiles")), threads = big.block.x;
  const size_t n = threads * kPerThread, blocks = big.grid.x;
  std::vector<float> in(blocks * tiles * n);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i * 7 % 10);  // quick to make, exact sums
  const std::vector<float> expect = cpu_pipeline(in, blocks, threads, tiles);
  auto d_in = upload_array(exec, in, "in");
  auto d_out = zero_array<float>(exec, blocks * threads, "out");
  if (Status s = first_error({d_in.status(), d_out.status()}); !s) return s;
  double ms[2] = {0, 0};
  for (int wide = 0; wide < 2; ++wide) {
    if (Status s = d_out->zero(); !s) return s;
    auto best =
        best_untraced_ms(exec, kernels().pipeline, big, 5, static_cast<const float*>(d_in->get()),
                         d_out->get(), int(tiles), wide);
    if (!best) return best.status();
    ms[wide] = *best;
    auto got = d_out->download();
    if (!got) return got.status();
    const size_t good = matching(*got, expect);
    out.checks.push_back(make_check(std::string("timed pipeline, ") + (wide ? "16" : "4") +
                                        "-byte pieces: sums equal the CPU's",
                                    count_of(expect.size(), expect.size()) + " threads",
                                    count_of(good, expect.size()) + " threads",
                                    good == expect.size()));
  }
  const double gb = double(in.size() * sizeof(float)) / 1e9;
  for (int wide = 0; wide < 2; ++wide)
    out.results.emplace_back(
        std::string("time, ") + (wide ? "16" : "4") + "-byte pieces",
        format_float(ms[wide], 4) + " ms (" + format_float(gb / (ms[wide] * 1e-3), 4) + " GB/s)");
  out.results.emplace_back("speed-up of 16-byte pieces", format_float(ms[0] / ms[1], 3) + "x");
  out.results.emplace_back("timed launches", std::to_string(blocks) + " blocks x " +
                                                 std::to_string(threads) + " threads, " +
                                                 std::to_string(tiles) + " tiles each, " +
                                                 format_float(gb, 3) + " GB read, on " + d.name);
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  if (Status s = run_two_copies(exec, req, out); !s) return s;
  if (Status s = run_pipelines(exec, req, out); !s) return s;
  if (exec.backend() == Backend::Gpu) {
    if (Status s = time_pipelines(exec, req, out); !s) return s;
  } else {
    out.checks.push_back(measured_on_gpu_only("4-byte against 16-byte copy pieces timed"));
  }
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "async-data-movement";
  l.order = 110;
  l.title = "Asynchronous data movement: memcpy_async and wait";
  l.level = Level::Advanced;
  l.concepts = {
      "memcpy_async",         "wait",      "wait_prior", "shared memory", "double buffering",
      "copy/compute overlap", "alignment", "cp.async"};
  l.params = {
      {"tiles", 4, 1, 64, "tiles each block streams through its two buffers"},
      {"data", 1, 0, 1 << 30, "seed of the input values"},
      {"timing_tiles", 128, 1, 1024, "GPU timing only: tiles per block in the timed launches"},
  };
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {64, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::async_data_movement
