// Programs of several source files (app/program/program_files.hpp), as nvcc takes them:
// tests/programs/multi_file/ holds one folder per program, in the styles public code splits
// programs (a sample's host .cpp and kernel .cu, homework's main.cpp + kernels.cu + header,
// separate compilation with extern __device__ and __constant__), each checking its own result.
// They run on the emulator here and on the GPU in the tests named Gpu.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/program/program.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kMultiFileFolder = fs::path(COOPVIZ_SOURCE_DIR) / "tests/programs/multi_file";

struct MultiFileProgram {
  std::string folder;
  std::string arguments;  // the files as the user names them, in their order, and options
  std::string expect;     // the line only a passing run prints
  std::map<std::string, std::string> kernel_files;  // each kernel's own file
  // Kernels whose every launch records events in another file's device code (an atomic in a
  // __device__ function there), into the one trace of the launch.
  std::set<std::string> recorded_elsewhere = {};
};

const MultiFileProgram kPrograms[] = {
    {"sdk_reduction",
     "reduction.cpp reduction_kernel.cu",
     "reduction PASSED",
     {{"reduce_blocks", "reduction_kernel.cu"}}},
    {"course_saxpy",
     "stencil.cu main.cpp kernels.cu",
     "course PASSED",
     {{"saxpy", "kernels.cu"}, {"smooth", "stencil.cu"}}},
    {"rdc_springs",
     "-rdc=true main.cu springs.cu",
     "springs PASSED",
     {{"simulate", "main.cu"}, {"recenter", "springs.cu"}},
     {"simulate"}},
};

// The arguments with each file named by its path.
std::string in_folder(const MultiFileProgram& p) {
  std::string out;
  std::istringstream words(p.arguments);
  for (std::string w; words >> w;)
    out += " " + (w.starts_with("-") ? w : (kMultiFileFolder / p.folder / w).string());
  return out;
}

std::string unqualified(std::string kernel) {
  kernel = kernel.substr(0, kernel.find('<'));
  return kernel.substr(kernel.rfind(':') == std::string::npos ? 0 : kernel.rfind(':') + 1);
}

// Runs the program on `backend` and checks its verdict and that each launch's trace names its
// kernel's own file and carries that file's text; on the emulator every access of every file
// is recorded too, and none races.
void runs_and_names_each_kernels_file(const MultiFileProgram& p, const std::string& backend) {
  const fs::path dir = coop::testing::fresh_folder("multi-file-" + p.folder);
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend " + backend + in_folder(p) + " --trace " + trace +
                             (backend == "emu" ? " --races" : ""));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(p.expect), std::string::npos) << r.out;
  if (backend == "emu") {
    EXPECT_NE(r.out.find("races: none found"), std::string::npos) << r.out;
  }
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_FALSE(launches->empty());
  std::set<std::string> seen;
  for (const coop::Trace& t : *launches) {
    const std::string kernel = unqualified(t.header.kernel);
    ASSERT_TRUE(p.kernel_files.count(kernel)) << t.header.kernel;
    const std::string file = p.kernel_files.at(kernel);
    EXPECT_EQ(t.header.source_file, file) << kernel;
    std::ifstream in(kMultiFileFolder / p.folder / file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(t.header.source, text) << kernel;
    if (p.recorded_elsewhere.count(kernel)) {
      EXPECT_GT(t.recorded(), 0u) << "a launch of " << kernel << " recorded nothing";
    }
    seen.insert(kernel);
  }
  EXPECT_EQ(seen.size(), p.kernel_files.size());
  fs::remove_all(dir);
}

class MultiFile : public ::testing::TestWithParam<MultiFileProgram> {};

TEST_P(MultiFile, RunsOnTheEmulatorAndEachTraceNamesItsKernelsFile) {
  runs_and_names_each_kernels_file(GetParam(), "emu");
}

// Each program built with nvcc (every file -dc, the device link, the one trace sink) and run on
// the GPU: it passes there too, and every file's launches record into the one trace.
TEST_P(MultiFile, GpuRunsAndEachTraceNamesItsKernelsFile) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  runs_and_names_each_kernels_file(GetParam(), "gpu");
}

INSTANTIATE_TEST_SUITE_P(Programs, MultiFile, ::testing::ValuesIn(kPrograms),
                         [](const auto& info) { return info.param.folder; });

// Options that build `files` (the first the program's file) with nvcc, kept where the tests keep
// builds.
coop::app::ProgramOptions gpu_build_of(const std::vector<fs::path>& files) {
  coop::app::ProgramOptions o;
  o.file = files.front().string();
  for (size_t k = 1; k < files.size(); ++k) o.other_files.push_back(files[k].string());
  o.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  return o;
}

