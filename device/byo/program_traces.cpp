#include "device/byo/program_traces.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <cuda_runtime_api.h>

#include "device/trace/trace_file.hpp"

namespace coop::byo {

using Clock = std::chrono::steady_clock;

namespace {

// The race detector's work grows with the events it reads (a few microseconds each, more with
// many threads), so a launch is checked over its first this many events: far more than a
// teaching program's launch records, while a quadratic one's tens of millions are not all read.
constexpr size_t kRaceEvents = size_t(1) << 20;

std::vector<Race> races_early_in(const Trace& trace) {
  if (trace.events.size() <= kRaceEvents) return find_races(trace);
  Trace early;
  early.header = trace.header;
  early.events.assign(trace.events.begin(), trace.events.begin() + long(kRaceEvents));
  return find_races(early);
}

}  // namespace

ProgramTraces::ProgramTraces(std::unique_ptr<Executor> exec) : exec_(std::move(exec)) {
  if (const char* cap = std::getenv("COOPVIZ_TRACE_CAPACITY"))
    exec_->options().trace_capacity = std::strtoull(cap, nullptr, 10);
  if (const char* name = std::getenv("COOPVIZ_SCHEDULE")) {
    // coopviz checked it before it started the program: a bad one here is not the user's.
    Result<Schedule> schedule = parse_schedule(name, "COOPVIZ_SCHEDULE");
    if (!schedule) {
      std::fprintf(stderr, "coopviz: %s\n", schedule.message().c_str());
      std::exit(2);
    }
    exec_->options().schedule = *schedule;
  }
  if (const char* seed = std::getenv("COOPVIZ_SEED"))
    exec_->options().seed = std::strtoull(seed, nullptr, 10);
  if (const char* out = std::getenv("COOPVIZ_TRACE_OUT")) trace_out_ = out;
  if (const char* traced = std::getenv("COOPVIZ_TRACED"))
    exec_->options().trace = std::string(traced) != "0";
  if (const char* memory = std::getenv("COOPVIZ_RECORD_MEMORY"))
    exec_->options().record_memory = std::string(memory) == "1";
  if (const char* races = std::getenv("COOPVIZ_RACES")) find_races_ = std::string(races) == "1";
  if (const char* vary = std::getenv("COOPVIZ_VARY_REPEATS")) vary_repeats_ = std::string(vary) == "1";
  // coopviz checked both (all, first or a count; bytes).
  if (const char* which = std::getenv("COOPVIZ_TRACE_LAUNCHES"))
    trace_each_ = std::string(which) == "all"     ? 0
                  : std::string(which) == "first" ? 1
                                                  : std::max<uint64_t>(1, std::strtoull(which, nullptr, 10));
  // Launches of more threads than this run untraced (a lesson's timed launches); at most the
  // threads a trace can hold.
  if (const char* most = std::getenv("COOPVIZ_TRACE_THREADS"))
    max_traced_threads_ =
        std::clamp<uint64_t>(std::strtoull(most, nullptr, 10), 1, kMaxTracedThreads);
  if (const char* bytes = std::getenv("COOPVIZ_TRACE_MEMORY"))
    memory_limit_ = std::strtoull(bytes, nullptr, 10);
  // A caller that bounds the program's time itself (an exercise check, in CPU time) moves the
  // emulator's wall-clock bound on a launch out of its way.
  if (const char* limit = std::getenv("COOPVIZ_LAUNCH_TIMEOUT"))
    exec_->options().timeout_seconds = std::strtod(limit, nullptr);
  if (const char* list = std::getenv("COOPVIZ_LAUNCH_OVERRIDES")) {
    // coopviz checked them before it started the program: a bad one here is not the user's.
    Result<std::vector<LaunchOverride>> o = parse_launch_overrides(list);
    if (!o) {
      std::fprintf(stderr, "coopviz: %s\n", o.message().c_str());
      std::exit(2);
    }
    overrides_ = std::move(*o);
  }
  if (const char* src = std::getenv("COOPVIZ_SOURCE")) {
    source_path_ = src;
    std::ifstream in(source_path_, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    source_text_ = text.str();
  }
  const size_t slash = source_path_.find_last_of('/');
  file_name_ = slash == std::string::npos ? source_path_ : source_path_.substr(slash + 1);
  // "kernel<TAB>path" lines: each file read once.
  if (const char* list = std::getenv("COOPVIZ_KERNEL_SOURCES")) {
    std::map<std::string, SourceFile> files;
    std::istringstream lines(list);
    for (std::string line; std::getline(lines, line);) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) continue;
      const std::string path = line.substr(tab + 1);
      auto [file, fresh] = files.try_emplace(path);
      if (fresh) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        file->second = {path.substr(path.find_last_of('/') + 1), text.str()};
      }
      kernel_sources_.try_emplace(line.substr(0, tab), file->second);
    }
  }
}

