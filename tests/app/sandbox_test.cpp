// What coopviz runs on a user's file stays under its control: a program's forked, setsid()'d and
// double-forked children end with the run; killing coopviz ends the program and the compiler; a
// compile or a run past its memory limit stops with words that say so.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/exercise/exercise.hpp"
#include "app/program/program.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::seconds;

// A program that starts a process which sleeps and writes that process's id to argv[1]: as a
// plain child ("child"), or setsid() and a second fork away from the program's process group
// and session ("escape"). With "stay" the program sleeps too, else it exits once the id is
// written. Its own id goes to argv[1] + ".main".
constexpr const char* kForkingProgram = R"(#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const bool escape = std::strcmp(argv[2], "escape") == 0;
  if (FILE* f = std::fopen((std::string(argv[1]) + ".main").c_str(), "w")) {
    std::fprintf(f, "%d\n", int(getpid()));
    std::fclose(f);
  }
  if (fork() == 0) {
    if (escape) {
      setsid();
      if (fork() != 0) _exit(0);
    }
    const std::string partial = std::string(argv[1]) + ".partial";
    if (FILE* f = std::fopen(partial.c_str(), "w")) {
      std::fprintf(f, "%d\n", int(getpid()));
      std::fclose(f);
      std::rename(partial.c_str(), argv[1]);
    }
    for (;;) sleep(100);
  }
  while (access(argv[1], F_OK) != 0) usleep(1000);
  if (std::strcmp(argv[3], "stay") == 0)
    for (;;) sleep(100);
  std::printf("started\n");
  return 0;
}
)";

fs::path write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

pid_t pid_in(const fs::path& file) {
  std::ifstream in(file);
  int pid = 0;
  in >> pid;
  return pid_t(pid);
}

// True once `pid` is gone (reaped, not a zombie), waiting at most `limit`.
bool gone_within(pid_t pid, Clock::duration limit) {
  const auto end = Clock::now() + limit;
  for (;;) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The processes whose command line names something in `folder`.
std::vector<pid_t> processes_naming(const std::string& folder) {
  std::vector<pid_t> out;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const int pid = std::atoi(entry.path().filename().c_str());
    if (pid <= 0 || pid == getpid()) continue;
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(folder) != std::string::npos) out.push_back(pid_t(pid));
  }
  return out;
}

ProgramOptions forking_program(const fs::path& dir, const std::string& how,
                               const std::string& stay) {
  ProgramOptions o;
  o.file = write_file(dir / "forks.cu", kForkingProgram).string();
  o.args = {(dir / ("sleeper-" + how)).string(), how, stay};
  o.stdout_path = (dir / "stdout.txt").string();
  return o;
}

class Sandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
    dir_ = coop::testing::fresh_folder(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(Sandbox, WhatAProgramForksEndsWithIt) {
  for (const char* how : {"child", "escape"}) {
    const ProgramOptions o = forking_program(dir_, how, "exit");
    Result<ProgramBuild> build = build_program(o);
    ASSERT_TRUE(build.ok()) << build.status().message();
    Result<ProgramRun> run = run_program(o, *build);
    ASSERT_TRUE(run.ok()) << run.status().message();
    EXPECT_EQ(run->exit_code, 0) << how << ": " << run->what;
    EXPECT_EQ(run->left_running, 1) << how << ": the sleeper outlived the program";
    const pid_t sleeper = pid_in(o.args[0]);
    ASSERT_GT(sleeper, 0) << how;
    // Ended and reaped by the time run_program returns.
    EXPECT_TRUE(kill(sleeper, 0) != 0 && errno == ESRCH) << how << ": " << sleeper << " lives";
    if (kill(sleeper, 0) == 0) kill(sleeper, SIGKILL);
  }
}

TEST_F(Sandbox, AProgramThatNeverEndsIsStoppedWithWhatItForked) {
  ProgramOptions o = forking_program(dir_, "escape", "stay");
  o.timeout_seconds = 1;
  Result<ProgramBuild> build = build_program(o);
  ASSERT_TRUE(build.ok()) << build.status().message();
  Result<ProgramRun> run = run_program(o, *build);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_TRUE(run->timed_out);
  EXPECT_EQ(run->left_running, 0) << "the program did not end by itself: nothing outlived it";
  const pid_t sleeper = pid_in(o.args[0]), main = pid_in(o.args[0] + ".main");
  ASSERT_GT(sleeper, 0);
  EXPECT_TRUE(kill(sleeper, 0) != 0 && errno == ESRCH) << "the escaped sleeper lives";
  EXPECT_TRUE(kill(main, 0) != 0 && errno == ESRCH) << "the program lives";
}

TEST_F(Sandbox, AProgramPastItsMemoryLimitIsStoppedAndSaysSo) {
  ProgramOptions o;
  o.file = write_file(dir_ / "hungry.cu", R"(#include <cstdlib>
#include <cstring>
int main() {
  for (;;) std::memset(std::malloc(64 << 20), 1, 64 << 20);
}
)")
               .string();
  o.memory_limit = uint64_t(256) << 20;
  Result<ProgramBuild> build = build_program(o);
  ASSERT_TRUE(build.ok()) << build.status().message();
  const auto start = Clock::now();
  Result<ProgramRun> run = run_program(o, *build);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_TRUE(run->out_of_memory);
  EXPECT_LT(Clock::now() - start, seconds(10));
  EXPECT_NE(run->what.find("more than 256 MiB of memory"), std::string::npos) << run->what;
}

TEST_F(Sandbox, ACompileThatIncludesADeviceStopsAtTheMemoryLimit) {
  ProgramOptions o;
  o.file = write_file(dir_ / "zero.cu", "#include \"/dev/zero\"\nint main() {}\n").string();
  const auto start = Clock::now();
  Result<ProgramBuild> build = build_program(o);
  ASSERT_FALSE(build.ok());
  EXPECT_LT(Clock::now() - start, seconds(30));
  EXPECT_NE(build.status().message().find("more than 2 GiB of memory compiling zero.cu"),
            std::string::npos)
      << build.status().message();
  EXPECT_NE(build.status().message().find("an #include of a device or a huge file?"),
            std::string::npos)
      << build.status().message();
}

// A right solution that leaves a process running (forked before main, in a session of its own)
// fails its check, which says so at the student's file: what outlives the program could change
// what the next case or check sees, and the supervisor ends it, not the program.
TEST_F(Sandbox, ACheckFailsASolutionThatLeavesAProcessRunning) {
  Result<Exercise> e = find_exercise("tile-ranks");
  ASSERT_TRUE(e.ok()) << e.message();
  std::ifstream in(e->solution());
  std::stringstream text;
  text << in.rdbuf();
  std::string source = text.str();
  const size_t kernel = source.find("__global__");
  ASSERT_NE(kernel, std::string::npos);
  source.insert(kernel, R"(#include <unistd.h>
__attribute__((constructor)) static void start_logger() {
  if (fork() == 0) {
    setsid();
    sleep(20);
    _exit(0);
  }
}
)");
  const fs::path file = write_file(dir_ / "logger.cu", source);
  Result<CheckReport> r = check_exercise(*e, file.string());
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(r->compiled) << r->compiler_output;
  EXPECT_FALSE(r->passed());
  size_t said = 0;
  for (const CaseResult& c : r->cases)
    said += !c.passed && c.problem.find("logger.cu: the program left 1 process it started still "
                                        "running when it ended") != std::string::npos;
  EXPECT_EQ(said, r->cases.size()) << "every case of every run says so";
}

// Starts `coopviz ARGS` (with `cache` as XDG_CACHE_HOME), its output discarded.
pid_t start_coopviz(const std::vector<std::string>& args, const fs::path& cache) {
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("XDG_CACHE_HOME", cache.c_str(), 1);
    freopen("/dev/null", "w", stdout);
    std::vector<char*> argv = {const_cast<char*>(COOPVIZ_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(COOPVIZ_BINARY, argv.data());
    _exit(127);
  }
  return pid;
}

TEST_F(Sandbox, KillingCoopvizEndsTheProgramAndWhatItForked) {
  const ProgramOptions o = forking_program(dir_, "escape", "stay");
  ASSERT_TRUE(build_program(o).ok());  // built ahead, so that the run starts at once
  const pid_t coopviz =
      start_coopviz({"run", "--backend", "emu", o.file, "--", o.args[0], "escape", "stay"},
                    coop::testing::program_test_cache());
  const auto end = Clock::now() + seconds(30);
  while (!fs::exists(o.args[0]) && Clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(o.args[0])) << "the program did not start";
  const pid_t sleeper = pid_in(o.args[0]), main = pid_in(o.args[0] + ".main");
  kill(coopviz, SIGKILL);
  waitpid(coopviz, nullptr, 0);
  EXPECT_TRUE(gone_within(main, seconds(2))) << "the program outlived coopviz";
  EXPECT_TRUE(gone_within(sleeper, seconds(2))) << "the escaped sleeper outlived coopviz";
  if (kill(sleeper, 0) == 0) kill(sleeper, SIGKILL);
  if (kill(main, 0) == 0) kill(main, SIGKILL);
}

TEST_F(Sandbox, KillingCoopvizEndsTheCompiler) {
  // The compiler waits for ever to open a FIFO the program includes.
  const fs::path fifo = dir_ / "never.h";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const fs::path file =
      write_file(dir_ / "waits.cu", "#include \"" + fifo.string() + "\"\nint main() {}\n");
  const fs::path cache = dir_ / "cache";
  const pid_t coopviz = start_coopviz({"run", "--backend", "emu", file.string()}, cache);
  const auto end = Clock::now() + seconds(30);
  std::vector<pid_t> compiler;
  while ((compiler = processes_naming(cache.string())).empty() && Clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_FALSE(compiler.empty()) << "no compiler started";
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // into cc1plus, on the FIFO
  compiler = processes_naming(cache.string());
  kill(coopviz, SIGKILL);
  waitpid(coopviz, nullptr, 0);
  for (pid_t p : compiler) EXPECT_TRUE(gone_within(p, seconds(2))) << p << " outlived coopviz";
  for (pid_t p : processes_naming(cache.string())) kill(p, SIGKILL);
}

}  // namespace
}  // namespace coop::app
