// coopviz run FILE.cu: builds the program for the GPU (nvcc) or the emulator (the host compiler),
// runs it (its output is printed as it would be natively) and keeps every kernel launch in one
// trace file.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cmd_run_program.hpp"
#include "app/cli/commands.hpp"
#include "app/program/program.hpp"
#include "app/program/program_files.hpp"
#include "device/byo/program_traces.hpp"
#include "device/occupancy/presets.hpp"
#include "device/trace/memory_access.hpp"
#include "device/trace/race_detector.hpp"
#include "device/trace/trace_file.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {

namespace {

// 4194304 -> "4,194,304".
std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n);
  for (size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return digits;
}

}  // namespace

std::string dropped_events_note(const Trace& t, size_t index) {
  if (t.dropped() == 0) return "";
  return "launch " + std::to_string(index + 1) + " (kernel " + t.header.kernel +
         "): " + grouped(t.events.size()) + " events recorded, " + grouped(t.dropped()) +
         " dropped: raise --trace-capacity";
}

void print_races(std::span<const Trace> launches, std::ostream& out) {
  size_t found = 0;
  uint64_t dropped = 0;
  for (const Trace& t : launches) {
    dropped += t.dropped();
    for (const Race& r : find_races(t)) {
      out << "  " << describe_race(r, t.header) << "\n";
      ++found;
    }
  }
  // Accesses that were dropped were never checked: no verdict of "none" over them.
  if (dropped)
    out << "  races: incomplete, " << grouped(dropped)
        << " events were dropped and not checked (raise --trace-capacity); "
        << (found ? "there may be more races" : "none found among those recorded") << "\n";
  else if (found == 0)
    out << "  races: none found in " << launches.size()
        << (launches.size() == 1 ? " launch" : " launches") << "\n";
}

// A count ProgramTraces keeps on the program's last launch (launches too large to trace, or of a
// library's kernels), and which they were.
uint64_t counted_on_last(std::span<const Trace> launches, const char* key) {
  if (launches.empty()) return 0;
  const auto& params = launches.back().header.params;
  const auto it = params.find(key);
  return it == params.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
}
uint64_t too_large_launches(std::span<const Trace> launches) {
  return counted_on_last(launches, byo::kTooLargeCount);
}

std::string untraced_note(std::span<const Trace> launches) {
  uint64_t total = 0;
  std::string kinds;
  bool limited = false;  // some ran untraced because the traces reached --trace-memory
  for (const Trace& t : launches) {
    limited = limited || t.header.params.count("trace memory limit");
    if (t.header.untraced == 0) continue;
    total += t.header.untraced;
    if (!kinds.empty()) kinds += ", ";
    kinds += t.header.kernel + " <<<" + t.header.launch.grid.str() + ", " +
             t.header.launch.block.str() + ">>>";
    // A kernel's own launches are repeats per nesting depth (device_launches.hpp).
    if (auto depth = t.header.params.find("launch depth"); depth != t.header.params.end())
      kinds += " at depth " + depth->second;
    kinds += " x" + grouped(t.header.untraced);
  }
  std::string note;
  if (total)
    note = grouped(total) + (total == 1 ? " launch" : " launches") +
           " ran untraced, at full speed (repeats of traced ones: " + kinds + "); " +
           (limited ? "the traces kept in memory had reached --trace-memory"
                    : "--trace-launches all traces them");
  if (const uint64_t large = too_large_launches(launches))
    note += (note.empty() ? "" : "; ") + grouped(large) + (large == 1 ? " launch" : " launches") +
            " ran untraced, with more threads than a traced launch may have (" +
            launches.back().header.params.at(byo::kTooLargeKinds) + ")";
  if (const uint64_t library = counted_on_last(launches, byo::kLibraryCount))
    note += (note.empty() ? "" : "; ") + grouped(library) + (library == 1 ? " launch was" : " launches were") +
            " Thrust's or CUB's own kernels, untraced (" +
            launches.back().header.params.at(byo::kLibraryKinds) + ")";
  if (const uint64_t device = counted_on_last(launches, byo::kDeviceLaunchCount))
    note += (note.empty() ? "" : "; ") + grouped(device) +
            (device == 1 ? " launch was" : " launches were") +
            " made by the program's kernels themselves (dynamic parallelism), on the GPU "
            "untraced (the emulator traces them)";
  return note;
}

