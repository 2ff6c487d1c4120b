// Runs lessons off the UI thread. The UI submits a job whenever the launch configuration
// changes and polls for the outcome each frame; the newest job wins, so the window never
// blocks on a run and never shows an out-of-date one as current.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/backend.hpp"
#include "app/gui/gpu_problem.hpp"
#include "lessons/lesson.hpp"
#include "visual/timeline_model.hpp"

namespace coop::app {

struct RunJob {
  const lessons::LessonDef* lesson = nullptr;
  lessons::RunRequest request;
  BackendRequest backend = BackendRequest::Auto;
  uint64_t generation = 0;  // the UI's counter; outcomes carry it back
  // Event slots per launch (ExecOptions::trace_capacity).
  uint64_t trace_capacity = ExecOptions{}.trace_capacity;
  bool record_memory = false;  // ExecOptions::record_memory (the emulator only)
};

struct RunOutcome {
  uint64_t generation = 0;
  std::string lesson_id;
  lessons::LessonRun run;  // status, checks, results (launch traces moved into models)
  std::vector<std::shared_ptr<const visual::TimelineModel>> models;  // one per launch
  std::optional<Backend> backend;  // the one it ran on; none if none could be made
  std::string device;      // the device it ran on or imitated
  std::string banner;      // e.g. "No CUDA device: running on the CPU emulator, ..."
  GpuProblemText problem;  // why the GPU could not run it, in plain words (kind None: no such)
  double seconds = 0;      // run plus model building
};

// Runs one job to completion on the calling thread (the worker, screenshots and tests).
// `executors` caches one backend per request between calls.
RunOutcome run_job(const RunJob& job, std::map<BackendRequest, Result<BackendChoice>>& executors);

class LessonRunner {
 public:
  LessonRunner();
  ~LessonRunner();  // finishes the job in flight (runs are bounded by the emulator watchdog)
  LessonRunner(const LessonRunner&) = delete;
  LessonRunner& operator=(const LessonRunner&) = delete;

  // Queues `job`, replacing any job not yet started.
  void submit(RunJob job);
  // The newest finished outcome, once.
  std::optional<RunOutcome> poll();
  // A job is queued or running.
  bool busy() const;

 private:
  void work();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<RunJob> pending_;
  std::optional<RunOutcome> done_;
  bool running_ = false;
  bool stop_ = false;
  std::map<BackendRequest, Result<BackendChoice>> executors_;  // worker thread only
  std::thread worker_;
};

}  // namespace coop::app