namespace {

// "ns::scale<float, 4>" -> "scale": as defined_kernels (device/lowering) names a definition.
std::string unqualified_kernel(std::string name) {
  name = name.substr(0, name.find('<'));
  const size_t colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

}  // namespace

bool ProgramTraces::traces_next(const std::string& kind) {
  Kind& k = kinds_[kind];
  const bool repeat = trace_each_ != 0 && k.launched >= trace_each_;
  ++k.launched;
  if (k.traced_at == SIZE_MAX) return true;  // every kind is traced once, to be named
  if (!repeat && !(limit_reached_ && memory_limit_)) return true;
  ++k.untraced;
  counts_changed_ = true;
  return false;
}

void ProgramTraces::count_too_large(const std::string& kind, const ErasedLaunch& launch,
                                    const LaunchConfig& run) {
  Kind& k = kinds_[kind];
  ++k.launched;
  ++k.too_large;
  k.shape = std::string(launch.name) + " <<<" + run.grid.str() + ", " + run.block.str() + ">>>";
  counts_changed_ = true;
  static bool said = false;
  if (said) return;
  said = true;
  std::fprintf(stderr,
               "coopviz: %s: kernel %s <<<%s, %s>>> has %llu threads, more than the %llu a traced "
               "launch may have%s: it runs untraced, as will every launch that large (counted "
               "when the program ends)\n",
               file_name_.c_str(), launch.name, run.grid.str().c_str(), run.block.str().c_str(),
               (unsigned long long)run.total_threads(), (unsigned long long)max_traced_threads_,
               max_traced_threads_ < kMaxTracedThreads ? " here" : "");
}

uint64_t ProgramTraces::capacity_within_limit() const {
  const uint64_t asked = exec_->options().trace_capacity;
  if (memory_limit_ == 0) return asked;
  const uint64_t left = kept_bytes_ < memory_limit_ ? memory_limit_ - kept_bytes_ : 0;
  return std::min<uint64_t>(asked, left / sizeof(Event));
}

void ProgramTraces::check_memory_limit(Trace& trace, uint64_t capacity, uint64_t asked) {
  // Reached once a launch lost events to the limit (not to its own capacity) or none fit.
  const bool cut = capacity < asked && trace.dropped() > 0;
  if (limit_reached_ || !(cut || kept_bytes_ >= memory_limit_) || memory_limit_ == 0) return;
  limit_reached_ = true;
  trace.header.params["trace memory limit"] =
      std::to_string(memory_limit_ >> 20) +
      " MiB reached: this launch kept what fit; later launches of kernels already traced ran "
      "untraced";
  std::fprintf(stderr,
               "coopviz: %s: the traces kept in memory reached their limit of %llu MiB "
               "(--trace-memory): launch %zu of kernel %s kept what fit, and later launches of a "
               "kernel already traced run untraced (the trace counts them)\n",
               file_name_.c_str(), (unsigned long long)(memory_limit_ >> 20), launched_ + 1,
               trace.header.kernel.c_str());
}

namespace {

// Sets the executor's seed for one launch and puts the program's back when it goes.
class SeedOfRepeat {
 public:
  SeedOfRepeat(ExecOptions& options, uint64_t repeat, bool vary)
      : options_(options), kept_(options.seed) {
    if (vary || options.schedule != Schedule::Lockstep || options.seed != 0) options.seed += repeat;
  }
  ~SeedOfRepeat() { options_.seed = kept_; }
  SeedOfRepeat(const SeedOfRepeat&) = delete;
  SeedOfRepeat& operator=(const SeedOfRepeat&) = delete;

