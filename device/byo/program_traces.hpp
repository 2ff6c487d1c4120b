// The launches a user's program made, kept until it ends and then written to the trace file
// coopviz named (COOPVIZ_TRACE_OUT), each with its kernel's source (COOPVIZ_SOURCE, or for a
// program of several files the kernel's own file, COOPVIZ_KERNEL_SOURCES). Shared by
// the emulator's runtime (runtime.cpp) and the GPU's launch recorder (gpu_runtime.cpp).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <string>
#include <vector>

#include "device/launch/executor.hpp"
#include "device/launch/launch_override.hpp"
#include "device/trace/race_detector.hpp"

namespace coop::byo {

// A trace's last launch counts the launches too large to trace (more threads than a trace holds,
// kMaxTracedThreads), which ran untraced, in these parameters: how many, and which
// ("kernel <<<grid, block>>> xN, ...").
inline constexpr const char* kTooLargeCount = "launches too large to trace";
inline constexpr const char* kTooLargeKinds = "too large to trace";
// Likewise the launches of a library's kernels (Thrust's and CUB's, which their headers launch
// themselves, untraced): how many, and which ("cub::DeviceReduceKernel <<<grid, block>>> xN, ...").
inline constexpr const char* kLibraryCount = "library launches";
inline constexpr const char* kLibraryKinds = "library kernels";
// And on the GPU, the launches the program's kernels made themselves (CUDA Dynamic Parallelism),
// which ran untraced: how many, and what they were.
inline constexpr const char* kDeviceLaunchCount = "device-side launches";
inline constexpr const char* kDeviceLaunchKinds = "device-side launch kinds";

class ProgramTraces {
 public:
  // Options from the environment coopviz sets: capacity, seed, launch overrides, and for the
  // emulator the device.
  explicit ProgramTraces(std::unique_ptr<Executor> exec);
  ~ProgramTraces();
  ProgramTraces(const ProgramTraces&) = delete;
  ProgramTraces& operator=(const ProgramTraces&) = delete;
  Executor& exec() { return *exec_; }
  // The program file's name, for messages ("deadlock.cu").
  const std::string& file_name() const { return file_name_; }
  // Runs one launch and keeps its trace (a failed one too, if it recorded anything); a failure is
  // also said on stderr with the kernel's name, since a program often does not check. A launch
  // override for the kernel replaces its grid and block; the trace keeps what the program asked.
  // Which launches are traced: COOPVIZ_TRACE_LAUNCHES (all, first or N: the first N of each
  // kernel (by address), grid, block and dynamic shared memory; default first); the others run
  // untraced (Executor::launch_untraced, on `stream`) and are counted in the header of the last
  // traced launch of their kind. So are launches of a kind already traced once the traces kept
  // reach COOPVIZ_TRACE_MEMORY bytes. `before_traced` (if given) runs before a traced launch only;
  // a false from it fails the launch. `unhooked` (if not empty) is the launch's thread on the
  // kernel's copy without the memory hooks (unhooked_copy.hpp): an untraced launch that records
  // and checks no access runs it instead.
  Status launch(const ErasedLaunch& launch, const LaunchConfig& config, void* stream = nullptr,
                bool (*before_traced)() = nullptr, const std::function<void()>& unhooked = {});
  // Parameters the next launch's trace gets if it is traced (a kernel's launch names the launch
  // and thread that made it, device_launches.hpp; the compiler's report its registers), added to
  // those given before it; forgotten after that launch either way.
  void label_next_launch(std::map<std::string, std::string> params) {
    for (auto& [key, value] : params) next_params_[key] = std::move(value);
  }
  // A launch the program made of a kernel not its own (Thrust's or CUB's, from their headers),
  // which ran untraced: counted for the trace by `shape` ("kernel <<<grid, block>>>"). Any thread.
  void count_library_launch(const std::string& shape);
  // Where to read how many launches the program's kernels made themselves, untraced (the GPU's,
  // gpu_runtime.cuh): read when the trace is written.
  void count_device_launches(std::function<uint64_t()> count) { device_launches_ = std::move(count); }
  // The traced launches made so far: the trace file's launches, once saved.
  size_t launch_count() const { return launched_; }
  // Seconds spent so far in untraced launches that a kernel's unhooked copy could run.
  double untraced_seconds() const { return untraced_seconds_; }
  // The data races of launch `index` (COOPVIZ_RACES=1 has each launch's recorded loads and stores
  // checked as it ends), as `coopviz run --races --json` lists them, with lines named in `file`
  // when it is not empty; "[]" for a launch not checked.
  std::string races_of(size_t index, const std::string& file) const;
  // Names an allocation for the trace (d_in[5] rather than an address); unnamed ones are
  // "allocation 1", "allocation 2", ...
  void name_allocation(void* base, size_t bytes, const char* name, ValueType type,
                       uint32_t element_size);
  // Writes every launch so far. Also called after launches (after each one unless writing takes
  // a noticeable share of the run), so a program that later crashes or is stopped still leaves
  // the launches it finished.
  void save();
  // Writes the trace and lets the executor go (its streams and buffers), before a program's
  // cudaDeviceReset() destroys them under it.
  void finish() {
    save();
    exec_.reset();
  }

