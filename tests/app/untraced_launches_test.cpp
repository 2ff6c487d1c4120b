// A program's repeats of a launch already traced run untraced (coopviz run --trace-launches):
// which launches are traced, how the trace counts the rest, which seed each repeat runs under,
// and that the traces kept in memory stop growing at --trace-memory while the program still
// finishes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/bench/timing.hpp"
#include "app/program/child_process.hpp"
#include "app/program/program.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

using coop::testing::coopviz;
using coop::testing::program;

// The launches `coopviz run ARGS repeated_launches.cu` traced: kernel and untraced count each.
std::vector<std::pair<std::string, uint64_t>> traced(const std::string& args, std::string* err) {
  const fs::path dir = coop::testing::fresh_folder("untraced");
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r = coopviz("run --backend emu " + args + " " +
                                       program("repeated_launches.cu") + " --trace " + trace);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
  if (err) *err = r.err;
  std::vector<std::pair<std::string, uint64_t>> out;
  auto launches = coop::load_traces(trace);
  EXPECT_TRUE(launches.ok()) << launches.status().message();
  if (launches)
    for (const coop::Trace& t : *launches) out.emplace_back(t.header.kernel, t.header.untraced);
  fs::remove_all(dir);
  return out;
}

using Launches = std::vector<std::pair<std::string, uint64_t>>;

TEST(UntracedLaunches, CountRoundTripsInBothEncodingsAndOlderFilesReadNone) {
  coop::Trace t;
  t.header.kernel = "add_one";
  t.header.launch.grid = {4, 1, 1};
  t.header.launch.block = {64, 1, 1};
  t.header.untraced = 299;
  for (auto encoding : {coop::TraceEncoding::Cbor, coop::TraceEncoding::Json}) {
    auto back = coop::decode_traces(coop::encode_traces({t}, encoding));
    ASSERT_TRUE(back) << back.message();
    EXPECT_EQ((*back)[0].header.untraced, 299u);
  }
  // A file written before the count existed has no "untraced": every launch was traced.
  nlohmann::json doc = nlohmann::json::parse(coop::encode_traces({t}, coop::TraceEncoding::Json));
  doc["launches"][0]["header"].erase("untraced");
  auto old = coop::decode_traces(doc.dump());
  ASSERT_TRUE(old) << old.message();
  EXPECT_EQ((*old)[0].header.untraced, 0u);
  doc["launches"][0]["header"]["untraced"] = "many";
  EXPECT_FALSE(coop::decode_traces(doc.dump()));
}

TEST(UntracedLaunches, FirstOfEachKernelAndShapeIsTracedAndRepeatsAreCounted) {
  std::string err;
  // Five add_one<<<4, 64>>>, one add_one<<<2, 64>>>, three double_shared on a stream.
  EXPECT_EQ(traced("", &err), (Launches{{"add_one", 4}, {"add_one", 0}, {"double_shared", 2}}));
  EXPECT_NE(err.find("6 launches ran untraced"), std::string::npos) << err;
  EXPECT_NE(err.find("add_one <<<4, 64>>> x4"), std::string::npos) << err;
  EXPECT_NE(err.find("--trace-launches all"), std::string::npos) << err;
}

TEST(UntracedLaunches, AllTracesEveryLaunchAndACountTracesThatManyOfEach) {
  std::string err;
  const Launches all = traced("--trace-launches all", &err);
  EXPECT_EQ(all.size(), 9u);
  for (const auto& [kernel, untraced] : all) EXPECT_EQ(untraced, 0u) << kernel;
  EXPECT_EQ(err.find("untraced"), std::string::npos) << err;
  EXPECT_EQ(traced("--trace-launches 2", nullptr), (Launches{{"add_one", 0},
                                                             {"add_one", 3},
                                                             {"add_one", 0},
                                                             {"double_shared", 0},
                                                             {"double_shared", 1}}));
}

