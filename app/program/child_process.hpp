// Every process coopviz starts on a user's file (the compilers, the user's program, tools on its
// build) runs under a supervisor: a process of its own, forked from coopviz, which starts it in
// a process group of its own and is its subreaper. Whatever the program forks, double-forks or
// setsid()s stays a descendant of the supervisor, which kills and reaps every one of them when
// the program ends, when a limit is passed, or when coopviz dies (it watches a socket that only
// coopviz holds open). coopviz itself never becomes a subreaper nor waits for any child but the
// supervisor, so runs on several GUI threads at once never reap each other's processes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "device/launch/result.hpp"

namespace coop::app {

struct ChildLimits {
  double wall_seconds = 0;       // then every process of the run is stopped; 0: no limit
  uint64_t cpu_seconds = 0;      // RLIMIT_CPU of each process; 0: none
  uint64_t address_space = 0;    // RLIMIT_AS of each process, in bytes; 0: none
  uint64_t resident_memory = 0;  // the run's processes together, in bytes; 0: no limit
  // The output run_supervised collects, at most (0: 4 MiB). Past it the first bytes are kept (a
  // compiler's first errors are the ones to read), or with keep_last_output the last ones (a
  // program prints its verdict last), after a line that says how much was cut before them.
  size_t output_bytes = 0;
  bool keep_last_output = false;
};

// For a caller that talks with the process while it runs.
struct ChildHooks {
  int inherit_fd = -1;  // a descriptor the process inherits open (every other one is closed)
  // Called about every 5 ms with the process's pid while it runs; returning words stops the run
  // (every process of it) and they come back in ChildEnd::stopped.
  std::function<std::string(int pid)> watch;
};

struct ChildEnd {
  int wait_status = 0;         // the started process's, as waitpid() gives it
  bool timed_out = false;      // ChildLimits::wall_seconds stopped the run
  bool out_of_memory = false;  // ChildLimits::resident_memory stopped the run
  uint64_t peak_memory = 0;    // the most resident memory seen (when it was limited)
  std::string stopped;         // ChildHooks::watch's words, when it stopped the run
  int left_running = 0;        // processes of the run still running when the started one ended
                               // by itself (then killed, as every process of the run is)
};

// Forks a supervisor, which forks the process that runs `start` (set up first: its own process
// group, killed when the supervisor dies, the limits); `start` must exec or _exit. With
// `output`, the process's stdout and stderr are collected there (bounded: ChildLimits::
// output_bytes); `hooks` (not with `output`) keep a descriptor open for it and watch it run.
Result<ChildEnd> run_supervised(const std::function<void()>& start, const ChildLimits& limits,
                                std::string* output = nullptr, const ChildHooks& hooks = {});

// Runs argv (a compiler, or a tool on the user's build) under a compile's limits (a compiler
// process: 2 GiB of address space and 120 s of CPU time; the whole compile: 300 s), its stdout
// and stderr captured together into `output`; returns the exit status. A compile a limit stopped
// is an error that says which in plain words, about `file` (the user's).
Result<int> run_compiler(const std::vector<std::string>& argv, std::string& output,
                         const std::string& file);

// The exit code of a wait status: the code, or 128 + the signal that ended it.
int exit_code_of(int wait_status);

// /proc/PID/NAME's start into `buf`, ended by a NUL; false when the process is gone (a read of a
// process that ended meanwhile fails with ESRCH: never an exception).
bool read_proc_file(int pid, const char* name, char* buf, size_t size);

// The peak resident memory (VmHWM) of process `pid` so far, in MiB; 0 once it has gone.
double peak_resident_mib(int pid);

// The machine's memory that is free now (MemAvailable), in bytes; 0 when unknown.
uint64_t available_memory();

}  // namespace coop::app
