// The command-line tests run the real binary (COOPVIZ_BINARY, set in tests/CMakeLists.txt).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <cuda_runtime_api.h>

namespace coop::testing {

// Whether a GPU is here to run what nvcc builds.
inline bool gpu_here() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

// An nvcc build costs about ten CPU-seconds, whatever the program (CUDA 13's headers), so where no
// GPU can run it only one program of each way nvcc builds is built (`each_way`); a machine with a
// GPU builds them all, and runs them.
#define COOPVIZ_NVCC_BUILD_ONLY_WITH_A_GPU_UNLESS(each_way)                                    \
  if (!(each_way) && !coop::testing::gpu_here())                                               \
  GTEST_SKIP() << "nvcc builds this program where a GPU runs it; without one, one program of " \
                  "each way nvcc builds is built"

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
inline Ran run_coopviz(const std::string& args) {
  return run_coopviz_env("", args);
}

// Where tests keep program builds (XDG_CACHE_HOME), beside the binary and shared by the tests.
inline std::string program_test_cache() {
  const std::string binary = COOPVIZ_BINARY;
  return binary.substr(0, binary.rfind('/')) + "/program-test-cache";
}

// A fresh, empty folder for the files a test writes, named after it and this process, and removed
// when this process ends (by this process only: a child it forked that exits leaves it be).
inline std::filesystem::path fresh_folder(const std::string& name) {
  static struct Made {
    pid_t owner = getpid();
    std::vector<std::filesystem::path> folders;
    ~Made() {
      std::error_code ec;
      if (getpid() == owner)
        for (const std::filesystem::path& f : folders) std::filesystem::remove_all(f, ec);
    }
  } made;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("coopviz-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  made.folders.push_back(dir);
  return dir;
}

// `coopviz ARGS` with program builds in program_test_cache().
inline Ran coopviz(const std::string& args) {
  return run_coopviz_env("XDG_CACHE_HOME=" + program_test_cache(), args);
}

// The whole of the file at `path` ("" when it cannot be read).
inline std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

#ifdef COOPVIZ_FRONT_END
// Whether coopviz-frontend is here: the build's (COOPVIZ_FRONT_END), or the one COOPVIZ_FRONTEND
// names.
inline bool have_front_end() {
  const char* env = std::getenv("COOPVIZ_FRONTEND");
  return env && *env ? std::filesystem::exists(env) : std::filesystem::exists(COOPVIZ_FRONT_END);
}
#endif

// The test program `name` (a path under tests/programs/).
inline std::string program(const std::string& name) {
  return std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/" + name;
}

}  // namespace coop::testing
