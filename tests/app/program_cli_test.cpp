// `coopviz run FILE.cu`: ordinary CUDA programs (tests/programs) built for the emulator and run
// unmodified, with their output, exit status and traced launches; and programs that fail to
// compile, deadlock, crash or never end, each reported in plain words without harm to coopviz.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "app/program/program.hpp"
#include "device/trace/compare.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

using coop::testing::program;

// `coopviz ARGS`, with program builds cached beside the binary (shared by the tests).
using coop::testing::coopviz;

struct Case {
  const char* file;
  std::vector<std::string> kernels;  // the launches the program makes, in order
};

class Programs : public ::testing::TestWithParam<Case> {};

TEST_P(Programs, RunUnmodifiedPassTheirOwnCheckAndTraceEveryLaunch) {
  const Case c = GetParam();
  const std::string stem = std::filesystem::path(c.file).stem().string();
  const std::string trace = (std::filesystem::temp_directory_path() / (stem + ".cvt")).string();
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program(c.file) + " --trace " + trace);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), c.kernels.size());
  bool some_events = false;
  for (size_t k = 0; k < c.kernels.size(); ++k) {
    const coop::Trace& t = (*launches)[k];
    EXPECT_EQ(t.header.kernel, c.kernels[k]);
    EXPECT_EQ(t.dropped(), 0u);
    EXPECT_EQ(t.header.source_file, std::filesystem::path(c.file).filename().string());
    some_events |= !t.events.empty();
  }
  EXPECT_TRUE(some_events);
  std::filesystem::remove(trace);
}

INSTANTIATE_TEST_SUITE_P(
    Emulator, Programs,
    ::testing::Values(
        Case{"tile_ranks.cu", {"tile_ranks"}}, Case{"grid_sync_sum.cu", {"two_phase_sum"}},
        Case{"cluster_exchange.cu", {"neighbour_rank"}},
        Case{"warp_aggregated_atomics.cu", {"keep_odd"}}, Case{"warp_intrinsics.cu", {"warp_ops"}},
        Case{"kernel_forms.cu", {"scale_all<float, 2>", "scale_all<double, 4>", "block_sums"}},
        Case{"runtime_calls.cu", {"prefix_sums"}}, Case{"partitions_and_copies.cu", {"parts"}},
        Case{"shared_histogram.cu", {"histogram"}},
        Case{"barrier_double_buffer.cu", {"weighted_sums"}},
        Case{"pipeline_stages.cu", {"staged_block", "staged_threads"}},
        Case{"partial_tiles.cu", {"tile_sums"}}, Case{"wide_values.cu", {"neighbours"}},
        Case{"block_votes.cu", {"votes"}}, Case{"pitched_rows.cu", {"double_rows"}},
        Case{"every_name.cu", {"groups", "memory"}}, Case{"custom_values.cu", {"summarize"}},
        Case{"pipeline_roles.cu", {"produce_consume"}},
        Case{"warp_match_reduce.cu", {"match_and_reduce"}}, Case{"mixed_min_max.cu", {"mixed"}},
        Case{"device_intrinsics.cu", {"intrinsics"}}),
    [](const auto& info) { return std::filesystem::path(info.param.file).stem().string(); });

TEST(ProgramCli, JsonKeepsTheProgramsOutputApartFromTheReport) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("tile_ranks.cu") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "stdout is the report only: " << r.out;
  EXPECT_EQ(j["stdout"], "PASSED (0 wrong)\n");
  EXPECT_EQ(j["launches"].size(), 1u);
  EXPECT_EQ(j["launches"][0]["kernel"], "tile_ranks");
  EXPECT_EQ(j["exit_code"], 0);
}

// The schedule and seed reach the program's child process: its launches ran under them, and the
// report names them.
TEST(ProgramCli, TheScheduleAndSeedReachTheProgramsLaunches) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("tile_ranks.cu") + " --schedule its --seed 4 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["schedule"], "its");
  EXPECT_EQ(j["seed"], 4);
  ASSERT_EQ(j["launches"].size(), 1u);
  EXPECT_EQ(j["launches"][0]["schedule"].get<std::string>().rfind("its schedule, seed 4;", 0), 0u)
      << j["launches"][0].dump();
  EXPECT_EQ(j["stdout"], "PASSED (0 wrong)\n");
}

