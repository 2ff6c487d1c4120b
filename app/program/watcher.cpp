#include "app/program/watcher.hpp"

#include <filesystem>

namespace coop::app {
namespace fs = std::filesystem;

ProgramWatcher::ProgramWatcher(ProgramOptions options, double check_every_seconds)
    : options_(std::move(options)),
      wanted_overrides_(options_.launch_overrides),
      wanted_record_memory_(options_.record_memory),
      gpu_arch_(options_.gpu_arch),
      device_(program_device(options_)),
      every_(check_every_seconds),
      seen_(fingerprint()) {}

void ProgramWatcher::set_launch_overrides(std::vector<LaunchOverride> overrides) {
  wanted_overrides_ = std::move(overrides);
  rerun_wanted_ = true;
}

void ProgramWatcher::set_record_memory(bool on) {
  wanted_record_memory_ = on;
  rerun_wanted_ = true;
}

ProgramWatcher::~ProgramWatcher() {
  if (worker_.joinable()) worker_.join();
}

uint64_t ProgramWatcher::fingerprint() const {
  std::error_code ec;
  const fs::path source = fs::absolute(options_.file, ec);
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const fs::path& p) {
    const auto t = fs::last_write_time(p, ec);
    if (ec) return;
    h = (h ^ uint64_t(t.time_since_epoch().count())) * 1099511628211ull;
    h = (h ^ std::hash<std::string>{}(p.string())) * 1099511628211ull;
  };
  mix(source);
  for (const auto& entry : fs::directory_iterator(source.parent_path(), ec)) {
    if (is_header_path(entry.path().string())) mix(entry.path());
  }
  return h;
}

std::optional<ProgramWatcher::Outcome> ProgramWatcher::poll(double now) {
  if (finished_) {
    worker_.join();
    finished_ = false;
    busy_ = false;
    return std::move(result_);
  }
  if (busy_) return std::nullopt;
  if (!rerun_wanted_) {
    if (now < next_check_) return std::nullopt;
    next_check_ = now + every_;
  }
  const uint64_t f = fingerprint();
  if (f == seen_ && !rerun_wanted_) return std::nullopt;
  const bool saved = f != seen_;
  seen_ = f;
  rerun_wanted_ = false;
  options_.launch_overrides = wanted_overrides_;
  options_.record_memory = wanted_record_memory_;
  options_.gpu_arch = wanted_record_memory_ ? "" : gpu_arch_;
  busy_ = true;
  worker_ = std::thread([this, saved] {
    Outcome o;
    o.saved = saved;
    std::error_code gone;
    fs::remove(options_.trace_out, gone);  // a rerun that launches nothing leaves no old trace
    Result<ProgramBuild> build = build_program(options_);
    options_.output = &o.output;
    if (!build) {
      o.compiled = false;
      o.message = build.status().message();
    } else if (Result<ProgramRun> run = run_program(options_, *build); !run) {
      o.message = run.status().message();
    } else {
      std::error_code ec;
      o.ok = fs::exists(options_.trace_out, ec);
      o.trace = options_.trace_out;
      o.message = !run->what.empty() ? run->what
                  : !o.ok            ? "it made no kernel launch"
                                     : "exit status " + std::to_string(run->exit_code);
    }
    options_.output = nullptr;  // `o` is this run's
    result_ = std::move(o);
    finished_ = true;
  });
  return std::nullopt;
}

}  // namespace coop::app