// Under a seeded schedule launch k of a kernel and shape runs under the program's seed + k (the
// header names it), so a repeated test meets other interleavings, as on a GPU; lockstep with
// seed 0 keeps its one order for every launch, or for the first alone with --vary-repeats.
TEST(UntracedLaunches, RepeatsOfALaunchRunUnderTheSeedPlusTheirIndexWhenSeededOrAskedToVary) {
  const auto seeds = [](const std::string& args) {
    const fs::path dir = coop::testing::fresh_folder("repeat-seeds");
    const std::string trace = (dir / "t.cvt").string();
    const coop::testing::Ran r = coopviz("run --backend emu --trace-launches all " + args + " " +
                                         program("repeated_launches.cu") + " --trace " + trace);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    std::vector<std::string> said;
    auto launches = coop::load_traces(trace);
    EXPECT_TRUE(launches.ok()) << launches.status().message();
    if (launches)
      for (const coop::Trace& t : *launches) {
        const std::string& s = t.header.schedule;
        const size_t at = s.find("seed ");
        said.push_back(at == std::string::npos ? s : s.substr(at, s.find(';') - at));
      }
    fs::remove_all(dir);
    return said;
  };
  using Seeds = std::vector<std::string>;
  // Five add_one<<<4, 64>>>, one add_one<<<2, 64>>>, three double_shared.
  EXPECT_EQ(seeds(""), Seeds(9, "seed 0"));
  EXPECT_EQ(seeds("--seed 5"), (Seeds{"seed 5", "seed 6", "seed 7", "seed 8", "seed 9", "seed 5",
                                      "seed 5", "seed 6", "seed 7"}));
  const Seeds varied = {"seed 0", "seed 1", "seed 2", "seed 3", "seed 4",
                        "seed 0", "seed 0", "seed 1", "seed 2"};
  EXPECT_EQ(seeds("--vary-repeats"), varied);
  EXPECT_EQ(seeds("--vary-repeats --seed 5"), seeds("--seed 5"));
  EXPECT_EQ(seeds("--schedule random"), (Seeds{"seed 0", "seed 1", "seed 2", "seed 3", "seed 4",
                                               "seed 0", "seed 0", "seed 1", "seed 2"}));
}

