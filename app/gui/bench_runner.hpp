// Runs the reduction benchmark on the GPU off the UI thread, with progress the UI polls each
// frame and a cancel the library's progress callback honours between measurements.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/bench/reduce/bench.hpp"

namespace coop::app {

namespace rp = lessons::reduction_performance;

class BenchRunner {
 public:
  BenchRunner() = default;
  ~BenchRunner();  // cancels a run in progress and waits for it to stop
  BenchRunner(const BenchRunner&) = delete;
  BenchRunner& operator=(const BenchRunner&) = delete;

  // Starts `options` on GPU 0 in the background; false while a run is in progress.
  bool start(const rp::ReduceBenchOptions& options);
  // Asks the run to stop at its next measurement boundary.
  void cancel() { cancel_ = true; }
  bool running() const { return running_; }
  bool cancelling() const { return running_ && cancel_; }
  // How far the run is (fraction 0..1) and what it measures now.
  rp::BenchProgress progress() const;
  // The finished run's report, or why there is none (cancelled, no GPU, a GPU error), once.
  std::optional<Result<rp::ReduceBenchReport>> take();

 private:
  mutable std::mutex mutex_;
  rp::BenchProgress progress_;
  std::optional<Result<rp::ReduceBenchReport>> done_;
  std::atomic<bool> running_{false}, cancel_{false};
  std::thread worker_;
};

}  // namespace coop::app
