// Checks a student's file against an exercise off the UI thread (app/exercise's check_exercise,
// which builds and runs a program for seconds), with progress the UI polls each frame, and counts
// the check in the progress file there too, so that no frame waits on a compiler or a disk.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/exercise/exercise.hpp"
#include "app/exercise/progress.hpp"

namespace coop::app {

class ExerciseCheckRunner {
 public:
  ExerciseCheckRunner() = default;
  ~ExerciseCheckRunner();  // waits for a check in progress (it cannot be interrupted)
  ExerciseCheckRunner(const ExerciseCheckRunner&) = delete;
  ExerciseCheckRunner& operator=(const ExerciseCheckRunner&) = delete;

  // What a finished check gives: the report (or why the check could not run) and the progress
  // entry after counting it (or why it could not be counted; "" path: nowhere to count it).
  struct Done {
    Result<CheckReport> report = Status::error("not run");
    Result<ExerciseProgress> recorded = Status::error("not recorded");
  };

  // Starts checking `file` against `exercise` in the background, counting it in the progress
  // file `progress_path` ("": counted nowhere); false while a check is in progress.
  bool start(const Exercise& exercise, const std::string& file, const std::string& progress_path);
  bool running() const { return running_; }
  // How far the check is (0..1) and what it is doing, from check_exercise's progress callback.
  std::pair<double, std::string> progress() const;
  // The finished check, once.
  std::optional<Done> take();
  // Blocks until no check is in progress (scripts, tests); false on timeout.
  bool wait(double timeout_seconds) const;

 private:
  mutable std::mutex mutex_;
  double fraction_ = 0;
  std::string stage_;
  std::optional<Done> done_;
  std::atomic<bool> running_{false};
  std::thread worker_;
};

}  // namespace coop::app
