#include "app/program/child_process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "device/trace/user_file.hpp"

namespace coop::app {

bool read_proc_file(int pid, const char* name, char* buf, size_t size) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/%s", pid, name);
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = read(fd, buf, size - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  return true;
}

double peak_resident_mib(int pid) {
  char status[4096];
  if (!read_proc_file(pid, "status", status, sizeof status)) return 0;
  const char* at = std::strstr(status, "VmHWM:");
  return at ? std::strtod(at + 6, nullptr) / 1024.0 : 0;
}

namespace {

// What the supervisor tells coopviz once every process of the run is gone.
struct Report {
  int wait_status = 0;
  int fork_errno = 0;  // the supervisor could not start the process
  int timed_out = 0;
  int out_of_memory = 0;
  int stopped = 0;  // coopviz asked for the run to stop (ChildHooks::watch)
  int left_running = 0;  // processes still running when the started one ended by itself
  uint64_t peak_memory = 0;
};

constexpr size_t kMaxOutput = size_t(4) << 20;

// Reads `fd` until every holder of the pipe has ended. What passes the cap is read and dropped,
// so that the process never blocks on a full pipe and coopviz never holds more than twice the cap.
void collect_output(int fd, const ChildLimits& limits, std::string& output) {
  const size_t cap = limits.output_bytes ? limits.output_bytes : kMaxOutput;
  char buf[4096];
  uint64_t total = 0;
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    total += uint64_t(n);
    if (!limits.keep_last_output) {
      output.append(buf, std::min(cap - std::min(cap, output.size()), size_t(n)));
      continue;
    }
    output.append(buf, size_t(n));
    if (output.size() > 2 * cap) output.erase(0, output.size() - cap);  // seldom: cheap enough
  }
  if (total <= cap) return;
  if (!limits.keep_last_output) {
    output += "\n[coopviz: the output was cut: the first " + std::to_string(cap) +
              " bytes are kept, the last " + std::to_string(total - cap) + " bytes of " +
              std::to_string(total) + " were dropped]\n";
    return;
  }
  // The last bytes, from the start of a line where one starts among them.
  output.erase(0, output.size() - cap);
  if (const size_t newline = output.find('\n'); newline + 1 < output.size())
    output.erase(0, newline + 1);
  output.insert(0, "[coopviz: the output was cut: the first " +
                       std::to_string(total - output.size()) + " bytes of " +
                       std::to_string(total) + " were dropped, the last " +
                       std::to_string(output.size()) + " follow]\n");
}

struct ProcessEntry {
  pid_t pid, parent;
  bool zombie;
};

// Every process of the machine with its parent, from /proc (the supervisor's children may have
// left its process group or session, never its ancestry: it is their subreaper).
std::vector<ProcessEntry> all_processes() {
  std::vector<ProcessEntry> out;
  DIR* proc = opendir("/proc");
  if (!proc) return out;
  while (dirent* e = readdir(proc)) {
    const pid_t pid = pid_t(std::atoi(e->d_name));
    if (pid <= 0) continue;
    char buf[512];
    if (!read_proc_file(pid, "stat", buf, sizeof buf)) continue;
    // "pid (name) state ppid ...": the name may hold spaces and parentheses, so from the last ')'.
    const char* close_paren = std::strrchr(buf, ')');
    char state = 0;
    int parent = 0;
    if (!close_paren || std::sscanf(close_paren + 1, " %c %d", &state, &parent) != 2) continue;
    out.push_back({pid, pid_t(parent), state == 'Z' || state == 'X'});
  }
  closedir(proc);
  return out;
}

// The living descendants of `root`.
std::vector<pid_t> descendants(pid_t root) {
  const std::vector<ProcessEntry> all = all_processes();
  std::vector<pid_t> found = {root}, living;
  for (size_t i = 0; i < found.size(); ++i)
    for (const ProcessEntry& p : all)
      if (p.parent == found[i]) {
        found.push_back(p.pid);
        if (!p.zombie) living.push_back(p.pid);
      }
  return living;
}

uint64_t resident_bytes(const std::vector<pid_t>& pids) {
  uint64_t pages = 0;
  for (pid_t pid : pids) {
    char buf[128];
    unsigned long long size = 0, resident = 0;
    if (read_proc_file(pid, "statm", buf, sizeof buf) &&
        std::sscanf(buf, "%llu %llu", &size, &resident) == 2)
      pages += resident;
  }
  return pages * uint64_t(sysconf(_SC_PAGESIZE));
}

// Reaps what has ended without waiting, noting the started process's status.
void reap_ended(pid_t started, Report& report, bool& started_ended) {
  int status = 0;
  for (pid_t p; (p = waitpid(-1, &status, WNOHANG)) > 0;)
    if (p == started) report.wait_status = status, started_ended = true;
}

// Kills every descendant until none is left (one killed mid-fork leaves its child to us, the
// subreaper, for the next round), then reaps them all.
void kill_all(pid_t started, Report& report, bool& started_ended) {
  for (;;) {
    reap_ended(started, report, started_ended);
    const std::vector<pid_t> living = descendants(getpid());
    if (living.empty()) break;
    for (pid_t p : living) kill(p, SIGKILL);
    usleep(1000);
  }
  int status = 0;
  for (pid_t p; (p = waitpid(-1, &status, 0)) > 0;)
    if (p == started) report.wait_status = status, started_ended = true;
}

void set_limit(int resource, uint64_t value, uint64_t hard) {
  if (value == 0) return;
  const rlimit limit{rlim_t(value), rlim_t(hard)};
  setrlimit(resource, &limit);
}

// Closes every descriptor from 3 up but those in `keep` (negative ones are none).
void close_all_but(std::vector<int> keep) {
  std::sort(keep.begin(), keep.end());
  unsigned from = 3;
  for (const int fd : keep) {
    if (fd < int(from)) continue;
    if (unsigned(fd) > from) close_range(from, unsigned(fd) - 1, 0);
    from = unsigned(fd) + 1;
  }
  close_range(from, ~0u, 0);
}

[[noreturn]] void supervise(const std::function<void()>& start, const ChildLimits& limits,
                            int coopviz_socket, int output_fd, int inherit_fd) {
  // Nothing of coopviz's but these: another run's pipe held here would keep its reader waiting
  // until this run ends.
  close_all_but({coopviz_socket, output_fd, inherit_fd});
  // Its own group, so a Ctrl-C meant for coopviz does not end it before it has cleaned up: it
  // ends by itself once coopviz is gone.
  setpgid(0, 0);
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGCHLD, SIG_DFL);  // ignored, it would reap the children before their status is read
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const auto begin = std::chrono::steady_clock::now();
  const pid_t supervisor = getpid();
  Report report;
  const pid_t started = fork();
  if (started == 0) {
    // Dies with its supervisor; the check closes the window in which the supervisor died first.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != supervisor) _exit(127);
    setpgid(0, 0);
    close(coopviz_socket);
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (output_fd >= 0) dup2(output_fd, 1), dup2(output_fd, 2), close(output_fd);
    // SIGXCPU at the soft limit, SIGKILL a few seconds later for a process that ignores it.
    set_limit(RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 5);
    set_limit(RLIMIT_AS, limits.address_space, limits.address_space);
    start();
    _exit(127);
  }
  if (started < 0) report.fork_errno = errno;
  if (output_fd >= 0) close(output_fd);
  if (inherit_fd >= 0) close(inherit_fd);
  // coopviz learns the started process first (its hooks watch it), then the report.
  const int32_t started_pid = started;
  (void)!write(coopviz_socket, &started_pid, sizeof started_pid);
  bool started_ended = started < 0;
  for (int tick = 0; !started_ended; ++tick) {
    pollfd watch{coopviz_socket, POLLIN, 0};
    if (poll(&watch, 1, 5) > 0) {
      char byte;
      if (read(coopviz_socket, &byte, 1) <= 0) break;  // coopviz closed its end: it has died
      report.stopped = 1;                               // coopviz asks for the run to stop
      break;
    }
    reap_ended(started, report, started_ended);
    if (started_ended) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (limits.wall_seconds > 0 && elapsed > limits.wall_seconds) {
      report.timed_out = 1;
      break;
    }
    // The whole tree's memory, every 20 ms: a program that allocates fast passes the limit by
    // what it touches in that time, well within what the limit leaves free.
    if (limits.resident_memory > 0 && tick % 4 == 0) {
      const uint64_t bytes = resident_bytes(descendants(supervisor));
      report.peak_memory = std::max(report.peak_memory, bytes);
      if (bytes > limits.resident_memory) {
        report.out_of_memory = 1;
        break;
      }
    }
  }
  // What the program started and did not see end outlives it (a daemon, a setsid() child): the
  // run ends it below, and its caller learns that the program left it behind.
  if (started_ended && started > 0) report.left_running = int(descendants(supervisor).size());
  if (started > 0) kill_all(started, report, started_ended);
  (void)!write(coopviz_socket, &report, sizeof report);
  _exit(0);
}

