#include "app/gui/lesson_runner.hpp"

#include <chrono>

namespace coop::app {

namespace {

// The executor for `which`, made once per request.
Result<BackendChoice>& executor_for(BackendRequest which,
                                    std::map<BackendRequest, Result<BackendChoice>>& executors) {
  auto it = executors.find(which);
  if (it == executors.end()) it = executors.emplace(which, choose_backend(which)).first;
  return it->second;
}

// Runs `job` on the executor for `which`, filling `out`.
void run_on(const RunJob& job, BackendRequest which,
            std::map<BackendRequest, Result<BackendChoice>>& executors, RunOutcome& out) {
  Result<BackendChoice>& made = executor_for(which, executors);
  if (!made) {
    out.run.status = made.status();
    return;
  }
  if (!job.lesson) return;
  BackendChoice& choice = *made;
  out.backend = choice.exec->backend();
  out.device = choice.exec->device().name + " (" + choice.exec->device().arch_string() + ")";
  out.banner = choice.banner;
  choice.exec->options().trace_capacity = job.trace_capacity;
  choice.exec->options().record_memory = job.record_memory;
  out.run = lessons::run_lesson(*job.lesson, *choice.exec, job.request);
}

}  // namespace

RunOutcome run_job(const RunJob& job, std::map<BackendRequest, Result<BackendChoice>>& executors) {
  const auto start = std::chrono::steady_clock::now();
  RunOutcome out;
  out.generation = job.generation;
  out.lesson_id = job.lesson ? job.lesson->id : "";
  if (!job.lesson) {
    run_on(job, job.backend, executors, out);
  } else {
    // What only the emulator can show is shown from the emulator, and the banner says so: every
    // load and store (the Memory tab, the race finder), and the variants that break CUDA's rules
    // on purpose, which a GPU would hang on or run into undefined behaviour.
    std::string why;
    Result<BackendChoice>& asked = executor_for(job.backend, executors);
    if (asked && asked->exec->backend() == Backend::Gpu &&
        (job.record_memory || job.lesson->records_memory))
      why = "it records every load and store, which only the emulator does";
    if (why.empty()) run_on(job, job.backend, executors, out);
    if (why.empty() && out.backend == Backend::Gpu &&
        explain_gpu_problem(job.backend, out.backend, out.run.status).kind ==
            GpuProblem::EmulatorOnly)
      why = "this variant breaks CUDA's rules on purpose, and only the emulator runs it safely";
    if (!why.empty()) {
      out = RunOutcome{.generation = job.generation, .lesson_id = job.lesson->id};
      run_on(job, BackendRequest::Emu, executors, out);
      out.banner = "Shown from the CPU emulator, not the GPU: " + why + ".";
    }
    // The timeline models sort a million events; build them here, not on the UI thread.
    for (Trace& t : out.run.launches)
      out.models.push_back(std::make_shared<const visual::TimelineModel>(std::move(t)));
    out.run.launches.clear();
  }
  out.problem = explain_gpu_problem(job.backend, out.backend, out.run.status);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

LessonRunner::LessonRunner() : worker_([this] { work(); }) {}

LessonRunner::~LessonRunner() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    pending_.reset();
  }
  wake_.notify_all();
  worker_.join();
}

void LessonRunner::submit(RunJob job) {
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(job);
  }
  wake_.notify_all();
}

std::optional<RunOutcome> LessonRunner::poll() {
  std::lock_guard lock(mutex_);
  std::optional<RunOutcome> out = std::move(done_);
  done_.reset();
  return out;
}

bool LessonRunner::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || pending_.has_value();
}

void LessonRunner::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stop_ || pending_.has_value(); });
    if (stop_) return;
    RunJob job = std::move(*pending_);
    pending_.reset();
    running_ = true;
    lock.unlock();
    RunOutcome outcome = run_job(job, executors_);
    lock.lock();
    running_ = false;
    // Newer outcomes replace older ones the UI has not picked up yet.
    if (!done_ || done_->generation < outcome.generation) done_ = std::move(outcome);
  }
}

}  // namespace coop::app