int run_program_command(const RunProgramOptions& o, bool* ran) {
  if (ran) *ran = false;
  // auto: the GPU when there is one, built for its architecture.
  const std::string gpu_arch = o.backend == BackendRequest::Emu ? "" : local_gpu_arch();
  if (o.backend == BackendRequest::Gpu && gpu_arch.empty())
    return usage_error("--backend gpu: no CUDA device here (use --backend emu or auto)");
  if (o.record_memory && !gpu_arch.empty())
    return usage_error(
        "--record-memory needs the emulator (--backend emu): a GPU records only "
        "traced(...) loads and stores");
  if (o.check_memory && !gpu_arch.empty())
    return usage_error(
        "--check-memory needs the emulator (--backend emu): it sees every load and store");
  if (o.races && !gpu_arch.empty())
    return usage_error(
        "--races needs the emulator (--backend emu): race detection works on every recorded "
        "load and store, which only the emulator sees");
  Result<Schedule> schedule = check_schedule(o.emu, 1, !gpu_arch.empty());
  if (!schedule) return usage_error(schedule.message());
  // A FIFO or a device is named for what it is (the reader's words), not as missing.
  if (std::error_code ec; !std::filesystem::is_regular_file(o.file, ec))
    return usage_error(std::filesystem::exists(o.file, ec)
                           ? read_user_file(o.file, kSourceFileLimit).message()
                           : "no program file '" + o.file +
                                 "' (a lesson id has no extension; see `coopviz list`)");
  std::vector<std::string> files = {o.file};
  files.insert(files.end(), o.other_files.begin(), o.other_files.end());
  if (files.size() > 1)
    if (Status s = check_program_files(files); !s) return usage_error(s.message());
  if (!o.emulate.empty())
    if (Result<DeviceProps> d = find_preset(o.emulate); !d) return usage_error(d.message());
  for (const std::string& dir : o.includes)
    if (std::error_code ec; !std::filesystem::is_directory(dir, ec))
      return usage_error("-I " + dir + ": no such folder");
  ProgramOptions p;
  p.file = o.file;
  p.other_files = o.other_files;
  p.includes = o.includes;
  p.defines = o.defines;
  p.args = o.args;
  p.arch = o.emulate;
  p.gpu_arch = gpu_arch;
  p.schedule = *schedule;
  p.seed = o.emu.seed;
  p.trace_capacity = o.trace_capacity;
  p.record_memory = o.record_memory || o.races;
  p.check_memory = o.check_memory;
  p.shown = o.shown;
  p.timeout_seconds = o.timeout_seconds;
  p.memory_limit = o.memory_limit;
  p.trace_launches = o.trace_launches;
  p.vary_repeats = o.vary_repeats;
  p.relocatable_device_code = o.relocatable_device_code;
  p.trace_memory = o.trace_memory;
  p.output = o.output;
  for (const std::string& text : o.launches) {
    Result<LaunchOverride> l = parse_launch_override(text);
    if (!l) return usage_error(l.message());
    p.launch_overrides.push_back(*l);
  }
  if (Status s = check_launch_overrides(p); !s) return usage_error("--launch " + s.message());
  // The launches go to the user's file, or to a temporary one when only --json asks for them.
  std::string trace = o.trace_path;
  if (trace.empty())
    trace = (std::filesystem::temp_directory_path() /
             ("coopviz-program-" + std::to_string(getpid()) + ".cvt"))
                .string();
  p.trace_out = trace;
  // With --json the program's own output is part of the report, so stdout is JSON only.
  if (o.json) p.stdout_path = trace + ".stdout";
  Result<ProgramBuild> build = build_program(p);
  if (!build) {
    if (o.compiler_output) *o.compiler_output = build.status().message();
    // The compiler's own words, with the user's file and line numbers (#line keeps them).
    std::cerr << build.status().message();
    if (!build.status().message().ends_with("\n")) std::cerr << "\n";
    std::string named = o.file;  // the program, in the user's words
    for (const std::string& f : o.other_files) named += ", " + f;
    std::cerr << "coopviz: error: " << named << " did not compile for "
              << (gpu_arch.empty() ? "the emulator" : "the GPU (" + gpu_arch + ")") << "\n";
    if (o.json)
      std::cout << nlohmann::json{{"program", o.file},
                                  {"files", files},
                                  {"backend",
                                   to_string(gpu_arch.empty() ? Backend::Emu : Backend::Gpu)},
                                  {"status", "compile_error"},
                                  {"compiler_output", build.status().message()}}
                       .dump(2)
                << "\n";
    return 3;
  }
  if (!build->front_end_note.empty() && !o.json)
    std::cerr << "coopviz: note: " << build->front_end_note << "\n";
  // Never silently: each access of a shown buffer that stays plain, and why; what the GPU
  // build's kernels hold other than plain nvcc's resources.
  if (!o.json) {
    for (const std::string& place : build->not_shown) std::cerr << "coopviz: " << place << "\n";
    for (const std::string& line : build->register_notes)
      std::cerr << "coopviz: note: " << line << "\n";
  }
  std::fflush(stdout);
  Result<ProgramRun> run = run_program(p, *build);
  if (!run) {
    std::cerr << "coopviz: error: " << run.status().message() << "\n";
    return 1;
  }
  if (!run->what.empty()) std::cerr << "coopviz: " << o.file << ": " << run->what << "\n";
  const bool traced = std::filesystem::exists(trace);
  Result<std::vector<Trace>> launches =
      traced ? load_traces(trace) : Result<std::vector<Trace>>(std::vector<Trace>{});
  // A program the emulator stopped (memory_checks.hpp) stopped in its last launch.
  const bool stopped_in_launch = run->what.starts_with("the program was stopped: ");
  if (!run->what.empty() && launches && !launches->empty())
    std::cerr << "coopviz: " << o.file << ": "
              << (stopped_in_launch
                      ? std::string("its launches up to the one stopped there are in the trace")
                  : launches->size() == 1
                      ? std::string("the launch it finished before that is in the trace")
                      : "the " + std::to_string(launches->size()) +
                            " launches it finished before that are in the trace")
              << "\n";
  // An override for a kernel the program never launched changed nothing: said, not skipped.
  std::vector<std::string> unused;
  for (const LaunchOverride& l : p.launch_overrides) {
    bool used = false;
    std::vector<std::string> kernels;
    if (launches)
      for (const Trace& t : *launches) {
        used = used || overrides_kernel(l, t.header.kernel);
        if (std::find(kernels.begin(), kernels.end(), t.header.kernel) == kernels.end())
          kernels.push_back(t.header.kernel);
      }
    if (used) continue;
    std::string names;
    for (const std::string& k : kernels) names += (names.empty() ? "" : ", ") + k;
    unused.push_back(to_string(l));
    std::cerr << "coopviz: " << o.file << ": --launch " << to_string(l)
              << " changed nothing: no launch of a kernel named " << l.kernel
              << (names.empty() ? std::string() : " (it launched " + names + ")") << "\n";
  }
  // A launch that lost events says so here as --json does: the views and checks miss them.
  if (launches && !o.json)
    for (size_t k = 0; k < launches->size(); ++k)
      if (std::string note = dropped_events_note((*launches)[k], k); !note.empty())
        std::cerr << "coopviz: " << o.file << ": " << note << "\n";
  if (launches && !o.json)
    if (const std::string note = untraced_note(*launches); !note.empty())
      std::cerr << "coopviz: " << o.file << ": " << note << "\n";
  if (ran) {
    *ran = traced;
    if (!traced) std::cerr << "coopviz: " << o.file << ": no kernel launch to show\n";
  }
  if (o.json) {
    nlohmann::json out;
    out["program"] = o.file;
    out["files"] = files;
    out["backend"] = to_string(gpu_arch.empty() ? Backend::Emu : Backend::Gpu);
    out["status"] = run->what.empty() ? "ran" : "stopped";
    out["build_seconds"] = build->seconds;
    out["build_cached"] = build->cached;
    if (!build->front_end_note.empty()) out["front_end_note"] = build->front_end_note;
    if (!build->not_shown.empty()) out["not_shown"] = build->not_shown;
    if (!build->register_notes.empty()) out["register_notes"] = build->register_notes;
    // The compiler's report of the kernels, where the build made one: each kernel with its file.
    nlohmann::json resources = nlohmann::json::array();
    for (const ProgramKernelResourceRow& row : program_kernel_resources(p, build->executable))
      resources.push_back({{"kernel", row.kernel},
                           {"file", row.file},
                           {"arch", "sm_" + std::to_string(row.resources.arch)},
                           {"regs", row.resources.regs},
                           {"static_smem", row.resources.static_smem},
                           {"local_bytes", row.resources.local_bytes},
                           {"max_threads", row.resources.max_threads}});
    if (!resources.empty()) out["kernel_resources"] = resources;
    if (!gpu_arch.empty()) {
      out["gpu_build"] = build->halves ? "halves" : "whole";
      if (!build->halves) out["gpu_build_whole_because"] = build->whole_because;
    }
    out["run_seconds"] = run->seconds;
    out["schedule"] = to_string(p.schedule);
    out["seed"] = p.seed;
    out["exit_code"] = run->exit_code;
    if (!run->what.empty()) out["problem"] = run->what;
    out["launches"] = nlohmann::json::array();
    const auto dims = [](const Dim3& d) { return nlohmann::json{d.x, d.y, d.z}; };
    if (launches)
      for (const Trace& t : *launches) {
        nlohmann::json l = {{"kernel", t.header.kernel},
                            {"grid", dims(t.header.launch.grid)},
                            {"block", dims(t.header.launch.block)},
                            {"events", t.events.size()},
                            {"dropped", t.dropped()},
                            {"untraced", t.header.untraced}};
        if (!t.header.schedule.empty()) l["schedule"] = t.header.schedule;
        // A kernel's own launch names the launch and thread that made it (device_launches.hpp);
        // a kernel in the compiler's report says its registers and __launch_bounds__.
        for (const char* key : {"launched by", "launching thread", "device stream", "launch depth",
                                "registers per thread", "launch bounds max threads"})
          if (auto it = t.header.params.find(key); it != t.header.params.end()) {
            std::string field = key;
            std::replace(field.begin(), field.end(), ' ', '_');
            l[field] = it->second;
          }
        // An overridden launch also says what the program itself asked for.
        const auto& params = t.header.params;
        if (auto it = params.find("launch override"); it != params.end()) {
          l["launch_override"] = it->second;
          for (const char* key : {"grid", "block"})
            if (auto asked = params.find(std::string("program's ") + key); asked != params.end())
              if (Result<Dim3> d = parse_dim3(asked->second, key))
                l[std::string("program_") + key] = dims(*d);
        }
        out["launches"].push_back(std::move(l));
      }
    uint64_t untraced = 0;
    if (launches)
      for (const Trace& t : *launches) untraced += t.header.untraced;
    out["untraced_launches"] = untraced + (launches ? too_large_launches(*launches) : 0);
    out["library_launches"] = launches ? counted_on_last(*launches, byo::kLibraryCount) : 0;
    out["device_launches_untraced"] =
        launches ? counted_on_last(*launches, byo::kDeviceLaunchCount) : 0;
    out["trace_launches"] = p.trace_launches;
    out["vary_repeats"] = p.vary_repeats;
    out["memory"] = memory_report(launches ? *launches : std::vector<Trace>{});
    if (o.races) {
      out["races"] = races_report(launches ? *launches : std::vector<Trace>{});
      out["races_complete"] = races_complete(launches ? *launches : std::vector<Trace>{});
    }
    if (!unused.empty()) out["unused_launch_overrides"] = unused;
    if (!o.trace_path.empty()) out["trace"] = o.trace_path;
    // What the program printed, unless it printed without end.
    Result<std::string> printed = read_user_file(p.stdout_path, kSourceFileLimit);
    out["stdout"] = printed ? *printed : "[coopviz: " + printed.message() + "]";
    std::remove(p.stdout_path.c_str());
    std::cout << out.dump(2) << "\n";
  }
  // A run that stopped before any launch finished has no accesses to judge: say nothing of races.
  if (o.races && !o.json && launches && !launches->empty()) {
    std::cout << "races in " << o.file << ":\n";
    print_races(*launches, std::cout);
  }
  if (o.trace_path.empty()) std::remove(trace.c_str());
  return run->exit_code;
}

}  // namespace coop::app