// A compile's limits. every_name.cu, the heaviest program the tests build, peaks at 579 MiB of
// address space in nvcc's cicc (498 MiB in cudafe++, 255 MiB in cc1plus; 215 MiB in cc1plus for
// the emulator) and a few seconds of CPU time per process; more than 2 GiB means an #include of
// a device or of a huge file, or templates without end.
constexpr uint64_t kCompilerAddressSpace = uint64_t(2) << 30;
constexpr uint64_t kCompilerCpuSeconds = 120;
constexpr double kCompileWallSeconds = 300;

bool said_out_of_memory(const std::string& output) {
  for (const char* words : {"out of memory", "memory exhausted", "std::bad_alloc",
                            "Cannot allocate memory", "Out of memory"})
    if (output.find(words) != std::string::npos) return true;
  return false;
}

}  // namespace

Result<ChildEnd> run_supervised(const std::function<void()>& start, const ChildLimits& limits,
                                std::string* output, const ChildHooks& hooks) {
  int sockets[2], pipefd[2] = {-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
    return Status::error(std::string("socketpair: ") + std::strerror(errno));
  // Close-on-exec: a command started from another thread must not hold this pipe open.
  if (output && pipe2(pipefd, O_CLOEXEC) != 0) {
    close(sockets[0]), close(sockets[1]);
    return Status::error(std::string("pipe: ") + std::strerror(errno));
  }
  const pid_t supervisor = fork();
  if (supervisor == 0) {
    close(sockets[0]);
    if (pipefd[0] >= 0) close(pipefd[0]);
    supervise(start, limits, sockets[1], pipefd[1], hooks.inherit_fd);
  }
  close(sockets[1]);
  if (pipefd[1] >= 0) close(pipefd[1]);
  if (supervisor < 0) {
    close(sockets[0]);
    if (pipefd[0] >= 0) close(pipefd[0]);
    return Status::error(std::string("fork: ") + std::strerror(errno));
  }
  if (output) {
    collect_output(pipefd[0], limits, *output);
    close(pipefd[0]);
  }
  // Reads exactly `size` bytes from the supervisor (fewer: it ended without saying them).
  const auto read_all = [&](void* into, size_t size) {
    size_t got = 0;
    for (ssize_t n; got < size && (n = read(sockets[0], static_cast<char*>(into) + got,
                                            size - got)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      got += size_t(n);
    }
    return got == size;
  };
  int32_t started = -1;
  std::string stopped;
  if (read_all(&started, sizeof started) && started > 0 && hooks.watch) {
    for (;;) {
      pollfd ready{sockets[0], POLLIN, 0};
      if (poll(&ready, 1, 5) != 0) break;  // the report is coming (or the supervisor is gone)
      if (stopped = hooks.watch(started); !stopped.empty()) {
        (void)!write(sockets[0], "s", 1);
        break;
      }
    }
  }
  Report report;
  size_t got = 0;
  for (ssize_t n;
       got < sizeof report &&
       (n = read(sockets[0], reinterpret_cast<char*>(&report) + got, sizeof report - got)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    got += size_t(n);
  }
  close(sockets[0]);
  int status = 0;
  while (waitpid(supervisor, &status, 0) < 0 && errno == EINTR) {
  }
  if (got != sizeof report)
    return Status::error("the process that watches a run ended without a report (" +
                         std::to_string(exit_code_of(status)) + ")");
  if (report.fork_errno != 0)
    return Status::error(std::string("fork: ") + std::strerror(report.fork_errno));
  return ChildEnd{report.wait_status, report.timed_out != 0, report.out_of_memory != 0,
                  report.peak_memory, report.stopped ? stopped : std::string(),
                  report.left_running};
}

Result<int> run_compiler(const std::vector<std::string>& argv, std::string& output,
                         const std::string& file) {
  const ChildLimits limits{kCompileWallSeconds, kCompilerCpuSeconds, kCompilerAddressSpace, 0};
  Result<ChildEnd> end = run_supervised(
      [&] {
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
        _exit(127);
      },
      limits, &output);
  if (!end) return end.status();
  std::string name = std::filesystem::path(argv[0]).filename().string();
  name = name == "bash" || name == "env" ? "the compiler" : "the compiler (" + name + ")";
  const std::string compiling = " compiling " + std::filesystem::path(file).filename().string();
  if (end->timed_out)
    return Status::error(name + " ran longer than " + std::to_string(int(kCompileWallSeconds)) +
                         " s" + compiling +
                         " and was stopped (an #include of a FIFO or a device, or a compile "
                         "that never ends?)");
  const int rc = exit_code_of(end->wait_status);
  if (rc == 0) return rc;
  if (output.find("CPU time limit exceeded") != std::string::npos ||
      (WIFSIGNALED(end->wait_status) && WTERMSIG(end->wait_status) == SIGXCPU))
    return Status::error(name + " used more than " + std::to_string(kCompilerCpuSeconds) +
                         " s of CPU time" + compiling +
                         " and was stopped (templates or constexpr evaluation without end?)");
  if (said_out_of_memory(output))
    return Status::error(
        name + " used more than " + size_words(kCompilerAddressSpace) + " of memory" + compiling +
        " and was stopped (an #include of a device or a huge file?)\n" + output.substr(0, 2000));
  return rc;
}

int exit_code_of(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 0;
}

uint64_t available_memory() {
  FILE* info = std::fopen("/proc/meminfo", "re");
  if (!info) return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, info))
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
  std::fclose(info);
  return uint64_t(kib) << 10;
}

}  // namespace coop::app
