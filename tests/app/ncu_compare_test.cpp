// The comparison of Nsight Compute's memory counters with the emulator's analysis
// (app/ncu_compare.hpp), tested without a GPU on a CSV written by hand in the layout `ncu --csv`
// prints (fixtures/ncu-memory-access.csv: the memory-access lesson's six launches as the hardware
// rules count them), and `coopviz ncu-compare` on it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/ncu_compare.hpp"
#include "device/trace/memory_access.hpp"
#include "lessons/lesson.hpp"
#include "tests/app/run_coopviz.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::app {
namespace {

const std::string kFixture =
    std::string(COOPVIZ_SOURCE_DIR) + "/tests/app/fixtures/ncu-memory-access.csv";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The emulator's per-launch counts of the lesson's default run.
std::vector<EmulatorLaunch> emulated_lesson() {
  const lessons::LessonDef& l = *lessons::find_lesson("memory-access");
  auto exec = testing::emulator();
  const lessons::LessonRun run = lessons::run_lesson(l, *exec, testing::lesson_request(l));
  EXPECT_TRUE(run.status.ok()) << run.status.message();
  Result<std::vector<EmulatorLaunch>> e = emulator_launches(memory_report(run.launches));
  EXPECT_TRUE(e.ok()) << e.message();
  return e ? *e : std::vector<EmulatorLaunch>{};
}

const CounterRow& row_of(const LaunchComparison& c, const std::string& counter) {
  for (const CounterRow& r : c.rows)
    if (r.counter == counter) return r;
  ADD_FAILURE() << c.kernel << " has no row " << counter;
  static const CounterRow none;
  return none;
}

TEST(NcuCompare, KernelNamesLoseNamespacesTemplatesAndParameters) {
  EXPECT_EQ(
      kernel_base_name("coop::lessons::memory_access::strided_read(const float *, float *, int)"),
      "strided_read");
  EXPECT_EQ(kernel_base_name("void ns::tile<32, std::less<int>>(float *)"), "tile");
  EXPECT_EQ(kernel_base_name("plain"), "plain");
}

TEST(NcuCompare, ReadsEveryLaunchOfTheCsvWithItsMetrics) {
  Result<std::vector<NcuLaunch>> ncu = parse_ncu_csv(read_text(kFixture));
  ASSERT_TRUE(ncu.ok()) << ncu.message();
  ASSERT_EQ(ncu->size(), 6u);
  EXPECT_EQ((*ncu)[0].kernel, "strided_read");
  EXPECT_EQ((*ncu)[2].kernel, "strided_read");
  EXPECT_EQ((*ncu)[2].launch, 3);
  EXPECT_EQ((*ncu)[3].kernel, "transpose_tile");
  EXPECT_EQ((*ncu)[3].launch, 1);
  // "1,024" is a thousand and twenty-four sectors, not one.
  EXPECT_EQ((*ncu)[2].metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 1024);
  EXPECT_EQ((*ncu)[3].metrics.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 3968);
  EXPECT_EQ((*ncu)[0].metrics.size(), 8u);
}

TEST(NcuCompare, NotAvailableValuesAreLeftOutAndBadInputIsNamed) {
  const std::string header =
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  Result<std::vector<NcuLaunch>> ncu = parse_ncu_csv(
      header +
      "\"0\",\"k(int)\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"\",\"n/a\"\n");
  ASSERT_TRUE(ncu.ok()) << ncu.message();
  EXPECT_TRUE((*ncu)[0].metrics.empty());
  Result<std::vector<NcuLaunch>> bad = parse_ncu_csv("\"Kernel Name\",\"Metric Name\"\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("\"ID\""), std::string::npos) << bad.message();
  EXPECT_FALSE(parse_ncu_csv("no csv here\n").ok());
  EXPECT_NE(parse_ncu_csv(header).message().find("no profiled launch"), std::string::npos);
}

TEST(NcuCompare, TheLessonsEmulatedLaunchesAgreeWithTheSampleCounterByCounter) {
  Result<std::vector<NcuLaunch>> ncu = parse_ncu_csv(read_text(kFixture));
  ASSERT_TRUE(ncu.ok()) << ncu.message();
  const std::vector<LaunchComparison> c = compare_counters(emulated_lesson(), *ncu);
  ASSERT_EQ(c.size(), 6u);
  for (const LaunchComparison& l : c) {
    EXPECT_TRUE(l.profiled) << l.kernel;
    for (const CounterRow& r : l.rows)
      EXPECT_TRUE(r.agree) << l.kernel << " " << l.launch << " " << r.counter << ": emulator "
                           << r.emulator << ", ncu " << r.ncu.value_or(-1) << ": " << r.note;
  }
  EXPECT_EQ(row_of(c[1], "global load sectors per request").emulator, 8);
  EXPECT_EQ(row_of(c[2], "global load sectors per request").ncu, 32);
  EXPECT_EQ(row_of(c[3], "shared load bank conflicts").emulator, 3968);
  EXPECT_EQ(row_of(c[4], "shared load bank conflicts").emulator, 0);
  const nlohmann::json j = comparison_json(c, "memory-access", "NVIDIA H100", "2026-11-25");
  EXPECT_TRUE(j["agree"].get<bool>());
}