 private:
  ExecOptions& options_;
  uint64_t kept_;
};

}  // namespace

Status ProgramTraces::launch(const ErasedLaunch& launch, const LaunchConfig& config, void* stream,
                             bool (*before_traced)(), const std::function<void()>& unhooked) {
  if (!exec_) {
    std::fprintf(stderr, "coopviz: %s: kernel %s launched after cudaDeviceReset(): not traced\n",
                 file_name_.c_str(), launch.name);
    return Status::error("launched after cudaDeviceReset()");
  }
  const LaunchOverride* o = find_launch_override(overrides_, launch.name);
  const LaunchConfig run = o ? apply(*o, config) : config;
  // Kinds are the program's own shapes: an override changes every launch of the kernel alike.
  // The kernel's address tells apart kernels launched through one expression (fpDeriv[i]<<<...>>>
  // picks one at run time), which share a name: a second kernel is no repeat of the first.
  char address[24];
  std::snprintf(address, sizeof address, " %p ", launch.gpu.function);
  // A kernel's own launches are of a kind per nesting depth: a recursion shows each level once.
  const auto depth = next_params_.find("launch depth");
  const std::string kind = std::string(launch.name) + address + config.grid.str() + " " +
                           config.block.str() + " " + std::to_string(config.dynamic_smem) +
                           (depth == next_params_.end() ? "" : " depth " + depth->second);
  // Launch k of a kind (k from 0) runs under seed + k, as --seed would start it: under a seeded
  // schedule each repeat meets its own interleaving, as a GPU's repeats do, and the same ones
  // for the same seed. Lockstep with seed 0 is the one unseeded order, kept for every launch
  // unless repeats must vary (COOPVIZ_VARY_REPEATS): then only the first keeps it.
  const SeedOfRepeat seeded(exec_->options(), kinds_[kind].launched, vary_repeats_);
  Trace trace;
  Status s;
  bool recorded = false;
  const bool too_large = exec_->options().trace && run.total_threads() > max_traced_threads_;
  if (too_large) count_too_large(kind, launch, run);
  if (too_large || !traces_next(kind)) {
    const auto start = Clock::now();
    // Lockstep without initialisation checks, the hooks neither record, check nor step
    // (Executor::launch_untraced, memory_record.hpp): the copy without them does the same work.
    const ExecOptions& o = exec_->options();
    const bool hooks_idle = !o.check_initialisation && o.schedule == Schedule::Lockstep;
    ErasedLaunch copy;
    if (unhooked && hooks_idle) {
      copy = launch;
      copy.emu_body = unhooked;
    }
    s = exec_->launch_untraced(copy.emu_body ? copy : launch, run, stream);
    if (hooks_idle)
      untraced_seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
  } else if (before_traced && !before_traced()) {
    s = Status::error("the device failed before the launch");
  } else {
    const uint64_t asked = exec_->options().trace_capacity;
    const uint64_t within = capacity_within_limit();
    exec_->options().trace_capacity = within;
    s = exec_->launch_call(launch, run, trace);
    exec_->options().trace_capacity = asked;
    recorded = s.ok() || !trace.events.empty();
    if (recorded) {
      kept_bytes_ += trace.events.size() * sizeof(Event) + source_text_.size();
      check_memory_limit(trace, within, asked);
    }
    for (auto& [key, value] : next_params_) trace.header.params[key] = std::move(value);
    if (o) {
      // Shown beside the launch (the Launch panel lists these), so nobody mistakes the
      // overridden shape for the program's own.
      trace.header.params["launch override"] = to_string(*o);
      trace.header.params["program's grid"] = config.grid.str();
      trace.header.params["program's block"] = config.block.str();
    }
  }
  next_params_.clear();
  if (recorded) {
    kinds_[kind].traced_at = launched_++;
    kinds_[kind].untraced = 0;
  }
  // Races are found launch by launch: launches are ordered, and the events can go at once.
  if (recorded && find_races_) races_.push_back({races_early_in(trace), trace.header});
  // Kept only to be written: without a trace file the events can go.
  if (recorded && !trace_out_.empty()) {
    // Kept until written: its events, not the whole capacity reserved for them, whose block goes
    // back for the next launch to reuse. Else each kept launch, however small, would hold at
    // least the 2 MiB page its first event landed in (a chain of 2048 device-side launches: 4 GiB).
    if (trace.events.size() < trace.events.capacity() / 2) trace.events.shrink_to_fit();
    launches_.push_back(std::move(trace));
    // The file is rewritten whole, so a program of many launches would spend most of its time
    // saving: after the first launch, it is written again only once the time since the last
    // write is four times what that write took (at most a fifth of the run), and at the end.
    const double since = std::chrono::duration<double>(Clock::now() - last_save_).count();
    if (saved_ == 0 || since >= 4 * save_seconds_) save();
  }
  if (!s.ok())
    std::fprintf(stderr, "coopviz: %s: kernel %s%s: %s\n", file_name_.c_str(), launch.name,
                 o ? (" (with --launch " + to_string(*o) + ")").c_str() : "", s.message().c_str());
  return s;
}

std::string ProgramTraces::races_of(size_t index, const std::string& file) const {
  if (index >= races_.size()) return "[]";
  return races_json(races_[index].races, races_[index].header, file).dump();
}

void ProgramTraces::name_allocation(void* base, size_t bytes, const char* name, ValueType type,
                                    uint32_t element_size) {
  if (!exec_) return;
  BufferInfo info;
  info.name = name && *name ? name : "allocation " + std::to_string(++unnamed_);
  info.base = reinterpret_cast<uint64_t>(base);
  info.bytes = bytes;
  info.type = type;
  info.element_size = element_size ? element_size : 1;
  exec_->name_buffer(info);
}

ProgramTraces::~ProgramTraces() {
  save();
  // With no launch of its own to carry them into the trace, a library's launches are said here.
  std::lock_guard<std::mutex> lock(library_mutex_);
  if (!launches_.empty() || library_.empty()) return;
  uint64_t total = 0;
  for (const auto& [_, n] : library_) total += n;
  std::fprintf(stderr, "coopviz: %s: %llu %s Thrust's or CUB's own kernels, untraced\n",
               file_name_.c_str(), (unsigned long long)total,
               total == 1 ? "launch was" : "launches were");
}

void ProgramTraces::count_library_launch(const std::string& shape) {
  std::lock_guard<std::mutex> lock(library_mutex_);
  ++library_[shape];
  library_changed_ = true;
}

namespace {

// The counts of `kinds` on the last launch, under `count_key` and `kinds_key`, and on no other.
void put_counts_on_last(std::vector<Trace>& launches, const std::map<std::string, uint64_t>& kinds,
                        const char* count_key, const char* kinds_key) {
  uint64_t total = 0;
  std::string which;
  for (Trace& t : launches) {
    t.header.params.erase(count_key);
    t.header.params.erase(kinds_key);
  }
  for (const auto& [shape, n] : kinds) {
    total += n;
    which += (which.empty() ? "" : ", ") + shape + " x" + std::to_string(n);
  }
  if (total == 0 || launches.empty()) return;
  launches.back().header.params[count_key] = std::to_string(total);
  launches.back().header.params[kinds_key] = which;
}

}  // namespace

void ProgramTraces::save() {
  std::map<std::string, uint64_t> library;
  {
    std::lock_guard<std::mutex> lock(library_mutex_);
    // With no launch of the program's own to carry them, a library's launches write no trace
    // file (they are said when the program ends).
    if (!launches_.empty()) {
      counts_changed_ = counts_changed_ || library_changed_;
      library_changed_ = false;
    }
    library = library_;
  }
  // Read now: the device may still be adding to it.
  const uint64_t device_launches = device_launches_ ? device_launches_() : 0;
  if (device_launches != device_launches_saved_ && !launches_.empty()) counts_changed_ = true;
  if (trace_out_.empty() || (launches_.size() == saved_ && !counts_changed_)) return;
  for (size_t i = saved_; i < launches_.size(); ++i) {
    TraceHeader& h = launches_[i].header;
    const auto own = kernel_sources_.find(unqualified_kernel(h.kernel));
    h.source_file = own == kernel_sources_.end() ? file_name_ : own->second.name;
    h.source = own == kernel_sources_.end() ? source_text_ : own->second.text;
  }
  // Launches too large to trace, and a library's, have no traced launch of their own: the last
  // one says them.
  std::map<std::string, uint64_t> too_large;
  for (const auto& [_, k] : kinds_) {
    if (k.traced_at < launches_.size()) launches_[k.traced_at].header.untraced = k.untraced;
    if (k.too_large) too_large[k.shape] += k.too_large;
  }
  put_counts_on_last(launches_, too_large, kTooLargeCount, kTooLargeKinds);
  put_counts_on_last(launches_, library, kLibraryCount, kLibraryKinds);
  std::map<std::string, uint64_t> from_kernels;
  if (device_launches) from_kernels["launched by the program's kernels"] = device_launches;
  put_counts_on_last(launches_, from_kernels, kDeviceLaunchCount, kDeviceLaunchKinds);
  device_launches_saved_ = device_launches;
  counts_changed_ = false;
  // Written whole each time, through a temporary file: a reader never sees half a trace.
  const auto start = Clock::now();
  if (Status s = save_traces(trace_out_, launches_); !s)
    std::fprintf(stderr, "coopviz: could not write the trace: %s\n", s.message().c_str());
  saved_ = launches_.size();
  last_save_ = Clock::now();
  save_seconds_ = std::chrono::duration<double>(last_save_ - start).count();
}

bool cooperative_grid_too_large(const Status& refused) {
  const std::string& m = refused.message();
  // The launch checks' words for a traced launch; CUDA's own for an untraced one, which the
  // runtime refused itself.
  return !refused.ok() &&
         ((m.find("cooperative") != std::string::npos && m.find("exceeds") != std::string::npos) ||
          m.find(cudaGetErrorString(cudaErrorCooperativeLaunchTooLarge)) != std::string::npos);
}

}  // namespace coop::byo
