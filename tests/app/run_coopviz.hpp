// The command-line tests run the real binary (COOPVIZ_BINARY, set in tests/CMakeLists.txt).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace coop::testing {

struct Ran {
  int exit_code = -1;  // -1: it did not exit normally
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs `ENV coopviz ARGS` through the shell, so ARGS may quote (ENV: "NAME=value ..." or "").
inline Ran run_coopviz_env(const std::string& env, const std::string& args) {
  Ran r;
  char err_path[] = "/tmp/coopviz-test-stderr-XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd < 0) return r;
  close(fd);
  const std::string cmd = env + " " + std::string(COOPVIZ_BINARY) + " " + args + " 2>" + err_path;
  if (FILE* pipe = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::ifstream in(err_path);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::remove(err_path);
  return r;
}

// Runs `coopviz ARGS` through the shell, so ARGS may quote.
inline Ran run_coopviz(const std::string& args) { return run_coopviz_env("", args); }

}  // namespace coop::testing