// The compiler may load four neighbouring floats with one 16-byte instruction: a quarter of the
// requests over the same sectors. The comparison says so instead of hiding it.
TEST(NcuCompare, FewerRequestsOverTheSameSectorsAreExplainedAsVectorizedLoads) {
  EmulatorLaunch e;
  e.kernel = "copy";
  e.global_load_requests = 64;
  e.global_load_sectors = 256;
  NcuLaunch n{"copy", 1, "", {}};
  n.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 16;
  n.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 256;
  const std::vector<LaunchComparison> c = compare_counters({e}, {n});
  ASSERT_EQ(c.size(), 1u);
  const CounterRow& requests = row_of(c[0], "global load requests");
  EXPECT_FALSE(requests.agree);
  EXPECT_NE(requests.note.find("vectorized"), std::string::npos) << requests.note;
  EXPECT_NE(requests.note.find("64 requests"), std::string::npos) << requests.note;
  EXPECT_TRUE(row_of(c[0], "global load sectors").agree);
  const CounterRow& ratio = row_of(c[0], "global load sectors per request");
  EXPECT_EQ(ratio.emulator, 4);
  EXPECT_EQ(ratio.ncu, 16);
  EXPECT_NE(ratio.note.find("follows from the requests"), std::string::npos) << ratio.note;
  EXPECT_FALSE(comparison_json(c, "x", "", "")["agree"].get<bool>());
}

// A float4 per lane is one 16-byte request on the GPU; the emulator sees four 4-byte accesses,
// each over the same sectors. The comparison names that, not a hoisted load.
TEST(NcuCompare, WideValuesSplitIntoFourAccessesAreExplained) {
  EmulatorLaunch e;
  e.kernel = "copy4";
  e.global_load_requests = 128;
  e.global_load_sectors = 2048;
  NcuLaunch n{"copy4", 1, "", {}};
  n.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 32;
  n.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 512;
  const std::vector<LaunchComparison> c = compare_counters({e}, {n});
  const CounterRow& requests = row_of(c[0], "global load requests");
  EXPECT_FALSE(requests.agree);
  EXPECT_NE(requests.note.find("16-byte access"), std::string::npos) << requests.note;
  EXPECT_NE(row_of(c[0], "global load sectors").note.find("4 times"), std::string::npos);
}

// ncu names a template kernel with its arguments and parameters, the emulator with its arguments:
// both become the function's name. Launches that only the GPU made (a lesson's timing runs, with
// their own grid) take no emulated launch's place, since launches pair up by grid and block too.
TEST(NcuCompare, LaunchesPairUpByNameWithoutTemplateArgumentsAndByShape) {
  const std::string header =
      "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\",\"Metric Value\"\n";
  auto line = [](int id, const char* kernel, const char* block, const char* grid, int requests) {
    return "\"" + std::to_string(id) + "\",\"" + kernel + "\",\"" + block + "\",\"" + grid +
           "\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"" + std::to_string(requests) +
           "\"\n";
  };
  Result<std::vector<NcuLaunch>> ncu = parse_ncu_csv(
      header + line(0, "void scale<float, 2>(float *, int)", "(64, 1, 1)", "(2, 1, 1)", 4) +
      line(1, "sum(const int *, int *)", "(256, 1, 1)", "(4096, 1, 1)", 32768) +
      line(2, "sum(const int *, int *)", "(256, 1, 1)", "(8, 1, 1)", 64));
  ASSERT_TRUE(ncu.ok()) << ncu.message();
  EXPECT_EQ((*ncu)[0].kernel, "scale");
  EXPECT_EQ((*ncu)[0].shape, "2,1,1 x 64,1,1");

  const nlohmann::json memory = nlohmann::json::parse(R"([
    {"kernel": "scale<float, 2>", "launch": 0, "grid": [2, 1, 1], "block": [64, 1, 1],
     "space": "global", "kind": "load", "requests": 4, "sectors": 13},
    {"kernel": "sum", "launch": 1, "grid": [8, 1, 1], "block": [256, 1, 1],
     "space": "global", "kind": "load", "requests": 64, "sectors": 256}])");
  Result<std::vector<EmulatorLaunch>> emulated = emulator_launches(memory);
  ASSERT_TRUE(emulated.ok()) << emulated.message();
  const std::vector<LaunchComparison> c = compare_counters(*emulated, *ncu);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_TRUE(c[0].profiled) << "scale<float, 2> is ncu's scale";
  EXPECT_TRUE(row_of(c[0], "global load requests").agree);
  EXPECT_TRUE(c[1].profiled);
  EXPECT_EQ(row_of(c[1], "global load requests").ncu, 64) << "the 4096-block launch is skipped";
}