// Building for the GPU needs nvcc, not a GPU: the cheapest of the programs here, a host .cpp
// compiled as written and one .cu file of kernels (the others have two .cu files each), whose
// kernels' device code the device link joins to the one trace sink. The Gpu test builds all three.
TEST(MultiFileGpuBuild, CompilesWithRelocatableDeviceCodeAndLinks) {
  const fs::path folder = kMultiFileFolder / "sdk_reduction";
  const coop::Result<coop::app::ProgramBuild> build = coop::app::build_program(
      gpu_build_of({folder / "reduction.cpp", folder / "reduction_kernel.cu"}));
  ASSERT_TRUE(build.ok()) << build.status().message();
  EXPECT_TRUE(fs::exists(build->executable));
  EXPECT_FALSE(build->halves);
  EXPECT_EQ(build->whole_because, "a program of several files: relocatable device code, linked");
  EXPECT_EQ(build->front_end_note, "") << "lowered line by line, the front end's did not compile";
}

// nvcc's words about the second file name it and its line, once, as for a program of one file,
// and no copy coopviz compiled in its place. Two nvcc builds (the front end's lowering, then the
// line-by-line one) cost CI half a minute: this runs where the GPU tests do.
TEST(MultiFileGpuBuild, ACompileErrorNamesItsOwnFileAndLine) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const fs::path dir = coop::testing::fresh_folder("multi-file-gpu-error");
  std::ofstream(dir / "main.cpp") << "void run_it();\nint main() {\n  run_it();\n}\n";
  std::ofstream(dir / "broken.cu") << "#include <cuda_runtime.h>\n__global__ void k(int) {}\n"
                                      "void run_it() {\n  k<<<1, 1>>>(undeclared_name);\n}\n";
  const coop::Result<coop::app::ProgramBuild> build =
      coop::app::build_program(gpu_build_of({dir / "main.cpp", dir / "broken.cu"}));
  ASSERT_FALSE(build.ok());
  const std::string& m = build.status().message();
  const std::string at = (dir / "broken.cu").string() + "(4): error:";
  const size_t first = m.find(at);
  EXPECT_NE(first, std::string::npos) << m;
  EXPECT_EQ(m.find(at, first + 1), std::string::npos) << "said twice: " << m;
  EXPECT_EQ(m.find("main.cpp"), std::string::npos) << m;
  EXPECT_FALSE(std::regex_search(m, std::regex(R"(broken\.\d)"))) << "no copy's name: " << m;
  EXPECT_EQ(m.find("trace_sink"), std::string::npos) << m;
  fs::remove_all(dir);
}

