// A user's own CUDA program, run on the emulator: lowered (device/lowering), compiled with the
// host compiler against the emulator's CUDA runtime (device/byo), and run as a child process
// under a watchdog, so a crash, a failed assert or an endless loop in the program never takes
// coopviz down. Every kernel launch the program makes is one traced launch in one trace file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "device/launch/launch_override.hpp"
#include "device/launch/result.hpp"
#include "device/launch/schedule.hpp"
#include "device/launch/shown_accesses.hpp"

namespace coop::app {

struct ProgramOptions {
  std::string file;                   // the .cu file, as the user named it
  // A program of several files (nvcc a.cu b.cu main.cpp): the others, as the user named them,
  // each compiled apart and linked with `file` (program_files.hpp).
  std::vector<std::string> other_files;
  std::vector<std::string> includes;  // -I
  std::vector<std::string> defines;   // -D NAME or NAME=VALUE
  std::vector<std::string> args;      // the program's own arguments (after --)
  std::string trace_out;              // where the program's launches are written
  std::string stdout_path;            // where its standard output goes; empty: the terminal
  std::string arch;                   // emulated architecture ("sm_90"); empty: the default
  std::string gpu_arch;               // non-empty: build for this GPU with nvcc ("sm_90")
  Schedule schedule = Schedule::Lockstep;  // the emulator's (ExecOptions::schedule)
  uint64_t seed = 0;
  uint64_t trace_capacity = 1u << 22;
  // Which launches are traced: "all", "first" (the first of each kernel, grid, block and dynamic
  // shared memory) or a count of each; the rest run untraced, at full speed, and are counted.
  std::string trace_launches = "first";
  // Emulator: a kernel's repeated launches of one shape run under seeds 1, 2, ... even when the
  // run's seed is 0, whose order only the first keeps (a litmus test's repeats must differ, as a
  // GPU's do; lesson.json's "vary_repeats", `coopviz run --vary-repeats`).
  bool vary_repeats = false;
  // false: every launch runs with the recorder off (ExecOptions::trace), as a profiler must see
  // the kernels: a lesson run with --untraced.
  bool traced = true;
  // The bytes of traces the program keeps in memory; past them later launches of a kernel
  // already traced run untraced. 0: trace_memory_limit()'s share of the machine.
  uint64_t trace_memory = 0;
  bool record_memory = false;  // every shared/global load and store (ExecOptions::record_memory)
  // Launches of more threads than this run untraced and are counted (a lesson's timed launches,
  // lesson.json's "trace_threads_max"); 0: every launch a trace can hold is traced.
  uint64_t trace_threads_max = 0;
  // Plain loads and stores into these buffers made traced ones by the front end, on both
  // backends (a lesson's "shown_stores" and "shown_loads"; tools/frontend/shown_edits.hpp): part
  // of the build.
  ShownAccesses shown;
  std::string stderr_path;            // where its standard error goes; empty: the terminal
  // With it, the program's stdout and stderr are collected here, together, instead (the window
  // shows what it printed): the last kProgramOutputKeep bytes, after a line that says how much
  // was cut before them. Not with `watch` or `inherit_fd`.
  std::string* output = nullptr;
  // Emulator: a read of memory never written stops the program at its line, as an access
  // outside its allocation always does (ExecOptions::check_initialisation).
  bool check_memory = false;
  double timeout_seconds = 120;
  // The resident memory the program and every process it starts may use together, in bytes;
  // 0: program_memory_limit()'s share of the machine. Past it the run is stopped, long before
  // the system's OOM killer would pick a process.
  uint64_t memory_limit = 0;
  // For a caller that talks with the program while it runs: variables added to its environment,
  // a descriptor it inherits open, and a function called about every 5 ms with its pid, which
  // ends the program by returning why (ProgramRun::what); empty to let it run.
  std::vector<std::pair<std::string, std::string>> environment;
  int inherit_fd = -1;
  std::function<std::string(int pid)> watch;
  // Grids and blocks that replace the program's own for some kernels (both backends apply them
  // at launch; the build is the same with or without them).
  std::vector<LaunchOverride> launch_overrides;
  // GPU: build relocatable device code (nvcc's -rdc=true) even where no kernel of the program's
  // own files launches a kernel (those are found: device_launch_build.hpp).
  bool relocatable_device_code = false;
};

// The bytes of a program's output ProgramOptions::output keeps: its last lines, where programs
// print their verdict, and never a printing loop's gigabytes in coopviz's memory.
inline constexpr size_t kProgramOutputKeep = size_t(64) << 10;

struct ProgramBuild {
  std::string executable;
  std::string compiler_output;  // as the compiler wrote it, with the user's file and lines
  double seconds = 0;
  bool cached = false;  // an earlier build of the same source and options was reused
  // The emulator's compile read its runtime's header precompiled (program_pch.hpp).
  bool precompiled_runtime = false;
  // A GPU build whose device code and host code were compiled apart, side by side (the faster
  // way); else why nvcc built it whole.
  bool halves = false;
  std::string whole_because;
  // Why the line lowering alone lowered a file of the program ("" when the C++ front end read
  // them all; program_lowering.hpp).
  std::string front_end_note;
  // "file:line: not shown: why" for each access of a shown buffer left plain (a `+=`, a store
  // through another pointer; tools/frontend/shown_edits.hpp).
  std::vector<std::string> not_shown;
  // A GPU build of a program that asks for its kernels' resources is held to plain nvcc's
  // registers (kernel_resource_table.hpp): what still differs, and what the cap costs, a line each.
  std::vector<std::string> register_notes;
};

// Lowers and compiles the program (or reuses the build of identical inputs). A compile error is
// an error status whose message is the compiler's output.
Result<ProgramBuild> build_program(const ProgramOptions& options);

struct ProgramRun {
  int exit_code = 0;       // the program's exit status (128 + signal when a signal ended it)
  int signal = 0;          // the signal that ended it, 0 if it exited
  bool timed_out = false;  // the watchdog ended it
  bool out_of_memory = false;  // it passed its memory limit and was ended
  double seconds = 0;
  std::string what;        // in plain words, when it did not exit normally
  int left_running = 0;    // processes it started that outlived it (ended with the run)
};

// The memory limit a run gets: options.memory_limit, else three quarters of the memory free
// when it starts.
uint64_t program_memory_limit(const ProgramOptions& options);

// The trace memory a run gets: options.trace_memory, else a quarter of the memory available.
uint64_t trace_memory_limit(const ProgramOptions& options);

// "all", "first" or a count from 1: the run's --trace-launches, or why it is none of them.
Status check_trace_launches(const std::string& which);

// Runs a built program with the terminal's stdin, stdout and stderr; its launches go to
// options.trace_out. It, and whatever it starts, ends with the run (child_process.hpp).
Result<ProgramRun> run_program(const ProgramOptions& options, const ProgramBuild& build);

// The device the program runs on: this machine's GPU for a GPU build, else the one the emulator
// imitates.
DeviceProps program_device(const ProgramOptions& options);

// Checks the launch overrides against that device's block and grid limits before anything is
// built or run; the message names the override and the limit it broke.
Status check_launch_overrides(const ProgramOptions& options);

// Where built programs are kept: $XDG_CACHE_HOME/coopviz, else ~/.cache/coopviz.
std::string program_cache_root();

// nvcc where this coopviz was built, else the one on PATH: an installed coopviz may meet a CUDA
// toolkit elsewhere, or none (then only the emulator builds programs).
std::string nvcc_command();

// This machine's GPU as nvcc names its architecture ("sm_90"), or "" when there is none.
std::string local_gpu_arch();

// True for a header a program may include from its own folder (.h, .hpp, .cuh, .inl): lowered
// with it, part of its build's identity, and watched with it.
bool is_header_path(const std::string& name);

// True for a file name coopviz treats as a program rather than a lesson id.
bool is_program_path(const std::string& name);

}  // namespace coop::app
