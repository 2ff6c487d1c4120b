#include "app/exercise/case_channel.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <sstream>

#include "app/program/child_process.hpp"

namespace coop::app {
namespace {

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The CPU time process `pid` has used, with the children it waited for (addr2line, which the
// emulator runs to name lines), from /proc/PID/stat: utime, stime, cutime and cstime, fields 14
// to 17, counted after the command's name, which may itself hold spaces and parentheses.
double cpu_seconds_of(int pid) {
  // Not a stream: reading a process that has just ended fails with ESRCH, which libstdc++'s
  // filebuf throws as an exception.
  char buf[1024];
  if (!read_proc_file(pid, "stat", buf, sizeof buf)) return 0;
  const std::string stat = buf;
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int k = 3; k <= 17 && fields >> field; ++k)
    if (k >= 14) ticks += std::strtod(field.c_str(), nullptr);
  static const double per_second = double(sysconf(_SC_CLK_TCK));
  return ticks / per_second;
}

// A token no output of the student's code can guess.
std::string fresh_token() {
  std::random_device device;
  std::string t;
  for (int k = 0; k < 4; ++k) t += std::to_string(device());
  return t;
}

std::string seconds_words(double s) {
  std::ostringstream o;
  o << s;
  return o.str() + " s";
}

}  // namespace

std::string case_words(const nlohmann::json& body) {
  if (!body.is_object()) return "a case";
  return "case " + std::to_string(body.value("number", -1L)) + " (" + body.value("launch", "") +
         ", input " + body.value("input", "") + ")";
}

CaseChannel::CaseChannel(CheckLimits limits) : limits_(limits) {}

CaseChannel::~CaseChannel() {
  if (read_fd_ >= 0) close(read_fd_);
  if (write_fd_ >= 0) close(write_fd_);
}

Status CaseChannel::attach(ProgramOptions& p,
                           const std::vector<std::pair<std::string, std::string>>& more) {
  int fds[2];
  // Closed on exec here: only the program is given the write end (ProgramOptions::inherit_fd),
  // and no other program this process starts meanwhile keeps either end.
  if (pipe2(fds, O_CLOEXEC) != 0)
    return Status::error(std::string("cannot open the cases' channel: ") + std::strerror(errno));
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  fcntl(read_fd_, F_SETFL, O_NONBLOCK);
  token_ = fresh_token();
  p.inherit_fd = write_fd_;
  p.environment = {{"COOPVIZ_CASES_FD", std::to_string(write_fd_)},
                   {"COOPVIZ_CASES_TOKEN", token_}};
  p.environment.insert(p.environment.end(), more.begin(), more.end());
  p.watch = [this](int pid) { return watch(pid); };
  return {};
}

void CaseChannel::drain() {
  char buf[65536];
  for (ssize_t n; (n = read(read_fd_, buf, sizeof buf)) > 0;) pending_.append(buf, size_t(n));
  for (size_t end; (end = pending_.find('\n')) != std::string::npos;) {
    take(pending_.substr(0, end), pid_);
    pending_.erase(0, end + 1);
  }
}

void CaseChannel::take(const std::string& line, int pid) {
  const std::string mine = token_ + " ";
  if (!line.starts_with(mine)) {
    ++foreign_;
    return;
  }
  const size_t space = line.find(' ', mine.size());
  CaseMessage m;
  m.kind = line.substr(mine.size(), space - mine.size());
  if (space != std::string::npos)
    m.body = nlohmann::json::parse(line.substr(space + 1), nullptr, false);
  if (m.body.is_discarded()) {
    ++foreign_;
    return;
  }
  // A case's clocks start when its "begin" is read, and the time outside cases when it ends.
  if (m.kind == "begin" || m.kind == "case") {
    const double cpu = pid > 0 ? cpu_seconds_of(pid) : cpu_from_;
    if (m.kind == "case") m.cpu_seconds = cpu - cpu_from_;
    running_ = m.kind == "begin" ? case_words(m.body) : "";
    cpu_from_ = cpu;
    wall_from_ = wall_now();
  }
  messages_.push_back(std::move(m));
}

std::string CaseChannel::watch(int pid) {
  if (pid_ == 0) {
    pid_ = pid;
    wall_from_ = wall_now();
    // The program has its end now: ours goes, so that the pipe ends when the program does.
    close(write_fd_);
    write_fd_ = -1;
  }
  drain();
  const double cpu = cpu_seconds_of(pid) - cpu_from_, wall = wall_now() - wall_from_;
  const std::string what = running_.empty()
                               ? std::string(
                                     "your program's code outside the hidden cases (a "
                                     "static initialiser, or code after the last case)")
                               : running_;
  // Waiting is a case whose CPU time stands still: a busy machine slows a case that computes, but
  // it still gets more than a hundredth of a core, which a sleep or a lock never uses.
  const bool waiting = wall > limits_.case_wall_seconds && cpu < 0.01 * wall;
  stopped_for_time_ = cpu > limits_.case_cpu_seconds || waiting;
  if (cpu > limits_.case_cpu_seconds)
    return what + " used more than " + seconds_words(limits_.case_cpu_seconds) +
           " of CPU time and was stopped: an endless loop, or far more work than the case needs";
  if (waiting)
    return what + " did not finish in " + seconds_words(limits_.case_wall_seconds) +
           " while using little CPU time, and was stopped: it waits for something that never "
           "comes (a sleep, a lock)";
  return "";
}

void CaseChannel::finish() {
  if (write_fd_ >= 0) close(write_fd_);
  write_fd_ = -1;
  if (read_fd_ < 0) return;
  drain();
  if (!pending_.empty()) take(pending_, 0);  // a last line without its newline
  pending_.clear();
  close(read_fd_);
  read_fd_ = -1;
}

}  // namespace coop::app