// A program of several files that asks for its kernels' resources gets the compiler's report of
// each file's kernels (each .cu file's PTX as nvcc -rdc=true makes it, a call of the other file's
// __device__ function left to the link): cudaFuncGetAttributes answers for a kernel of either file
// as ptxas does, and --json lists each kernel with its file.
TEST(MultiFileResources, EachFilesKernelsAreReportedWithTheirOwnFile) {
  if (std::system(("command -v " + coop::app::nvcc_command() + " >/dev/null").c_str()) != 0)
    GTEST_SKIP() << "no nvcc here";
  const fs::path dir = coop::testing::fresh_folder("multi-file-resources");
  std::ofstream(dir / "tiles.cu")
      << "#include <cuda_runtime.h>\n#include <cstdio>\n"
         "__global__ void add_one(float* v, int n);  // more.cu\n"
         "void add_one_to(float* v, int n);          // more.cu\n"
         "__device__ float plus_one(float x) { return x + 1.0f; }\n"
         "__global__ void double_in_tiles(float* v, int n) {\n"
         "  __shared__ float tile[256];\n"
         "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  tile[threadIdx.x] = i < n ? v[i] : 0.0f;\n"
         "  __syncthreads();\n"
         "  if (i < n) v[i] = 2.0f * tile[255 - threadIdx.x];\n"
         "}\n"
         "int main() {\n"
         "  const int n = 256;\n"
         "  float host[n], *v;\n"
         "  for (int i = 0; i < n; ++i) host[i] = float(i);\n"
         "  cudaMalloc(&v, sizeof host);\n"
         "  cudaMemcpy(v, host, sizeof host, cudaMemcpyHostToDevice);\n"
         "  cudaFuncAttributes tiles{}, one{};\n"
         "  cudaFuncGetAttributes(&tiles, double_in_tiles);\n"
         "  cudaFuncGetAttributes(&one, add_one);\n"
         "  double_in_tiles<<<1, 256>>>(v, n);\n"
         "  add_one_to(v, n);\n"
         "  cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost);\n"
         "  int wrong = 0;\n"
         "  for (int i = 0; i < n; ++i) wrong += host[i] != 2.0f * float(255 - i) + 1.0f;\n"
         "  std::printf(\"smem %zu and %zu, %d wrong\\n\", tiles.sharedSizeBytes,\n"
         "              one.sharedSizeBytes, wrong);\n"
         "  const bool ok = wrong == 0 && tiles.sharedSizeBytes == 1024 && one.sharedSizeBytes == "
         "0;\n"
         "  std::printf(\"resources %s\\n\", ok ? \"PASSED\" : \"FAILED\");\n"
         "  return ok ? 0 : 1;\n"
         "}\n";
  std::ofstream(dir / "more.cu")
      << "#include <cuda_runtime.h>\n"
         "__device__ float plus_one(float x);  // tiles.cu\n"
         "__global__ void add_one(float* v, int n) {\n"
         "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) v[i] = plus_one(v[i]);\n"
         "}\n"
         "void add_one_to(float* v, int n) { add_one<<<(n + 127) / 128, 128>>>(v, n); }\n";
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend emu --json -rdc=true " + (dir / "tiles.cu").string() +
                             " " + (dir / "more.cu").string());
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 0) << j.dump(2) << r.err;
  EXPECT_NE(j.value("stdout", "").find("resources PASSED"), std::string::npos) << j.dump(2);
  std::map<std::string, std::string> files;
  for (const nlohmann::json& k : j.value("kernel_resources", nlohmann::json::array())) {
    files[k.value("kernel", "")] = k.value("file", "");
    EXPECT_GT(k.value("regs", 0), 0) << k.dump();
    if (k.value("kernel", "") == "double_in_tiles") {
      EXPECT_EQ(k.value("static_smem", 0), 1024);
    }
  }
  EXPECT_EQ(files["double_in_tiles"], (dir / "tiles.cu").string()) << j.dump(2);
  EXPECT_EQ(files["add_one"], (dir / "more.cu").string()) << j.dump(2);
  fs::remove_all(dir);
}

// The files come in any order; the words after -- are the program's, source-like or not.
TEST(MultiFileCli, FilesInAnyOrderAndArgumentsAfterTheSeparator) {
  // main.cpp second, as kPrograms names it (whose build this run shares).
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend emu" + in_folder(kPrograms[1]) + " -- 300 x.cu");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("300 values, 0 wrong"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("course PASSED"), std::string::npos) << r.out;
}

// A compile error in any file names that file and line; the files are named in the verdict.
TEST(MultiFileCli, ACompileErrorNamesItsOwnFileAndLine) {
  const fs::path dir = coop::testing::fresh_folder("multi-file-error");
  std::ofstream(dir / "main.cpp") << "void run_it();\nint main() {\n  run_it();\n}\n";
  std::ofstream(dir / "broken.cu") << "#include <cuda_runtime.h>\n__global__ void k() {}\n"
                                      "void run_it() {\n  k<<<1, 1>>>(undeclared_name);\n}\n";
  const coop::testing::Ran r = coop::testing::coopviz(
      "run --backend emu " + (dir / "main.cpp").string() + " " + (dir / "broken.cu").string());
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find((dir / "broken.cu").string() + ":4:"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("main.cpp:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("main.cpp, " + (dir / "broken.cu").string() + " did not compile"),
            std::string::npos)
      << r.err;
  fs::remove_all(dir);
}

TEST(MultiFileCli, FilesThatCannotBeCompiledAreClearErrors) {
  const fs::path dir = coop::testing::fresh_folder("multi-file-bad");
  const std::string main = (kMultiFileFolder / "course_saxpy/main.cpp").string();
  fs::create_directories(dir / "folder.cu");
  const struct {
    std::string argument, words;
  } cases[] = {
      {(dir / "missing.cu").string(), "no program file '" + (dir / "missing.cu").string() + "'"},
      {(dir / "folder.cu").string(), "folder.cu"},
      {(kMultiFileFolder / "rdc_springs/springs.cuh").string(), "is a header"},
      {main, "is named twice"},
  };
  for (const auto& c : cases) {
    const coop::testing::Ran r =
        coop::testing::coopviz("run --backend emu " + main + " " + c.argument);
    EXPECT_EQ(r.exit_code, 2) << c.argument << "\n" << r.err;
    EXPECT_NE(r.err.find(c.words), std::string::npos) << c.argument << "\n" << r.err;
  }
  fs::remove_all(dir);
}

}  // namespace
