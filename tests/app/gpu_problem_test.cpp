// What the app tells a student when the GPU cannot run a lesson, and where it finds a recorded
// trace to offer instead.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "app/gui/gpu_problem.hpp"
#include "device/gpu/device_query.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

constexpr BackendRequest kAuto = BackendRequest::Auto, kAskGpu = BackendRequest::Gpu,
                         kAskEmu = BackendRequest::Emu;
constexpr std::optional<Backend> kNone, kRanGpu = Backend::Gpu, kRanEmu = Backend::Emu;

struct Case {
  BackendRequest requested;
  std::optional<Backend> used;  // the backend that ran (none when none could be made)
  const char* message;
  GpuProblem kind;
};

// The messages as device/gpu, device/launch and the lessons word them.
const Case kCases[] = {
    {kAskGpu, kNone, "No CUDA device: none was found", GpuProblem::NoGpu},
    {kAskGpu, kNone, "No CUDA device: no CUDA-capable device is detected", GpuProblem::NoGpu},
    {kAskGpu, kNone, "GPU 0 does not exist: 0 CUDA device(s) found", GpuProblem::NoGpu},
    {kAskGpu, kNone,
     "cudaSetDevice(index_) failed: all CUDA-capable devices are busy or unavailable "
     "(device/gpu/gpu_executor.cpp:31)",
     GpuProblem::NoGpu},
    {kAskGpu, kNone, "No CUDA device: no NVIDIA driver is installed (libcuda.so.1 not found)",
     GpuProblem::NoDriver},
    {kAskGpu, kNone, "No CUDA device: the NVIDIA driver is older than this CUDA 13 runtime needs",
     GpuProblem::OldDriver},
    {kAskGpu, kRanGpu,
     "NVIDIA Tesla T4 does not support cooperative launch (cudaDevAttrCooperativeLaunch is 0)",
     GpuProblem::NoCooperative},
    {kAuto, kRanGpu,
     "lesson clusters needs compute capability 9.0; Tesla V100-SXM2-16GB is 7.0 (run it on the "
     "emulator)",
     GpuProblem::TooOld},
    {kAskGpu, kRanGpu,
     "thread block clusters need compute capability 9.0 or newer; NVIDIA A100-SXM4-40GB is 8.0",
     GpuProblem::TooOld},
    {kAskGpu, kRanGpu,
     "lesson synchronization-hazards demonstrates a hazard (a deadlock or undefined behaviour) "
     "and runs only on the emulator, which reports it instead of hanging",
     GpuProblem::EmulatorOnly},
    {kAskGpu, kRanGpu,
     "variant 2 (a sync() between arrive and wait) deadlocks on purpose; it runs only on the "
     "emulator, which reports the hazard instead of hanging or corrupting data (use --backend "
     "emu)",
     GpuProblem::EmulatorOnly},
    {kAskGpu, kRanGpu, "grid_sum did not finish within 10 s on the GPU; it may be spinning forever",
     GpuProblem::Timeout},
    {kAuto, kRanGpu,
     "block_sum failed on the GPU: an illegal memory access was encountered (the CUDA context "
     "is now unusable; restart coopviz or use the emulator)",
     GpuProblem::Fault},
    {kAskGpu, kRanGpu, "launching block_sum failed: unspecified launch failure", GpuProblem::Fault},
    {kAskGpu, kRanGpu, "cudaMalloc(1073741824 bytes) failed: out of memory", GpuProblem::Fault},
    {kAskGpu, kRanGpu, "setting the trace sink failed: an illegal memory access was encountered",
     GpuProblem::Fault},
    // Not the GPU's doing: the message already says what to change.
    {kAskGpu, kRanGpu,
     "block of 2048 threads (2048x1x1) exceeds the limit of 1024 threads per block",
     GpuProblem::None},
    {kAskGpu, kRanGpu,
     "grid of 600 blocks exceeds the 264 that can be co-resident on NVIDIA H100 80GB HBM3 with "
     "1024 threads per block: cooperative launch refused",
     GpuProblem::None},
    // The emulator was chosen or stood in: there is no GPU to explain.
    {kAskEmu, kRanEmu, "deadlock: thread 3 waits at line 12", GpuProblem::None},
    {kAuto, kRanEmu, "deadlock: thread 3 waits at line 12", GpuProblem::None},
    {kAskEmu, kNone, "--emulate 'sm_99': no such preset", GpuProblem::None},
};