TEST(UntracedLaunches, JsonCountsTheUntracedLaunches) {
  const coop::testing::Ran r =
      coopviz("run --backend emu --json " + program("repeated_launches.cu"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["untraced_launches"], 6);
  EXPECT_EQ(j["trace_launches"], "first");
  ASSERT_EQ(j["launches"].size(), 3u);
  EXPECT_EQ(j["launches"][0]["untraced"], 4);
}

// A launch of more threads than a trace holds runs untraced, as public programs' oversized grids
// do on a GPU: said in one line when it runs, counted in the trace and at the end, its work done.
// (One run: its 16.8 M threads take about 2.5 s here.)
TEST(UntracedLaunches, ALaunchTooLargeToTraceRunsUntracedAndIsCounted) {
  const fs::path dir = coop::testing::fresh_folder("too_large");
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r =
      coopviz("run --backend emu " + program("over_trace_limit.cu") + " --trace " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("counted 65537: PASSED"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("kernel count_blocks <<<65537, 256>>> has 16777472 threads, more than "
                       "the 16777216 a traced launch may have: it runs untraced"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("1 launch ran untraced, with more threads than a traced launch may have "
                       "(count_blocks <<<65537, 256>>> x1)"),
            std::string::npos)
      << r.err;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 1u);  // the small launch only
  const auto& params = launches->back().header.params;
  EXPECT_EQ(params.at("launches too large to trace"), "1");
  EXPECT_EQ(params.at("too large to trace"), "count_blocks <<<65537, 256>>> x1");
  fs::remove_all(dir);
}

// A repeat that writes past its allocation's end (unchecked, as on a GPU) lands in the emulator's
// device memory, not the host's heap: 2000 elements past it damaged malloc's bookkeeping when
// device memory was the heap (the program aborted at its next free). --check-memory checks
// repeats too and names the first such write.
TEST(UntracedLaunches, ARepeatWritingPastItsAllocationLeavesTheHostHeapWhole) {
  for (const char* past : {"3", "2000"}) {
    const coop::testing::Ran r =
        coopviz("run --backend emu " + program("overrun_allocation.cu") + " -- " + past);
    EXPECT_EQ(r.exit_code, 0) << past << r.out << r.err;
    EXPECT_NE(r.out.find("past the end of 1024: PASSED"), std::string::npos) << r.out << r.err;
  }
  const coop::testing::Ran checked =
      coopviz("run --backend emu --check-memory " + program("overrun_allocation.cu"));
  EXPECT_NE(checked.exit_code, 0);
  EXPECT_NE(checked.err.find("wrote 4 bytes at d_values[1024] at overrun_allocation.cu:14, past "
                             "the end of d_values, a 4096-byte allocation from cudaMalloc"),
            std::string::npos)
      << checked.err;
}

// Kernels launched through one expression (table[k]<<<...>>>) with one shape are each traced:
// the second is not a repeat of the first, to run untraced and unchecked.
TEST(UntracedLaunches, KernelsReachedThroughOneExpressionAreToldApart) {
  const coop::testing::Ran r = coopviz("run --backend emu --json " + program("kernel_table.cu"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_NE(j["stdout"].get<std::string>().find("PASSED"), std::string::npos) << j["stdout"];
  EXPECT_EQ(j["untraced_launches"], 0);
  ASSERT_EQ(j["launches"].size(), 2u);
  EXPECT_EQ(j["launches"][0]["kernel"], "table[k]");
  EXPECT_EQ(j["launches"][1]["kernel"], "table[k]");
}

TEST(UntracedLaunches, AWrongChoiceIsAUsageErrorNamingTheChoices) {
  for (const char* bad : {"0", "some", "-1"}) {
    const coop::testing::Ran r = coopviz("run --backend emu --trace-launches " + std::string(bad) +
                                         " " + program("repeated_launches.cu"));
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("all, first or a count"), std::string::npos) << r.err;
  }
  const coop::testing::Ran lesson = coopviz("run block-reduce --backend emu --trace-launches all");
  EXPECT_EQ(lesson.exit_code, 2);
  EXPECT_NE(lesson.err.find("are for a program file"), std::string::npos) << lesson.err;
}

// A lesson's ceiling on traced threads (lesson.json's trace_threads_max): a launch above it runs
// untraced and is said once; one at it is traced.
TEST(UntracedLaunches, ALaunchAboveTheTracedThreadsCeilingRunsUntraced) {
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  const fs::path dir = coop::testing::fresh_folder("trace-threads");
  coop::app::ProgramOptions p;
  p.file = std::string(COOPVIZ_SOURCE_DIR) + "/lessons/block_reduce/block_reduce.cu";
  p.args = {"--grid=8", "--block=256"};  // 2048 threads
  p.trace_out = (dir / "t.cvt").string();
  p.stdout_path = (dir / "out.txt").string();
  p.stderr_path = (dir / "err.txt").string();
  auto build = coop::app::build_program(p);
  ASSERT_TRUE(build) << build.status().message();
  for (const uint64_t ceiling : {2047u, 2048u}) {
    p.trace_threads_max = ceiling;
    fs::remove(p.trace_out);
    auto run = coop::app::run_program(p, *build);
    ASSERT_TRUE(run) << run.status().message();
    std::ifstream out_file(p.stdout_path), err_file(p.stderr_path);
    const std::string out((std::istreambuf_iterator<char>(out_file)), {});
    const std::string err((std::istreambuf_iterator<char>(err_file)), {});
    EXPECT_EQ(run->exit_code, 0) << out << err;
    EXPECT_NE(out.find("[pass] block sums equal the CPU tree"), std::string::npos) << out;
    auto launches = coop::load_traces(p.trace_out);
    const size_t traced = launches ? launches->size() : 0;
    if (ceiling == 2047) {
      EXPECT_EQ(traced, 0u);
      EXPECT_NE(err.find("more than the 2047 a traced launch may have here"), std::string::npos)
          << err;
    } else {
      EXPECT_EQ(traced, 1u) << err;
    }
  }
  fs::remove_all(dir);
}

TEST(UntracedLaunches, TracesPastTheMemoryLimitStopGrowingAndTheProgramFinishes) {
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  const fs::path dir = coop::testing::fresh_folder("trace-memory");
  coop::app::ProgramOptions p;
  p.file = program("memory_hungry_launches.cu");
  p.trace_out = (dir / "t.cvt").string();
  p.stdout_path = (dir / "out.txt").string();
  p.stderr_path = (dir / "err.txt").string();
  p.record_memory = true;  // every load and store: 32 MiB of events a launch
  p.trace_launches = "all";
  p.trace_memory = 16u << 20;
  double peak = 0;
  p.watch = [&peak](int pid) {
    peak = std::max(peak, coop::app::peak_resident_mib(pid));
    return std::string();
  };
  auto build = coop::app::build_program(p);
  ASSERT_TRUE(build) << build.status().message();
  auto run = coop::app::run_program(p, *build);
  ASSERT_TRUE(run) << run.status().message();
  std::ifstream out_file(p.stdout_path), err_file(p.stderr_path);
  const std::string out((std::istreambuf_iterator<char>(out_file)), {});
  const std::string err((std::istreambuf_iterator<char>(err_file)), {});
  EXPECT_EQ(run->exit_code, 0) << out << err;
  EXPECT_NE(out.find("20 launches: PASSED"), std::string::npos) << out;
  EXPECT_NE(err.find("reached their limit of 16 MiB (--trace-memory)"), std::string::npos) << err;
  EXPECT_NE(err.find("later launches of a kernel already traced run untraced"), std::string::npos);
  auto launches = coop::load_traces(p.trace_out);
  ASSERT_TRUE(launches) << launches.message();
  ASSERT_EQ(launches->size(), 1u);
  const coop::Trace& t = (*launches)[0];
  EXPECT_EQ(t.header.untraced, 19u);
  EXPECT_LE(t.events.size() * sizeof(coop::Event), 16u << 20);
  EXPECT_GT(t.dropped(), 0u);
  EXPECT_EQ(t.header.params.count("trace memory limit"), 1u);
  // Every launch's traces kept would be 20 x 32 MiB; the program stayed far below even two.
  EXPECT_GT(peak, 0);
  EXPECT_LT(peak, 160) << "peak resident memory " << peak << " MiB";
  fs::remove_all(dir);
}

TEST(UntracedLaunches, CoopvizRunSaysTheRepeatsRanUntracedBecauseOfTheMemoryLimit) {
  const coop::testing::Ran r =
      coopviz("run --backend emu --record-memory --trace-launches all --trace-memory 16 " +
              program("memory_hungry_launches.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("19 launches ran untraced"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("had reached --trace-memory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--trace-launches all traces them"), std::string::npos) << r.err;
}

TEST(UntracedLaunches, AProgramsAverageTimeLineIsRead) {
  EXPECT_DOUBLE_EQ(coop::app::average_time_ms("x\nAverage time = 0.0233 ms over 100\n"), 0.0233);
  EXPECT_EQ(coop::app::average_time_ms("Average time = fast"), -1);
  EXPECT_EQ(coop::app::average_time_ms("no timer here"), -1);
}

TEST(UntracedLaunches, ATimedReductionRunsItsLoopUntracedAndSaysItsAverage) {
  // The GPU benchmark's program (bench byo --timer), small, on the emulator: the loop's launches
  // run untraced and its own timer is printed.
  const fs::path dir = coop::testing::fresh_folder("timed-reduction");
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r = coopviz("run --backend emu " + program("timed/timed_reduction.cu") +
                                       " --trace " + trace + " -- 20000 10");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out;
  EXPECT_GT(coop::app::average_time_ms(r.out), 0) << r.out;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches) << launches.message();
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_EQ((*launches)[0].header.untraced, 10u);
  fs::remove_all(dir);
}

// The repeats run the kernel's copy without the memory hooks once the program has one
// (device/byo/unhooked_copy.hpp): the copy shares the program's variables and does not construct
// its globals again.
TEST(UntracedLaunches, RepeatsRunTheUnhookedCopyWhichSharesTheProgramsVariables) {
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  const fs::path dir = coop::testing::fresh_folder("unhooked-copy");
  coop::app::ProgramOptions p;
  p.file = program("unhooked_copy.cu");
  p.stdout_path = (dir / "out.txt").string();
  p.stderr_path = (dir / "err.txt").string();
  auto build = coop::app::build_program(p);
  ASSERT_TRUE(build) << build.status().message();
  const std::string recipe = build->executable + ".unhooked.sh";
  ASSERT_TRUE(fs::exists(recipe));
  // A program builds its copy after a few seconds of untraced launches; here the test does.
  fs::remove(build->executable + ".unhooked.so");
  ASSERT_EQ(std::system(("sh " + recipe + " > " + (dir / "recipe.txt").string() + " 2>&1").c_str()),
            0);
  ASSERT_TRUE(fs::exists(build->executable + ".unhooked.so"));
  auto output = [&] {
    auto run = coop::app::run_program(p, *build);
    EXPECT_TRUE(run && run->exit_code == 0);
    std::ifstream out_file(p.stdout_path);
    return std::string((std::istreambuf_iterator<char>(out_file)), {});
  };
  // The traced first launch is the hooked kernel; the five repeats are the copy.
  const std::string out = output();
  EXPECT_NE(out.find("hooked 1, unhooked 5, seen 6, constructed 1: PASSED"), std::string::npos)
      << out;
  // Checked reads of memory never written need the hooks: every launch keeps them.
  p.check_memory = true;
  const std::string checked = output();
  EXPECT_NE(checked.find("hooked 6, unhooked 0, seen 6, constructed 1: PASSED"), std::string::npos)
      << checked;
  fs::remove_all(dir);
}

}  // namespace

namespace {

// The GPU's repeats are the plain kernel on the program's stream: the results are still right,
// and the trace counts them as the emulator's does.
TEST(UntracedLaunchesGpu, RepeatsRunAsThePlainKernelAndAreCounted) {
  if (coop::app::local_gpu_arch().empty()) GTEST_SKIP() << "no CUDA device";
  const fs::path dir = coop::testing::fresh_folder("untraced-gpu");
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r =
      coopviz("run --backend gpu " + program("repeated_launches.cu") + " --trace " + trace);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches) << launches.message();
  ASSERT_EQ(launches->size(), 3u);
  EXPECT_EQ((*launches)[0].header.untraced, 4u);
  EXPECT_EQ((*launches)[2].header.untraced, 2u);
  fs::remove_all(dir);
}

}  // namespace