TEST(NcuCompare, LoadsTheCompilerHoistedAndMissingLaunchesAreSaid) {
  EmulatorLaunch e;
  e.kernel = "k";
  e.global_load_requests = 8;
  e.global_load_sectors = 32;
  e.shared_load_wavefronts = 8;
  NcuLaunch n{"k", 1, "", {}};
  n.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 4;
  n.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 16;
  std::vector<LaunchComparison> c = compare_counters({e}, {n});
  EXPECT_NE(row_of(c[0], "global load requests").note.find("hoisted"), std::string::npos);
  EXPECT_NE(row_of(c[0], "global load sectors").note.find("fewer sectors"), std::string::npos);
  // Shared metrics that ncu did not give are not measured, not zero.
  const CounterRow& wavefronts = row_of(c[0], "shared load wavefronts");
  EXPECT_FALSE(wavefronts.ncu.has_value());
  EXPECT_NE(wavefronts.note.find("not measured"), std::string::npos);
  // A second launch of k that ncu did not profile.
  e.launch = 2;
  c = compare_counters({e}, {n});
  EXPECT_FALSE(c[0].profiled);
  EXPECT_NE(c[0].rows.at(0).note.find("profiled no such launch"), std::string::npos);
}

TEST(NcuCompare, TheJsonReadsBackAsWritten) {
  Result<std::vector<NcuLaunch>> ncu = parse_ncu_csv(read_text(kFixture));
  ASSERT_TRUE(ncu.ok());
  const std::vector<LaunchComparison> c = compare_counters(emulated_lesson(), *ncu);
  std::string device;
  Result<std::vector<LaunchComparison>> back =
      read_comparison(comparison_json(c, "memory-access", "NVIDIA H100", "now").dump(), &device);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(device, "NVIDIA H100");
  ASSERT_EQ(back->size(), c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    EXPECT_EQ((*back)[i].kernel, c[i].kernel);
    EXPECT_EQ((*back)[i].launch, c[i].launch);
    ASSERT_EQ((*back)[i].rows.size(), c[i].rows.size());
    for (size_t r = 0; r < c[i].rows.size(); ++r) {
      EXPECT_EQ((*back)[i].rows[r].counter, c[i].rows[r].counter);
      EXPECT_EQ((*back)[i].rows[r].ncu, c[i].rows[r].ncu);
    }
  }
  EXPECT_FALSE(read_comparison("{\"launches\": 3}").ok());
  EXPECT_FALSE(read_comparison("not json").ok());
}

// The subcommand the GPU script runs, on the emulator's report of the same launches.
TEST(NcuCompare, CommandWritesTheLessonsComparison) {
  const std::string dir = ::testing::TempDir();
  const std::string emu = dir + "/memory-access-emu.json", out = dir + "/ncu.json";
  testing::Ran r = testing::run_coopviz("run memory-access --backend emu --json > " + emu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = testing::run_coopviz("ncu-compare --ncu " + kFixture + " --emulator " + emu + " --out " +
                           out + " --device 'NVIDIA H100'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("transpose_tile (launch 1)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("DIFFER"), std::string::npos) << r.out;
  std::string device;
  Result<std::vector<LaunchComparison>> written = read_comparison(read_text(out), &device);
  ASSERT_TRUE(written.ok()) << written.message();
  EXPECT_EQ(written->size(), 6u);
  EXPECT_EQ(device, "NVIDIA H100");
  // A report that is not one says which file and what it lacks.
  r = testing::run_coopviz("ncu-compare --ncu " + kFixture + " --emulator " + kFixture);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not a `coopviz run --json` report"), std::string::npos) << r.err;
}

// What the GPU script runs under ncu: the lesson untraced, so that the recorder's own stores do
// not count as the kernels'. It still checks its results; it cannot also record or compare.
TEST(NcuCompare, AnUntracedRunRecordsNothingAndStillChecks) {
  testing::Ran r = testing::run_coopviz("run memory-access --backend emu --untraced --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["trace"]["events"], 0);
  EXPECT_TRUE(j["memory"].empty());
  EXPECT_TRUE(j["passed"].get<bool>());
  r = testing::run_coopviz("run memory-access --backend emu --untraced --record-memory");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--untraced records no events"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace coop::app