TEST(LessonCli, TheScheduleAndSeedAreInTheJson) {
  const coop::testing::Ran r =
      coopviz("run atomics-and-races --backend emu --schedule random --seed 5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["schedule"], "random");
  EXPECT_EQ(j["seed"], 5);
  EXPECT_EQ(j["trace"]["schedule"].get<std::string>().rfind("random schedule, seed 5;", 0), 0u)
      << j["trace"].dump();
  EXPECT_EQ(j["passed"], true);
}

// The line of `file` (under tests/programs) that holds `text`.
int line_holding(const std::string& file, const std::string& text) {
  std::ifstream in(program(file));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  ADD_FAILURE() << file << " has no line with " << text;
  return 0;
}

// The row of a `memory` report for one line, space and kind, or null.
const nlohmann::json* memory_row(const nlohmann::json& report, int line, const char* space,
                                 const char* kind) {
  for (const auto& row : report["memory"])
    if (row["line"] == line && row["space"] == space && row["kind"] == kind) return &row;
  return nullptr;
}

TEST(ProgramCli, RecordMemoryReportsEachLinesAccesses) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("shared_histogram.cu") + " --record-memory --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  // A warp reads 32 consecutive bytes: one sector per request.
  const nlohmann::json* input = memory_row(
      j, line_holding("shared_histogram.cu", "atomicAdd(&local[in[i]"), "global", "load");
  ASSERT_NE(input, nullptr) << j["memory"].dump();
  EXPECT_EQ((*input)["kernel"], "histogram");
  EXPECT_EQ((*input)["sectors_per_request"], 1.0);
  EXPECT_GT((*input)["requests"].get<int>(), 0);
  // Clearing the bins: consecutive words of shared memory, no conflict.
  const nlohmann::json* clear =
      memory_row(j, line_holding("shared_histogram.cu", "local[b] = 0"), "shared", "store");
  ASSERT_NE(clear, nullptr) << j["memory"].dump();
  EXPECT_EQ((*clear)["bank_conflict_ways"], 1);
}

TEST(ProgramCli, WithoutRecordMemoryOnlyTracedAccessesAreReported) {
  const coop::testing::Ran plain =
      coopviz("run --backend emu " + program("shared_histogram.cu") + " --json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const auto j = nlohmann::json::parse(plain.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << plain.out;
  EXPECT_TRUE(j["memory"].empty()) << "nothing traced(...) in the program, nothing recorded";
}

TEST(LessonCli, RecordMemoryReportsTheLessonsLines) {
  const coop::testing::Ran r = coopviz("run block-reduce --backend emu --record-memory --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  ASSERT_FALSE(j["memory"].empty());
  bool shared = false, global = false;
  for (const auto& row : j["memory"]) {
    EXPECT_GT(row["line"].get<int>(), 0) << row.dump();
    EXPECT_GT(row["requests"].get<int>(), 0) << row.dump();
    shared = shared || row["space"] == "shared";
    global = global || row["space"] == "global";
  }
  EXPECT_TRUE(shared && global) << j["memory"].dump();
}

TEST(ProgramCli, ACompileErrorNamesTheUsersFileAndLine) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("failing/compile_error.cu"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find(program("failing/compile_error.cu") + ":5: error:"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("program.cpp"), std::string::npos) << "no generated names: " << r.err;
}

// A texture fetch is named as what the emulator lacks, at its line, before the build fails on it.
TEST(ProgramCli, ATextureFetchIsNamedAsUnsupportedOnTheEmulator) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("failing/texture_fetch.cu"));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(program("failing/texture_fetch.cu") +
                       ":8: error: tex1Dfetch in __global__ function(\"twice\"): texture and "
                       "surface reads and writes are not supported on the emulator"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("was not declared"), std::string::npos) << r.err;
}