TEST(GpuProblem, ThisMachinesMissingGpuIsExplained) {
  Result<std::vector<DeviceProps>> gpus = query_gpus();
  if (gpus) GTEST_SKIP() << "this machine has a GPU";
  const GpuProblemText p = explain_gpu_problem(kAskGpu, kNone, gpus.status());
  EXPECT_TRUE(p.kind == GpuProblem::NoGpu || p.kind == GpuProblem::NoDriver ||
              p.kind == GpuProblem::OldDriver)
      << to_string(p.kind) << " for: " << gpus.message();
  EXPECT_FALSE(p.title.empty());
  EXPECT_NE(p.explanation.find("emulator"), std::string::npos) << p.explanation;
}

TEST(GpuProblem, EachKindFromTheMessagesTheBackendsGive) {
  for (const Case& c : kCases) {
    const GpuProblemText p = explain_gpu_problem(c.requested, c.used, Status::error(c.message));
    EXPECT_EQ(p.kind, c.kind) << c.message << ": got " << to_string(p.kind);
    if (c.kind == GpuProblem::None) {
      EXPECT_EQ(p.title, "") << c.message;
      EXPECT_EQ(p.explanation, "") << c.message;
    } else {
      EXPECT_FALSE(p.title.empty()) << c.message;
      EXPECT_NE(p.explanation.find("emulator"), std::string::npos)
          << c.message << ": the way on is named: " << p.explanation;
    }
  }
  EXPECT_EQ(explain_gpu_problem(kAskGpu, kRanGpu, Status()).kind, GpuProblem::None)
      << "a run that worked";
}

TEST(GpuProblem, EveryKindIsToldInItsOwnWords) {
  std::map<GpuProblem, GpuProblemText> told;
  for (const Case& c : kCases)
    if (c.kind != GpuProblem::None)
      told[c.kind] = explain_gpu_problem(c.requested, c.used, Status::error(c.message));
  EXPECT_EQ(told.size(), size_t(GpuProblem::Timeout)) << "a message for every kind but None";
  std::set<std::string> names, titles, explanations;
  for (const auto& [kind, p] : told) {
    EXPECT_TRUE(names.insert(to_string(kind)).second) << to_string(kind);
    EXPECT_TRUE(titles.insert(p.title).second) << p.title;
    EXPECT_TRUE(explanations.insert(p.explanation).second) << p.explanation;
  }
  EXPECT_STREQ(to_string(GpuProblem::None), "none");
  EXPECT_STREQ(to_string(GpuProblem::NoGpu), "no-gpu");
  EXPECT_STREQ(to_string(GpuProblem::Timeout), "timeout");
}

TEST(GpuProblem, RecordedTracesAreFoundUnderCoopvizAssets) {
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("coopviz-assets-test-" + std::to_string(getpid()));
  fs::create_directories(root / "traces");
  std::ofstream(root / "traces" / "block-reduce.cvt") << "x";
  setenv("COOPVIZ_ASSETS", root.c_str(), 1);
  EXPECT_EQ(recorded_trace_path("block-reduce"), (root / "traces" / "block-reduce.cvt").string());
  EXPECT_EQ(recorded_trace_path("no-such-lesson"), "");
  // A lesson the folder lacks is still found where coopviz ships it.
  EXPECT_EQ(fs::path(recorded_trace_path("grid-sync")),
            (fs::path(COOPVIZ_SOURCE_DIR) / "assets/traces/grid-sync.cvt").lexically_normal());
  unsetenv("COOPVIZ_ASSETS");
  fs::remove_all(root);
}

TEST(GpuProblem, EveryLessonsShippedTraceIsFound) {
  // A test binary is not installed: the traces are those of the source tree it was built from.
  unsetenv("COOPVIZ_ASSETS");
  for (const lessons::LessonDef& l : lessons::registry()) {
    const std::filesystem::path want =
        std::filesystem::path(COOPVIZ_SOURCE_DIR) / "assets/traces" / (l.id + ".cvt");
    // A new lesson ships no trace until one is recorded on a GPU (ShippedTraces names it).
    if (!std::filesystem::exists(want)) continue;
    EXPECT_EQ(std::filesystem::path(recorded_trace_path(l.id)), want.lexically_normal()) << l.id;
  }
}

}  // namespace
}  // namespace coop::app
