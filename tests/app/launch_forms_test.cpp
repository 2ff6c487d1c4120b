// The launch-forms corpus (tests/programs/launch_forms/form_*.cu): small CUDA programs, each in
// a form public CUDA code launches kernels in and each checking its own result, run unmodified
// through `coopviz run` as a user would. The first line of each names the launches it makes, in
// order, as the trace names them ("// kernels: scale<float>, scale<int>").
//
// On the emulator they need the C++ front end (device/lowering/front_end.hpp): the line lowering
// alone refuses many of them, so here the front end must have read every file. On a GPU they run
// on the GPU backend too (skipped where there is none); CI also compiles each with nvcc as it is
// (tests/CMakeLists.txt), the proof that each is plain CUDA.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

fs::path corpus() {
  return fs::path(COOPVIZ_SOURCE_DIR) / "tests/programs/launch_forms";
}

std::vector<std::string> forms() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(corpus(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("form_") && name.ends_with(".cu")) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The names on the file's "// kernels:" line, split at the commas outside <> and [].
std::vector<std::string> expected_kernels(const std::string& file) {
  std::ifstream in(corpus() / file);
  std::string line;
  std::getline(in, line);
  const std::string tag = "// kernels: ";
  std::vector<std::string> names;
  if (!line.starts_with(tag)) return names;
  std::string name;
  int depth = 0;
  for (char c : line.substr(tag.size())) {
    depth += (c == '<' || c == '[') - (c == '>' || c == ']');
    if (c == ',' && depth == 0) {
      names.push_back(name);
      name.clear();
    } else if (!(c == ' ' && name.empty())) {
      name += c;
    }
  }
  names.push_back(name);
  return names;
}

using coop::testing::coopviz;

// `coopviz run --json` of a form on `backend`, checked: it passed its own check, the front end
// read it, and its launches are the ones its first line names.
void run_form(const std::string& file, const std::string& backend) {
  const std::vector<std::string> kernels = expected_kernels(file);
  ASSERT_FALSE(kernels.empty()) << file << " does not name its kernels on its first line";
  const coop::testing::Ran r = coopviz("run --json --trace-launches all --backend " + backend +
                                       " " + (corpus() / file).string());
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  ASSERT_EQ(j.value("status", ""), "ran") << j.dump(2) << r.err;
  EXPECT_EQ(r.exit_code, 0) << j.dump(2) << r.err;
  EXPECT_NE(j.value("stdout", "").find("PASSED"), std::string::npos) << j.dump(2);
  EXPECT_FALSE(j.contains("front_end_note")) << j["front_end_note"];
  std::vector<std::string> launched;
  for (const auto& l : j["launches"]) launched.push_back(l["kernel"]);
  EXPECT_EQ(launched, kernels);
}

class LaunchForms : public ::testing::TestWithParam<std::string> {};

// The front end coopviz finds (device/paths/data_dirs.hpp): the build's, or COOPVIZ_FRONTEND's.
using coop::testing::have_front_end;

TEST_P(LaunchForms, RunOnTheEmulatorAndPassTheirOwnCheck) {
  if (!have_front_end()) GTEST_SKIP() << "no C++ front end (built with COOPVIZ_FRONTEND=OFF)";
  run_form(GetParam(), "emu");
}

TEST_P(LaunchForms, RunOnTheGpuAndPassTheirOwnCheck) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  ASSERT_TRUE(have_front_end()) << "the GPU script carries coopviz-frontend (scripts/gpu-check.sh)";
  run_form(GetParam(), "gpu");
}

INSTANTIATE_TEST_SUITE_P(Corpus, LaunchForms, ::testing::ValuesIn(forms()),
                         [](const auto& info) { return fs::path(info.param).stem().string(); });

// coopviz-frontend's output for `file`, with its precompiled prelude kept in `pch_dir` ("": none),
// without Clang's error count (the errors of the precompiled headers were counted when they were
// made).
std::string front_end_edits(const fs::path& file, const std::string& pch_dir) {
  const std::string cmd =
      std::string(COOPVIZ_FRONT_END) + " " + file.string() +
      " --show-stores= --show-loads=" + (pch_dir.empty() ? "" : " --pch-dir=" + pch_dir) + " < " +
      file.string();
  std::string out;
  if (FILE* pipe = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    EXPECT_EQ(pclose(pipe), 0) << cmd;
  }
  const size_t errors = out.find(" errors=");
  if (errors != std::string::npos) out.erase(errors, out.find(' ', errors + 1) - errors);
  return out;
}

// The front end reads CUDA's headers precompiled, with Cooperative Groups where the source
// includes it ahead of anything of its own, and finds the same edits as reading them as text:
// the first read makes each prelude, the next reads it.
TEST(LaunchFormsCorpus, ThePrecompiledPreludeLeavesEveryEditAsItWas) {
  if (!fs::exists(COOPVIZ_FRONT_END)) GTEST_SKIP() << "no C++ front end";
  const fs::path dir = fs::temp_directory_path() / ("coopviz-fe-pch-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A macro before Cooperative Groups keeps them read as text where the source includes them.
  std::ofstream(dir / "defines_first.cu")
      << "#define _CG_ABI_EXPERIMENTAL\n#include <cooperative_groups.h>\n"
         "namespace cg = cooperative_groups;\n"
         "__global__ void k(int* x) { x[cg::this_thread_block().thread_rank()] = 1; }\n"
         "int main() { int* x; cudaMalloc(&x, 128); k<<<1, 32>>>(x); }\n";
  std::vector<fs::path> files = {dir / "defines_first.cu",
                                 fs::path(COOPVIZ_SOURCE_DIR) / "tests/programs/tile_ranks.cu"};
  for (const std::string& f : forms())  // a cooperative launch, and a launch in a macro
    if (f.starts_with("form_19_cooperative") || f.starts_with("form_24_macro"))
      files.push_back(corpus() / f);
  const std::string kept = (dir / "pch").string();
  for (const fs::path& f : files) {
    const std::string text = front_end_edits(f, "");
    EXPECT_NE(text.find("launches="), std::string::npos) << f;
    EXPECT_EQ(front_end_edits(f, kept), text) << f;
    EXPECT_EQ(front_end_edits(f, kept), text) << f << " (prelude read)";
  }
  // One prelude with Cooperative Groups, one without; none half written.
  std::vector<std::string> preludes;
  for (const auto& e : fs::directory_iterator(kept)) preludes.push_back(e.path().filename());
  EXPECT_EQ(preludes.size(), 2u);
  for (const std::string& p : preludes) EXPECT_TRUE(p.ends_with(".pch")) << p;
  fs::remove_all(dir);
}

TEST(LaunchFormsCorpus, HoldsAtLeastFortyForms) {
  EXPECT_GE(forms().size(), 40u);
}

}  // namespace