TEST(ProgramCli, ADeadlockIsReportedAndTheProgramSeesALaunchFailure) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("failing/deadlock.cu"));
  EXPECT_EQ(r.exit_code, 1) << "the program's own exit status";
  EXPECT_NE(r.err.find("deadlock.cu: kernel half_sync: deadlock"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("__syncthreads() at line 5"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("cudaErrorLaunchFailure"), std::string::npos) << r.out;
}

// A __syncwarp in a deadlock is named by the call with its mask.
TEST(ProgramCli, ASyncwarpInADeadlockIsNamedWithItsMask) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/syncwarp_deadlock.cu"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("__syncwarp(0xffffffff) at line 7: 16 of 32 threads arrived (threads 0-15"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("4294967295"), std::string::npos) << r.err;
}

TEST(ProgramCli, ABarrierMissingAnArrivalIsADeadlockNamingTheThreads) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/barrier_missing_arrival.cu"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("kernel one_short: deadlock"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cuda::barrier (initialised at line 8 for 64 arrivals) waited on at line "
                       "11: phase 0 still needs 1 arrivals; 63 wait (threads 0-62 of block"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("not arrived, exited: threads 63 of block"), std::string::npos) << r.err;
}

// On a GPU this program never ends (its warps wait for each other); on the emulator it stops at
// the line with the reason, and the program sees a failed launch.
TEST(ProgramCli, ABroadcastFromDifferentRanksInAWideTileIsStoppedAtItsLine) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/tile_broadcast_ranks.cu"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("unspecified launch failure"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("kernel rotate: line 12"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shfl() on a tile of more than 32 threads (one source rank for all)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("every member must pass the same value"), std::string::npos) << r.err;
}

// The threads still waiting when a lane faults are dropped, not unwound (some wait inside a
// destructor or a memory hook, which no exception may leave): under every schedule the fault is
// reported at the user's line, and the program sees a failed launch.
TEST(ProgramCli, AFaultIsReportedUnderEverySchedule) {
  for (const char* schedule : {"lockstep", "random --seed 1", "its --seed 2"}) {
    const coop::testing::Ran r = coopviz(std::string("run --backend emu --schedule ") + schedule +
                                         " " + program("failing/fault_with_destructor.cu"));
    EXPECT_EQ(r.exit_code, 1) << schedule << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("kernel rotate_and_count: line 21, thread (37,0,0) of block (0,0,0): "
                         "__shfl_sync(): the calling lane 5 is not in its mask"),
              std::string::npos)
        << schedule << ": " << r.err;
    EXPECT_NE(r.out.find("unspecified launch failure"), std::string::npos) << schedule << r.out;
  }
}

TEST(ProgramCli, ACrashIsReportedInPlainWords) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("failing/crash.cu"));
  EXPECT_EQ(r.exit_code, 128 + 11);
  EXPECT_NE(r.err.find("the program crashed: Segmentation fault"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("not reached"), std::string::npos);
}

