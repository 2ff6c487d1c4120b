#include "app/gui/bench_runner.hpp"

#include "app/backend.hpp"

namespace coop::app {

BenchRunner::~BenchRunner() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
}

bool BenchRunner::start(const rp::ReduceBenchOptions& options) {
  if (running_) return false;
  if (worker_.joinable()) worker_.join();  // the previous run has finished
  cancel_ = false;
  running_ = true;
  {
    std::lock_guard lock(mutex_);
    progress_ = {0, "starting"};
    done_.reset();
  }
  worker_ = std::thread([this, options] {
    Result<rp::ReduceBenchReport> report = Status::error("not run");
    // Timings only mean something on a GPU: never fall back to the emulator here.
    if (Result<BackendChoice> gpu = choose_backend(BackendRequest::Gpu); !gpu) {
      report = gpu.status();
    } else {
      report = rp::run_reduce_bench(*gpu->exec, options, [this](const rp::BenchProgress& p) {
        std::lock_guard lock(mutex_);
        progress_ = p;
        return !cancel_;
      });
    }
    std::lock_guard lock(mutex_);
    done_ = std::move(report);
    running_ = false;
  });
  return true;
}

rp::BenchProgress BenchRunner::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

std::optional<Result<rp::ReduceBenchReport>> BenchRunner::take() {
  std::lock_guard lock(mutex_);
  std::optional<Result<rp::ReduceBenchReport>> out = std::move(done_);
  done_.reset();
  return out;
}

}  // namespace coop::app
