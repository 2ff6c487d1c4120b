// tests/programs/styles/: whole programs written the way public CUDA code is written (an SDK
// sample with its helper header, course homework, book chapters, blog posts), each checking its
// own result. Each one runs unmodified on the emulator, builds with nvcc for the GPU and, where
// there is one, runs on the GPU with the same launches as on the emulator.
//
// A program's first comment lines say how to run it: `// run: ARGS` (coopviz options: "-I common",
// relative to the folder, and "-D N=4096"; there may be several such lines) and `// expect: TEXT`
// (a line of its output that only a passing run prints). Each is built with nvcc where a GPU runs
// it; where there is none, only those marked `// nvcc: also without a GPU` are
// (COOPVIZ_NVCC_BUILD_ONLY_WITH_A_GPU_UNLESS).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "app/program/program.hpp"
#include "device/trace/compare.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kStylesFolder = fs::path(COOPVIZ_SOURCE_DIR) / "tests/programs/styles";

struct StyleProgram {
  std::string name;                   // file name
  std::vector<std::string> includes;  // -I folders, absolute
  std::vector<std::string> defines;   // -D NAME=VALUE
  std::string expect;                 // the output line of a passing run
  bool nvcc_without_gpu = false;      // built with nvcc where there is no GPU too
};

StyleProgram read_program(const fs::path& file) {
  StyleProgram p{file.filename().string(), {}, {}, ""};
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && line.rfind("//", 0) == 0) {
    if (line.rfind("// expect: ", 0) == 0) p.expect = line.substr(11);
    if (line == "// nvcc: also without a GPU") p.nvcc_without_gpu = true;
    if (line.rfind("// run: ", 0) == 0) {
      std::istringstream words(line.substr(8));
      for (std::string w; words >> w;)
        if (w == "-I" && words >> w)
          p.includes.push_back((kStylesFolder / w).string());
        else if (w == "-D" && words >> w)
          p.defines.push_back(w);
    }
  }
  return p;
}

// gtest names a parameter by this rather than by its bytes.
void PrintTo(const StyleProgram& p, std::ostream* os) {
  *os << p.name;
}