// An abort names what causes one, a heap damaged by a kernel's out-of-bounds write among them,
// and the option that finds that write; with the option on, the hint is not repeated.
TEST(ProgramCli, AnAbortSaysCheckMemoryFindsAHeapDamagedByAKernel) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/abort_after_launch.cu"));
  EXPECT_EQ(r.exit_code, 128 + 6);
  EXPECT_NE(r.err.find("the program aborted (a failed assert"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--check-memory names the first access outside an allocation"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("not reached"), std::string::npos);
  const coop::testing::Ran checked =
      coopviz("run --backend emu --check-memory " + program("failing/abort_after_launch.cu"));
  EXPECT_EQ(checked.exit_code, 128 + 6);
  EXPECT_EQ(checked.err.find("--check-memory names"), std::string::npos) << checked.err;
}

// The fault handler's address, through the program's line tables, is the user's line.
TEST(ProgramCli, ACrashNamesTheUsersLineAndThread) {
  const coop::testing::Ran kernel = coopviz("run --backend emu " + program("failing/crash.cu"));
  EXPECT_NE(kernel.err.find("in a kernel at crash.cu:3 (thread 0)"), std::string::npos)
      << kernel.err;
  const coop::testing::Ran host =
      coopviz("run --backend emu " + program("failing/crash_after_launch.cu"));
  EXPECT_NE(host.err.find("on the host at crash_after_launch.cu:16"), std::string::npos)
      << host.err;
}

TEST(ProgramCli, ACrashKeepsTheLaunchesFinishedBeforeIt) {
  const std::string trace =
      (std::filesystem::temp_directory_path() / "crash_after_launch.cvt").string();
  const coop::testing::Ran r = coopviz(
      "run --backend emu " + program("failing/crash_after_launch.cu") + " --trace " + trace);
  EXPECT_EQ(r.exit_code, 128 + 11);
  EXPECT_NE(r.err.find("the launch it finished before that is in the trace"), std::string::npos)
      << r.err;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_EQ(launches->front().header.kernel, "ranks");
  EXPECT_EQ(launches->front().events.size(), 32u);
  std::filesystem::remove(trace);
}

TEST(ProgramCli, ARacyProgramRunsAndItsWrongResultIsItsOwn) {
  const coop::testing::Ran r = coopviz("run --backend emu " + program("failing/lost_update.cu"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("FAILED (lost updates)"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "") << "a race is the program's business, not an error of coopviz";
}

TEST(ProgramCli, AnEndlessLoopIsStoppedAtTheTimeLimit) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("failing/endless_loop.cu") + " --timeout 2");
  EXPECT_EQ(r.exit_code, 128 + 9);
  EXPECT_NE(r.err.find("ran longer than 2 s and was stopped"), std::string::npos) << r.err;
}

TEST(ProgramCli, TheProgramsArgumentsFollowTheDoubleDash) {
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("scale_by_argument.cu") + " -- 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scaled by 3: PASSED"), std::string::npos) << r.out;
}

// Building for a GPU needs nvcc, not a GPU: each way of the GPU build compiles here too (device
// code and host code apart, and whole for each reason found before compiling), and every test
// program's GPU build where a GPU runs it.
class ProgramBuild : public ::testing::TestWithParam<const char*> {};

TEST_P(ProgramBuild, CompilesForTheGpuWithNvcc) {
  const std::string name = GetParam();
  COOPVIZ_NVCC_BUILD_ONLY_WITH_A_GPU_UNLESS(
      name == "tile_ranks.cu" || name == "cluster_exchange.cu" || name == "pipeline_stages.cu");
  coop::app::ProgramOptions p;
  p.file = program(GetParam());
  p.gpu_arch = "sm_90";
  // A lesson's program finds lesson_protocol.h as the lesson runner shows it the folder.
  if (std::string(GetParam()).starts_with("../../lessons/"))
    p.includes.push_back(std::string(COOPVIZ_SOURCE_DIR) + "/lessons/lesson_protocol");
  const std::string cache = coop::testing::program_test_cache();
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  auto build = coop::app::build_program(p);
  ASSERT_TRUE(build.ok()) << build.status().message();
  EXPECT_TRUE(std::filesystem::exists(build->executable));
  // Device code and host code compiled apart, or whole for a reason found before compiling (a
  // cluster launch, CUDA's pipeline header), never because the host half failed to compile.
  if (name == "cluster_exchange.cu") {
    EXPECT_EQ(build->whole_because, "a cluster launch");
  }
  if (name == "pipeline_stages.cu") {
    EXPECT_EQ(build->whole_because, "CUDA's pipeline header");
  }
  if (name == "tile_ranks.cu" || name == "runtime_calls.cu" || name == "kernel_forms.cu") {
    EXPECT_TRUE(build->halves);
  }
  EXPECT_EQ(build->whole_because.find("did not compile apart"), std::string::npos)
      << build->whole_because;
  EXPECT_EQ(std::filesystem::exists(build->executable + ".cubin"), build->halves);
}