 private:
  // Whether this launch of its kind is traced; counts it.
  bool traces_next(const std::string& kind);
  // A launch of more threads than a trace holds runs untraced: said once, and counted.
  void count_too_large(const std::string& kind, const ErasedLaunch& launch,
                       const LaunchConfig& run);
  // The event slots a traced launch may fill within the memory limit.
  uint64_t capacity_within_limit() const;
  // After a traced launch given `capacity` of the `asked` slots: once the limit is reached, says
  // so (on stderr and in the launch's parameters) and sends later repeats untraced.
  void check_memory_limit(Trace& trace, uint64_t capacity, uint64_t asked);

  std::unique_ptr<Executor> exec_;
  uint64_t trace_each_ = 1;    // launches of each kind traced; 0: all
  bool vary_repeats_ = false;  // COOPVIZ_VARY_REPEATS: repeats seeded even at seed 0
  uint64_t memory_limit_ = 0;  // bytes of traces kept in memory; 0: none
  uint64_t max_traced_threads_ = kMaxTracedThreads;  // COOPVIZ_TRACE_THREADS
  uint64_t kept_bytes_ = 0;
  bool limit_reached_ = false;
  struct Kind {
    uint64_t launched = 0;
    size_t traced_at = SIZE_MAX;  // its last traced launch (an index into the trace's launches)
    uint64_t untraced = 0;        // launched since then untraced
    uint64_t too_large = 0;       // launched untraced since too large to trace
    std::string shape;            // "kernel <<<grid, block>>>", for those
  };
  std::map<std::string, Kind> kinds_;  // by kernel, address, grid, block, dynamic shared memory
  bool counts_changed_ = false;        // untraced counts not yet written
  std::mutex library_mutex_;           // library launches come from any of the program's threads
  std::map<std::string, uint64_t> library_;  // by shape
  bool library_changed_ = false;
  std::vector<Trace> launches_;  // kept only when there is a trace file to write them to
  size_t launched_ = 0;
  double untraced_seconds_ = 0;
  bool find_races_ = false;
  struct LaunchRaces {
    std::vector<Race> races;
    TraceHeader header;  // what names their places and threads
  };
  std::vector<LaunchRaces> races_;  // one per launch when find_races_
  std::vector<LaunchOverride> overrides_;
  std::map<std::string, std::string> next_params_;
  std::function<uint64_t()> device_launches_;
  uint64_t device_launches_saved_ = 0;
  std::string trace_out_, source_path_, source_text_, file_name_;
  // A program of several files: each kernel's own file (COOPVIZ_KERNEL_SOURCES), by its
  // unqualified name, as its file name and text; a kernel not named here is the program file's.
  struct SourceFile {
    std::string name, text;
  };
  std::map<std::string, SourceFile> kernel_sources_;
  int unnamed_ = 0;
  size_t saved_ = 0;  // launches written so far
  std::chrono::steady_clock::time_point last_save_{};
  double save_seconds_ = 0;  // how long the last write took
};

// Whether a launch was refused for a cooperative grid larger than the device holds at once (the
// launch checks' words, or CUDA's for an untraced launch): both backends' runtimes answer it with
// cudaErrorCooperativeLaunchTooLarge, as CUDA's own runtime does, not with a launch failure.
bool cooperative_grid_too_large(const Status& refused);

}  // namespace coop::byo