std::string source_of(const StyleProgram& p) {
  std::ifstream in(kStylesFolder / p.name);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<StyleProgram> all_programs() {
  std::vector<StyleProgram> out;
  for (const fs::directory_entry& e : fs::directory_iterator(kStylesFolder))
    if (e.path().extension() == ".cu") out.push_back(read_program(e.path()));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

std::string stem(const StyleProgram& p) {
  return fs::path(p.name).stem().string();
}

using coop::testing::coopviz;

// On the emulator with --check-memory: a correct program reads no memory that nothing wrote,
// whether its kernels, its host code or a library's calls (CUB's, on the host or in a kernel)
// wrote it.
std::string run_args(const StyleProgram& p, const std::string& backend, const std::string& trace) {
  std::string args = "run --backend " + backend + (backend == "emu" ? " --check-memory " : " ") +
                     (kStylesFolder / p.name).string();
  for (const std::string& dir : p.includes) args += " -I " + dir;
  for (const std::string& d : p.defines) args += " -D " + d;
  return args + " --trace " + trace;
}

class StylePrograms : public ::testing::TestWithParam<StyleProgram> {};

TEST(StyleProgramFolder, HoldsThirtyProgramsThatEachSayWhatPassingPrints) {
  const std::vector<StyleProgram> programs = all_programs();
  EXPECT_GE(programs.size(), 30u);
  for (const StyleProgram& p : programs) EXPECT_FALSE(p.expect.empty()) << p.name;
}

TEST_P(StylePrograms, RunUnmodifiedOnTheEmulatorAndPass) {
  const StyleProgram& p = GetParam();
  const std::string trace = (fs::temp_directory_path() / ("style-" + stem(p) + ".cvt")).string();
  const coop::testing::Ran r = coopviz(run_args(p, "emu", trace));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(p.expect), std::string::npos) << r.out << r.err;
  // A program without kernels (a copy-bandwidth test) leaves no trace.
  const std::string text = source_of(p);
  if (text.find("<<<") == std::string::npos && text.find("cudaLaunch") == std::string::npos &&
      text.find("cudaGraphLaunch") == std::string::npos) {
    EXPECT_FALSE(fs::exists(trace));
    return;
  }
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  EXPECT_FALSE(launches->empty());
  for (const coop::Trace& t : *launches) EXPECT_EQ(t.dropped(), 0u) << t.header.kernel;
  fs::remove(trace);
}

// Building for a GPU needs nvcc, not a GPU.
TEST_P(StylePrograms, BuildForTheGpuWithNvcc) {
  const StyleProgram& p = GetParam();
  COOPVIZ_NVCC_BUILD_ONLY_WITH_A_GPU_UNLESS(p.nvcc_without_gpu);
  coop::app::ProgramOptions o;
  o.file = (kStylesFolder / p.name).string();
  o.includes = p.includes;
  o.defines = p.defines;
  o.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  auto build = coop::app::build_program(o);
  ASSERT_TRUE(build.ok()) << build.status().message();
  EXPECT_TRUE(fs::exists(build->executable));
}

INSTANTIATE_TEST_SUITE_P(Styles, StylePrograms, ::testing::ValuesIn(all_programs()),
                         [](const auto& info) { return stem(info.param); });

// On a GPU: the program passes there too, makes the same launches as on the emulator, and each
// launch's trace agrees with the emulator's on every deterministic field, except in programs
// whose results depend on which atomic lands first (marked `// order: atomics`).
class StyleProgramsGpu : public ::testing::TestWithParam<StyleProgram> {};

TEST_P(StyleProgramsGpu, PassOnTheGpuWithTheEmulatorsLaunches) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const StyleProgram& p = GetParam();
  const fs::path dir = fs::temp_directory_path();
  const std::string on_gpu = (dir / ("style-" + stem(p) + "-gpu.cvt")).string();
  const std::string on_emu = (dir / ("style-" + stem(p) + "-emu.cvt")).string();
  const coop::testing::Ran g = coopviz(run_args(p, "gpu", on_gpu));
  ASSERT_EQ(g.exit_code, 0) << g.out << g.err;
  EXPECT_NE(g.out.find(p.expect), std::string::npos) << g.out << g.err;
  const coop::testing::Ran e = coopviz(run_args(p, "emu", on_emu));
  ASSERT_EQ(e.exit_code, 0) << e.out << e.err;
  auto gpu = coop::load_traces(on_gpu);
  auto emu = coop::load_traces(on_emu);
  ASSERT_EQ(gpu.ok(), emu.ok());  // neither, for a program without kernels
  if (!gpu.ok()) return;
  ASSERT_EQ(gpu->size(), emu->size());
  const bool atomic_order = source_of(p).find("// order: atomics") != std::string::npos;
  for (size_t k = 0; k < gpu->size(); ++k) {
    EXPECT_EQ((*gpu)[k].header.kernel, (*emu)[k].header.kernel);
    const coop::TraceDiff diff = coop::compare_deterministic((*emu)[k], (*gpu)[k]);
    std::printf("%s launch %zu (%s): %llu events compared, %llu differ\n", p.name.c_str(), k,
                (*gpu)[k].header.kernel.c_str(), (unsigned long long)diff.events_compared,
                (unsigned long long)diff.mismatches);
    if (!atomic_order) EXPECT_TRUE(diff.equal()) << (diff.examples.empty() ? "" : diff.examples[0]);
  }
  fs::remove(on_gpu);
  fs::remove(on_emu);
}

INSTANTIATE_TEST_SUITE_P(Device, StyleProgramsGpu, ::testing::ValuesIn(all_programs()),
                         [](const auto& info) { return stem(info.param); });

}  // namespace
