#include "app/gui/exercise_runner.hpp"

#include <chrono>
#include <filesystem>

namespace coop::app {

ExerciseCheckRunner::~ExerciseCheckRunner() {
  if (worker_.joinable()) worker_.join();
}

bool ExerciseCheckRunner::start(const Exercise& exercise, const std::string& file,
                                const std::string& progress_path) {
  if (running_) return false;
  if (worker_.joinable()) worker_.join();  // the previous check has finished
  running_ = true;
  {
    std::lock_guard lock(mutex_);
    fraction_ = 0;
    stage_ = "starting";
    done_.reset();
  }
  worker_ = std::thread([this, exercise, file, progress_path] {
    Done done;
    done.report = check_exercise(exercise, file, [this](double fraction, const std::string& stage) {
      std::lock_guard lock(mutex_);
      fraction_ = fraction;
      stage_ = stage;
    });
    // A check that ran counts, passed or not; one that could not run (no file) does not.
    if (done.report.ok() && !progress_path.empty()) {
      std::error_code ec;
      const std::string absolute = std::filesystem::absolute(file, ec).string();
      done.recorded =
          record_check(progress_path, exercise.id, ec ? file : absolute, done.report->passed());
    } else if (done.report.ok()) {
      done.recorded =
          Status::error("this window keeps no progress file (a script without --progress)");
    }
    std::lock_guard lock(mutex_);
    done_ = std::move(done);
    running_ = false;
  });
  return true;
}

std::pair<double, std::string> ExerciseCheckRunner::progress() const {
  std::lock_guard lock(mutex_);
  return {fraction_, stage_};
}

std::optional<ExerciseCheckRunner::Done> ExerciseCheckRunner::take() {
  std::lock_guard lock(mutex_);
  std::optional<Done> out = std::move(done_);
  done_.reset();
  return out;
}

bool ExerciseCheckRunner::wait(double timeout_seconds) const {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (running_) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace coop::app