// Asked to, nvcc builds the program whole, as it does where the halves cannot be apart.
TEST(ProgramBuildWays, WholeWhenAsked) {
  coop::app::ProgramOptions p;
  p.file = program("tile_ranks.cu");
  p.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  setenv("COOPVIZ_GPU_BUILD", "whole", 1);
  auto build = coop::app::build_program(p);
  unsetenv("COOPVIZ_GPU_BUILD");
  ASSERT_TRUE(build.ok()) << build.status().message();
  EXPECT_FALSE(build->halves);
  EXPECT_EQ(build->whole_because, "asked to build it whole");
  EXPECT_FALSE(std::filesystem::exists(build->executable + ".cubin"));
}

// Two coopviz building one program at once (two tests, the window and the command line): the
// second waits for the first's build and takes it, rather than compiling it again beside it.
TEST(ProgramBuildWays, TwoBuildsOfOneProgramAtOnceCompileItOnce) {
  const std::filesystem::path cache = coop::testing::fresh_folder("build-lock");
  const std::string env = "XDG_CACHE_HOME=" + cache.string() + " COOPVIZ_PRECOMPILED_HEADER=0";
  const std::string args = "run --backend emu --json " + program("tile_ranks.cu");
  coop::testing::Ran first, second;
  std::thread beside([&] { second = coop::testing::run_coopviz_env(env, args); });
  first = coop::testing::run_coopviz_env(env, args);
  beside.join();
  int compiled = 0;
  for (const coop::testing::Ran* r : {&first, &second}) {
    ASSERT_EQ(r->exit_code, 0) << r->out << r->err;
    const nlohmann::json out = nlohmann::json::parse(r->out, nullptr, false);
    ASSERT_FALSE(out.is_discarded()) << r->out;
    compiled += !out["build_cached"].get<bool>();
  }
  EXPECT_EQ(compiled, 1);
}

// The emulator's runtime header is precompiled by the first build that finds none (which waits
// for it), and read precompiled by the next; a -D of the program's leaves the build correct (the
// compiler reads the header as text where the precompiled one does not fit), and
// COOPVIZ_PRECOMPILED_HEADER=0 turns it off.
TEST(ProgramBuildWays, TheEmulatorsRuntimeHeaderIsPrecompiledOnceThenRead) {
  namespace fs = std::filesystem;
  const fs::path cache = fs::temp_directory_path() / ("coopviz-pch-" + std::to_string(getpid()));
  fs::remove_all(cache);
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  coop::app::ProgramOptions p;
  p.file = program("tile_ranks.cu");
  auto first = coop::app::build_program(p);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_FALSE(first->precompiled_runtime);
  int headers = 0;
  for (const auto& e : fs::recursive_directory_iterator(cache / "coopviz" / "pch"))
    headers += e.path().filename() == "prelude.hpp.gch";
  EXPECT_EQ(headers, 1);

  p.defines = {"TILE_RANKS_CHECKED_TWICE=1", "NDEBUG"};
  auto second = coop::app::build_program(p);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_TRUE(second->precompiled_runtime);
  const coop::testing::Ran r = coop::testing::run_coopviz_env(
      "XDG_CACHE_HOME=" + cache.string(),
      "run --backend emu " + p.file + " -D TILE_RANKS_CHECKED_TWICE=1 -D NDEBUG");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;

  setenv("COOPVIZ_PRECOMPILED_HEADER", "0", 1);
  p.defines = {"TILE_RANKS_CHECKED_THRICE=1"};
  auto third = coop::app::build_program(p);
  unsetenv("COOPVIZ_PRECOMPILED_HEADER");
  ASSERT_TRUE(third.ok()) << third.status().message();
  EXPECT_FALSE(third->precompiled_runtime);
  fs::remove_all(cache);
}

INSTANTIATE_TEST_SUITE_P(
    Nvcc, ProgramBuild,
    ::testing::Values("tile_ranks.cu", "grid_sync_sum.cu", "cluster_exchange.cu",
                      "warp_aggregated_atomics.cu", "warp_intrinsics.cu", "kernel_forms.cu",
                      "runtime_calls.cu", "partitions_and_copies.cu", "scale_by_argument.cu",
                      "shared_histogram.cu", "barrier_double_buffer.cu", "pipeline_stages.cu",
                      "partial_tiles.cu", "wide_values.cu", "block_votes.cu", "pitched_rows.cu",
                      "every_name.cu", "custom_values.cu", "pipeline_roles.cu",
                      "warp_match_reduce.cu", "mixed_min_max.cu", "device_intrinsics.cu",
                      "timed/timed_reduction.cu", "timed/tiled_matmul_timed.cu",
                      "repeated_launches.cu", "../../lessons/block_reduce/block_reduce.cu",
                      "../../lessons/grid_sync/grid_sync.cu"),
    [](const auto& info) { return std::filesystem::path(info.param).stem().string(); });

