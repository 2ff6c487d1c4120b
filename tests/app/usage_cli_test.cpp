// Usage errors through the real binary: every subcommand, given a bad command line, exits 2 with
// one line on stderr, "coopviz: error: ...", that says what was wrong and what is allowed. --help
// still exits 0, and failures that are not usage errors keep their own exit code.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/app/run_coopviz.hpp"

namespace {

using coop::testing::Ran;
using coop::testing::run_coopviz;

struct BadUsage {
  const char* name;  // the test's name
  const char* args;
  const char* says;  // a phrase the error line must hold
};

std::ostream& operator<<(std::ostream& os, const BadUsage& u) {
  return os << u.args;
}

const BadUsage kBadUsages[] = {
    // No subcommand, or one that does not exist.
    {"UnknownCommand", "bogus", "unknown command 'bogus' (commands: list, run, devices,"},
    {"UnknownTopOption", "--bogus",
     "unknown option '--bogus' for `coopviz` (see `coopviz --help`)"},
    // list
    {"ListExtraArgument", "list extra", "unexpected argument 'extra': `coopviz list` takes no"},
    {"ListUnknownOption", "list --bogus", "unknown option '--bogus' for `coopviz list`"},
    {"ListFlagWithValue", "list --json=maybe",
     "--json is a switch: give it alone (or =true or =false), got 'maybe'"},
    // run
    {"RunNoLesson", "run", "`coopviz run` needs LESSON: lesson id"},
    {"RunUnknownLesson", "run nope", "unknown lesson 'nope': known lessons are groups-and-ranks,"},
    {"RunSeedNotANumber", "run block-reduce --seed x",
     "--seed expects a whole number (0 or more), got 'x'"},
    {"RunSeedMissing", "run block-reduce --seed", "--seed needs a value"},
    {"RunJobsNegative", "run block-reduce --jobs -1", "got '-1', which is out of range"},
    {"RunJobsZero", "run block-reduce --backend emu --jobs 0", "between 1 and 256"},
    {"RunScheduleUnknown", "run block-reduce --schedule volta",
     "--schedule 'volta': choose lockstep, random or its"},
    {"RunScheduleWithJobs", "run block-reduce --backend emu --schedule random --jobs 2",
     "--schedule random runs on one OS thread, so that its seed reproduces it: drop --jobs 2"},
    {"RunProgramScheduleUnknown",
     "run " COOPVIZ_SOURCE_DIR "/tests/programs/tile_ranks.cu --backend emu --schedule warp",
     "--schedule 'warp': choose lockstep, random or its"},
    {"BenchEmuSchedule", "bench emu --schedule fair", "--schedule 'fair': choose lockstep"},
    {"RunBackendTwice", "run block-reduce --backend gpu --backend emu",
     "--backend given twice; give it once (auto, gpu or emu)"},
    {"RunBackendUnknown", "run block-reduce --backend tpu", "choose auto, gpu or emu"},
    {"RunCompareOnEmulator", "run block-reduce --backend emu --compare", "drop --backend emu"},
    {"RunBlockFourDims", "run block-reduce --block 1,2,3,4", "--block expects X, X,Y or X,Y,Z"},
    {"RunGridNotANumber", "run block-reduce --grid abc", "--grid expects X, X,Y or X,Y,Z"},
    {"RunParamOutOfRange", "run block-reduce --param tiles=7",
     "parameter tiles = 7 is outside 0..1"},
    {"RunParamNotANumber", "run block-reduce --param data=x",
     "--param data expects a whole number in 0.."},
    {"RunParamUnknown", "run block-reduce --param nope=1",
     "has no parameter 'nope' (it takes tiles"},
    {"RunParamNotNameValue", "run block-reduce --param tiles", "not of the form name=value"},
    {"RunExtraArgument", "run block-reduce extra",
     "unexpected argument 'extra': `coopviz run` takes only LESSON"},
    {"RunProgramMissing", "run nowhere.cu", "no program file 'nowhere.cu'"},
    {"RunProgramBackend", "run " COOPVIZ_SOURCE_DIR "/tests/programs/tile_ranks.cu --backend cpu",
     "--backend 'cpu': choose auto, gpu or emu"},
    {"RunIncludeForALesson", "run block-reduce -I /tmp", "-I and -D are for a program file"},
    {"RunProgramLaunchMalformed",
     "run " COOPVIZ_SOURCE_DIR "/tests/programs/tile_ranks.cu --launch tile_ranks=64",
     "--launch expects KERNEL=GRID/BLOCK"},
    {"RunProgramLaunchTooLarge",
     "run " COOPVIZ_SOURCE_DIR "/tests/programs/tile_ranks.cu --launch 'tile_ranks=*/2048'",
     "exceeds the limit of 1024 threads per block"},
    {"RunUnknownOption", "run block-reduce --frobnicate",
     "unknown option '--frobnicate' for `coopviz run` (see `coopviz run --help`)"},
    // devices
    {"DevicesUnknownOption", "devices --all", "unknown option '--all' for `coopviz devices`"},
    {"DevicesExtraArgument", "devices 0", "unexpected argument '0'"},
    // occupancy
    {"OccupancyNoBlock", "occupancy --cc 9.0", "`coopviz occupancy` needs --block"},
    {"OccupancyNoDevice", "occupancy --block 256", "--arch sm_XX, --cc M.m or --device N"},
    {"OccupancySweepUnknown", "occupancy --cc 9.0 --block 256 --sweep threads",
     "block, regs or smem"},
    {"OccupancyBlockZero", "occupancy --cc 9.0 --block 0", "at least 1"},
    {"OccupancyArchTwice", "occupancy --arch sm_90 --arch sm_80 --block 256", "--arch given twice"},
    // export
    {"ExportNoTrace", "export", "`coopviz export` needs TRACE"},
    {"ExportNoOutput", "export some.cvt", "at least one of --perfetto, --json, --cbor"},
    {"ExportUnknownOption", "export some.cvt --chrome x.json", "unknown option '--chrome'"},
    // bench and its benchmarks
    {"BenchNoName", "bench", "bench needs a benchmark name (reduce, trace,"},
    {"BenchUnknown", "bench bogus",
     "unknown command 'bogus' for `coopviz bench` (commands: reduce"},
    {"BenchReduceRuns", "bench reduce --runs many", "--runs expects a whole number"},
    {"BenchReduceBackend", "bench reduce --backend tpu", "choose gpu or emu"},
    {"BenchReduceBackendAuto", "bench reduce --backend auto",
     "--backend 'auto': choose gpu or emu"},
    {"BenchByoBackend", "bench byo --backend tpu", "--backend 'tpu': choose gpu or emu"},
    {"BenchReduceExtra", "bench reduce 5",
     "unexpected argument '5': `coopviz bench reduce` takes no"},
    {"BenchTraceReps", "bench trace --reps x", "--reps expects a whole number, got 'x'"},
    {"BenchTraceFileEvents", "bench trace-file --events", "--events needs a value"},
    {"BenchEmuOnly", "bench emu --only both", "--only expects one of tree, numba; got 'both'"},
    {"BenchEmuSeconds", "bench emu --numba-seconds soon", "--numba-seconds expects a number"},
    {"BenchOccupancyArch", "bench occupancy --arch sm_1", "known presets are"},
#if COOPVIZ_WITH_GUI
    // The window's commands: each fails before it opens one.
    {"GuiUnknownOption", "gui --fullscreen", "unknown option '--fullscreen' for `coopviz gui`"},
    {"GuiBackendUnknown", "gui --backend tpu", "--backend 'tpu': choose auto, gpu or emu"},
    {"GuiStepMissing", "gui --step", "--step needs a value: step of the lesson"},
    {"GuiExtraArgument", "gui block-reduce", "unexpected argument 'block-reduce'"},
    {"GuiScheduleUnknown", "gui --lesson block-reduce --schedule volta",
     "--schedule 'volta': choose lockstep, random or its"},
    {"ScreenshotNoOut", "screenshot --lesson block-reduce", "`coopviz screenshot` needs --out"},
    {"ScreenshotScale", "screenshot --out x.png --scale big",
     "--scale expects a number, got 'big'"},
    {"ScreenshotLessonAndTrace", "screenshot --out x.png --lesson block-reduce --trace t.cvt",
     "give --lesson or --trace, not both"},
    {"ScreenshotEventWithoutTrace", "screenshot --out x.png --event 0:5",
     "--event 0:5 needs --trace"},
    {"StepsUnknownLesson", "steps nope", "unknown lesson 'nope': known lessons are"},
    {"StepsTwoLessons", "steps block-reduce grid-sync", "unexpected argument 'grid-sync'"},
    {"StepsPresentationWithoutSize", "steps block-reduce --presentation",
     "--presentation needs --size WIDTHxHEIGHT"},
    {"StepsSize", "steps block-reduce --size 1024", "is not of the form WIDTHxHEIGHT"},
    {"LayoutCheckSizes", "layout-check --sizes 10x10", "between 200 and"},
    {"BenchFrameFrames", "bench frame --frames 5", "between 10 and 10000"},
#endif
};

class UsageCli : public ::testing::TestWithParam<BadUsage> {};

TEST_P(UsageCli, ExitsTwoWithOneLineSayingWhatIsWrong) {
  const BadUsage& u = GetParam();
  const Ran r = run_coopviz(u.args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty()) << "nothing on stderr";
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.back(), '\n') << r.err;
  EXPECT_EQ(r.err.rfind("coopviz: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(u.says), std::string::npos) << "wanted: " << u.says << "\ngot: " << r.err;
}

INSTANTIATE_TEST_SUITE_P(EverySubcommand, UsageCli, ::testing::ValuesIn(kBadUsages),
                         [](const ::testing::TestParamInfo<BadUsage>& i) { return i.param.name; });

TEST(UsageCliHelp, HelpExitsZeroAndListsTheExitCodes) {
  const Ran top = run_coopviz("--help");
  EXPECT_EQ(top.exit_code, 0) << top.err;
  EXPECT_TRUE(top.err.empty()) << top.err;
  for (const char* line :
       {"Exit codes:", "  0  success", "  1  the command ran", "  2  usage error"})
    EXPECT_NE(top.out.find(line), std::string::npos) << line << "\n" << top.out;
  for (const char* command :
       {"list", "run", "devices", "occupancy", "export", "bench", "bench reduce", "bench emu"}) {
    const Ran r = run_coopviz(std::string(command) + " --help");
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << command << ": " << r.out;
  }
}

TEST(UsageCliHelp, VersionExitsZero) {
  const Ran r = run_coopviz("--version");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("coopviz ", 0), 0u) << r.out;
}

// A run that went ahead but whose trace could not be written is a failure, not a usage error.
TEST(UsageCliFailures, AFailedRunKeepsExitCodeOne) {
  const Ran r =
      run_coopviz("run block-reduce --backend emu --grid 2 --trace /nonexistent-dir/out.cvt");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("coopviz: error: ", 0), 0u) << r.err;
}

// A launch that does not fit on an SM is the occupancy calculator's answer, reported with 1.
TEST(UsageCliFailures, ALaunchThatDoesNotFitKeepsExitCodeOne) {
  const Ran r = run_coopviz("occupancy --cc 9.0 --block 1024 --regs 255");
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

}  // namespace