// nvcc's host and device front ends run side by side; a compile error is still said once, at the
// user's file and line, as nvcc says it (at the brace after the missing semicolon), and names no
// generated file.
TEST(ProgramBuildErrors, ACompileErrorForTheGpuIsSaidOnceAtTheUsersLine) {
  coop::app::ProgramOptions p;
  p.file = program("failing/compile_error.cu");
  p.gpu_arch = "sm_90";
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  auto build = coop::app::build_program(p);
  ASSERT_FALSE(build.ok());
  const std::string& m = build.status().message();
  const std::string at = p.file + "(6): error:";
  const size_t first = m.find(at);
  EXPECT_NE(first, std::string::npos) << m;
  EXPECT_EQ(m.find(at, first + 1), std::string::npos) << "said twice: " << m;
  EXPECT_NE(m.find("1 error detected in the compilation of \"" + p.file + "\""), std::string::npos)
      << m;
  EXPECT_EQ(m.find("program."), std::string::npos) << "no generated names: " << m;
}

// The same programs built with nvcc and run on a GPU: they pass there too, and where both backends
// record the same calls their traces agree field for field.
struct GpuCase {
  const char* file;
  bool comparable;
};

class ProgramsGpu : public ::testing::TestWithParam<GpuCase> {};

TEST_P(ProgramsGpu, PassOnTheGpuAndAgreeWithTheEmulator) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const GpuCase c = GetParam();
  const std::string stem = std::filesystem::path(c.file).stem().string();
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string on_gpu = (dir / (stem + "-gpu.cvt")).string();
  const std::string on_emu = (dir / (stem + "-emu.cvt")).string();
  const coop::testing::Ran g =
      coopviz("run --backend gpu " + program(c.file) + " --trace " + on_gpu);
  ASSERT_EQ(g.exit_code, 0) << g.out << g.err;
  EXPECT_NE(g.out.find("PASSED"), std::string::npos) << g.out << g.err;
  const coop::testing::Ran e =
      coopviz("run --backend emu " + program(c.file) + " --trace " + on_emu);
  ASSERT_EQ(e.exit_code, 0) << e.out << e.err;
  auto gpu = coop::load_traces(on_gpu);
  auto emu = coop::load_traces(on_emu);
  ASSERT_TRUE(gpu.ok() && emu.ok());
  ASSERT_EQ(gpu->size(), emu->size());
  for (size_t k = 0; k < gpu->size(); ++k) {
    EXPECT_EQ((*gpu)[k].header.backend, coop::Backend::Gpu);
    EXPECT_EQ((*gpu)[k].header.kernel, (*emu)[k].header.kernel);
    const coop::TraceDiff diff = coop::compare_deterministic((*emu)[k], (*gpu)[k]);
    std::printf("%s launch %zu (%s): %llu events compared, %llu differ\n", c.file, k,
                (*gpu)[k].header.kernel.c_str(), (unsigned long long)diff.events_compared,
                (unsigned long long)diff.mismatches);
    if (c.comparable) {
      EXPECT_TRUE(diff.equal()) << (diff.examples.empty() ? "" : diff.examples[0]);
    }
  }
  std::filesystem::remove(on_gpu);
  std::filesystem::remove(on_emu);
}

// A GPU program built in two halves runs as the one nvcc builds whole: the same output and, on
// every deterministic field, the same trace (kernel templates, device variables reached by
// symbol, occupancy and attribute queries, cooperative launches).
class GpuBuildWays : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuBuildWays, HalvesAndWholeAgree) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const std::string stem = std::filesystem::path(GetParam()).stem().string();
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string halves = (dir / (stem + "-halves.cvt")).string();
  const std::string whole = (dir / (stem + "-whole.cvt")).string();
  const coop::testing::Ran h =
      coopviz("run --json --backend gpu " + program(GetParam()) + " --trace " + halves);
  ASSERT_EQ(h.exit_code, 0) << h.out << h.err;
  EXPECT_NE(h.out.find("\"gpu_build\": \"halves\""), std::string::npos) << h.out;
  setenv("COOPVIZ_GPU_BUILD", "whole", 1);
  const coop::testing::Ran w =
      coopviz("run --json --backend gpu " + program(GetParam()) + " --trace " + whole);
  unsetenv("COOPVIZ_GPU_BUILD");
  ASSERT_EQ(w.exit_code, 0) << w.out << w.err;
  EXPECT_NE(w.out.find("\"gpu_build\": \"whole\""), std::string::npos) << w.out;
  auto a = coop::load_traces(halves);
  auto b = coop::load_traces(whole);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), b->size());
  for (size_t k = 0; k < a->size(); ++k) {
    EXPECT_EQ((*a)[k].header.kernel, (*b)[k].header.kernel);
    const coop::TraceDiff diff = coop::compare_deterministic((*b)[k], (*a)[k]);
    std::printf("%s launch %zu (%s), halves vs whole: %llu events compared, %llu differ\n",
                GetParam(), k, (*a)[k].header.kernel.c_str(),
                (unsigned long long)diff.events_compared, (unsigned long long)diff.mismatches);
    EXPECT_TRUE(diff.equal()) << (diff.examples.empty() ? "" : diff.examples[0]);
  }
  std::filesystem::remove(halves);
  std::filesystem::remove(whole);
}

INSTANTIATE_TEST_SUITE_P(Device, GpuBuildWays,
                         ::testing::Values("tile_ranks.cu", "grid_sync_sum.cu", "kernel_forms.cu",
                                           "runtime_calls.cu", "shared_histogram.cu",
                                           "block_votes.cu"),
                         [](const auto& info) {
                           return std::filesystem::path(info.param).stem().string();
                         });

INSTANTIATE_TEST_SUITE_P(
    Device, ProgramsGpu,
    ::testing::Values(GpuCase{"tile_ranks.cu", true}, GpuCase{"grid_sync_sum.cu", true},
                      GpuCase{"cluster_exchange.cu", true},
                      // The leader's shfl hands out the old value of its atomicAdd, and which
                      // warp's atomic lands first is the hardware's choice: the shfl's output
                      // differs between runs and backends.
                      GpuCase{"warp_aggregated_atomics.cu", false},
                      // __activemask() in a branch: the program's own check already requires the
                      // branch's lanes to run it together, as the emulator releases them.
                      GpuCase{"warp_intrinsics.cu", true}, GpuCase{"kernel_forms.cu", true},
                      GpuCase{"runtime_calls.cu", true}, GpuCase{"partitions_and_copies.cu", true},
                      GpuCase{"scale_by_argument.cu", true}, GpuCase{"shared_histogram.cu", true},
                      GpuCase{"barrier_double_buffer.cu", true},
                      GpuCase{"pipeline_stages.cu", true}, GpuCase{"partial_tiles.cu", true},
                      GpuCase{"wide_values.cu", true}, GpuCase{"block_votes.cu", true},
                      GpuCase{"pitched_rows.cu", true}, GpuCase{"every_name.cu", true},
                      GpuCase{"custom_values.cu", true}, GpuCase{"pipeline_roles.cu", true},
                      // The emulator records __match_*_sync and __reduce_*_sync as collectives
                      // (64 events); the GPU runs CUDA's own intrinsics, which its recorder does
                      // not see: the program's check passes on both, the traces differ.
                      GpuCase{"warp_match_reduce.cu", false}, GpuCase{"mixed_min_max.cu", true},
                      GpuCase{"device_intrinsics.cu", true}),
    [](const auto& info) { return std::filesystem::path(info.param.file).stem().string(); });

}  // namespace
