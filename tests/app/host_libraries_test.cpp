// Thrust and CUB in a user's program on the emulator (app/program/host_libraries.hpp,
// device/byo/cub_block.hpp, device/byo/cub_device.hpp): what runs on the host says so in one line
// and leaves nothing in the trace, and CUB's block and warp primitives inside the program's own
// kernel leave only the kernel's own events, as on a GPU. The programs are those of
// tests/programs/styles/ (program_styles_test.cpp checks their results), so their builds are
// shared.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

using coop::testing::program;

std::string style(const std::string& name) {
  return std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/styles/" + name;
}

size_t count_of(const std::string& text, const std::string& words) {
  size_t n = 0;
  for (size_t at = text.find(words); at != std::string::npos; at = text.find(words, at + 1)) ++n;
  return n;
}

TEST(HostLibraries, ThrustRunsOnTheHostSaysSoOnceAndOnlyTheProgramsKernelIsTraced) {
  const fs::path dir = coop::testing::fresh_folder("thrust-on-host");
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r = coop::testing::coopviz(
      "run --backend emu " + style("thrust_sort_reduce.cu") + " --trace " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Thrust check PASSED"), std::string::npos) << r.out;
  EXPECT_EQ(count_of(r.err, "Thrust runs on the host on the emulator"), 1u) << r.err;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 1u);  // sort, reduce, transform: none of Thrust's work is a launch
  EXPECT_EQ((*launches)[0].header.kernel, "square_in_place");
  fs::remove_all(dir);
}

TEST(HostLibraries, EachCubDeviceCallSaysOnceThatItRanOnTheHost) {
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend emu " + style("cub_device_sort_select.cu"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("cub device sort select PASSED"), std::string::npos) << r.out;
  // Each is called twice (the size, then the work), and says so once.
  for (const char* call : {"cub::DeviceReduce::Sum", "cub::DeviceReduce::Max",
                           "cub::DeviceScan::InclusiveSum", "cub::DeviceRadixSort::SortPairs",
                           "cub::DeviceSelect::If", "cub::DeviceHistogram::HistogramEven"})
    EXPECT_EQ(count_of(r.err, std::string(call) + " runs on the host on the emulator"), 1u)
        << call << "\n"
        << r.err;
  // The merge sorts CUB promises no order of equal keys do not keep them in input order here
  // (a GPU's may): a program counting on it is not told it is right.
  for (const char* sort : {"DeviceMergeSort::SortPairs", "DeviceMergeSort::SortKeysCopy"})
    EXPECT_NE(r.out.find(std::string(sort) + " kept equal keys in input order: no"),
              std::string::npos)
        << r.out;
}

// So it is for a block's and a warp's merge sort: Sort gives equal keys out of input order,
// StableSort in it (the program checks each against the host's order, as far as CUB promises one).
TEST(HostLibraries, CubBlockAndWarpMergeSortsSortIsNotStableByAccident) {
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend emu " + style("cub_segments_bins.cu"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("cub segments and bins PASSED"), std::string::npos) << r.out;
  for (const char* sort : {"BlockMergeSort::Sort of a partial tile", "WarpMergeSort::Sort"})
    EXPECT_NE(r.out.find(std::string(sort) + " kept equal keys in input order: no"),
              std::string::npos)
        << r.out;
}

TEST(HostLibraries, CubBlockPrimitivesLeaveOnlyTheKernelsOwnEventsAndNoRaces) {
  const fs::path dir = coop::testing::fresh_folder("cub-block");
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r = coop::testing::coopviz(
      "run --backend emu " + style("cub_block_reduce_kernel.cu") + " --races --trace " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("block reduce PASSED"), std::string::npos) << r.out;
  // The barriers and shared accesses inside BlockReduce, BlockScan and WarpReduce are CUB's:
  // a GPU records none, and the race detector, which sees none, finds no race.
  EXPECT_NE(r.out.find("races: none found"), std::string::npos) << r.out;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 2u);
  for (const coop::Trace& t : *launches)
    for (const coop::Event& e : t.events)
      EXPECT_NE(e.kind, coop::EventKind::Barrier) << t.header.kernel << " line " << e.line;
  fs::remove_all(dir);
}

// Thrust's raw device memory (device_malloc, device_new, a universal_vector's storage) is made and
// given back as the runtime's own allocations are: a kernel writing past it is stopped at its
// line and the allocation named, where the C++ system's std::malloc'd block was damaged unseen and
// the program aborted later at its free.
TEST(HostLibraries, ThrustsRawDeviceMemoryIsAnAllocationTheBoundsChecksKnow) {
  const std::string file = program("thrust_device_memory.cu");
  const coop::testing::Ran ok = coop::testing::coopviz("run --backend emu " + file);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("device_malloc sum 499500, universal_vector sum 499500: PASSED"),
            std::string::npos)
      << ok.out << ok.err;
  for (const char* made : {"malloc", "universal"}) {
    const coop::testing::Ran r =
        coop::testing::coopviz("run --backend emu " + file + " -- " + made);
    EXPECT_EQ(r.exit_code, 1) << made << "\n" << r.out << r.err;
    EXPECT_EQ(r.err.find("aborted"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the program was stopped: thread 232 (block 3) wrote 4 bytes at the "
                         "allocation[4000] at thrust_device_memory.cu:21, past the end of a "
                         "4000-byte allocation from thrust::" +
                         std::string(made == std::string("malloc") ? "device_malloc"
                                                                   : "universal_vector")),
              std::string::npos)
        << r.err;
  }
}

// On a GPU, Thrust's and CUB's kernels run as the library launches them, untraced; the trace's
// last launch counts them by kernel, and coopviz says so.
TEST(HostLibraries, LibraryLaunchesAreCountedAndNamedOnTheGpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const fs::path dir = coop::testing::fresh_folder("thrust-on-gpu");
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r = coop::testing::coopviz(
      "run --backend gpu " + style("thrust_sort_reduce.cu") + " --trace " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Thrust check PASSED"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("Thrust's or CUB's own kernels, untraced ("), std::string::npos) << r.err;
  auto launches = coop::load_traces(trace);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 1u);  // the program's own kernel, traced
  const auto& params = launches->back().header.params;
  ASSERT_TRUE(params.count("library launches")) << r.err;
  EXPECT_GT(std::stoul(params.at("library launches")), 0u);
  // Sorting and reducing are CUB's kernels: named without template arguments or CUB's versioned
  // namespace.
  const std::string& kinds = params.at("library kernels");
  EXPECT_NE(kinds.find("cub::"), std::string::npos) << kinds;
  EXPECT_EQ(kinds.find("CUB_"), std::string::npos) << kinds;
  EXPECT_EQ(kinds.find('('), std::string::npos) << kinds;
  EXPECT_EQ(kinds.find("coop::"), std::string::npos) << kinds;
  fs::remove_all(dir);
  // A program with no kernel of its own says them when it ends.
  const coop::testing::Ran only_cub =
      coop::testing::coopviz("run --backend gpu " + style("cub_device_sort_select.cu"));
  ASSERT_EQ(only_cub.exit_code, 0) << only_cub.out << only_cub.err;
  EXPECT_NE(only_cub.err.find("launches were Thrust's or CUB's own kernels, untraced"),
            std::string::npos)
      << only_cub.err;
}

TEST(HostLibraries, ThrustsRawDeviceMemoryOnTheGpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend gpu " + program("thrust_device_memory.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
}

// A CUB header the emulator has not says so in one line naming it, and the compile stops there
// rather than going on through CUB's GPU code.
TEST(HostLibraries, ACubHeaderNotOnTheEmulatorIsNamedInOneError) {
  const fs::path dir = coop::testing::fresh_folder("cub-missing");
  std::ofstream(dir / "layout.cu") << "#include <cub/block/block_raking_layout.cuh>\n"
                                      "int main() { return 0; }\n";
  const coop::testing::Ran r =
      coop::testing::run_coopviz("run --backend emu " + (dir / "layout.cu").string());
  EXPECT_NE(r.exit_code, 0);
  const std::string said = r.out + r.err;
  EXPECT_EQ(count_of(said, "<cub/block/block_raking_layout.cuh> is not on the emulator yet"), 1u)
      << said;
  // That line, the compile stopping there, and coopviz saying the program did not compile.
  EXPECT_EQ(count_of(said, "error:"), 3u) << said;
  fs::remove_all(dir);
}

// CUDA 13's operators (cuda::std::plus, cuda::maximum, cuda::minimum) in CUB's device-wide and
// block calls give the host's results; they once did not compile on the emulator.
TEST(HostLibraries, CubTakesCuda13sOperators) {
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend emu " + program("cub_cuda_operators.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("max 50 (host 50), 0 scan sums wrong, block minimums -50 -50 (host -50 "
                       "-50): PASSED"),
            std::string::npos)
      << r.out << r.err;
}

// Block primitives made without a TempStorage take CUB's private one, per block and per
// primitive: a tile loaded, sorted and stored, then reduced and scanned, in two blocks, right and
// without a race (they once did not compile on the emulator).
TEST(HostLibraries, CubBlockPrimitivesWithoutTempStorageHaveTheirOwn) {
  const coop::testing::Ran r =
      coop::testing::coopviz("run --backend emu --races " + program("cub_private_storage.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("cudaSuccess, 0 of 386 sorted values, sums and prefixes wrong: PASSED"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_NE(r.out.find("races: none found in 1 launch"), std::string::npos) << r.out << r.err;
}

// cub::Sum, cub::Max and cub::Min are gone from CUDA 13's CUB: nvcc refuses a program naming
// them, and so does the emulator, naming each (its CUB once still had them).
TEST(HostLibraries, CubsRemovedOperatorsDoNotCompile) {
  const fs::path dir = coop::testing::fresh_folder("cub-removed");
  std::ofstream(dir / "sum.cu") << "#include <cub/cub.cuh>\n"
                                   "int main() { return cub::Sum{}(1, 2) + cub::Max{}(1, 2) + "
                                   "cub::Min{}(1, 2); }\n";
  const coop::testing::Ran r =
      coop::testing::run_coopviz("run --backend emu " + (dir / "sum.cu").string());
  EXPECT_NE(r.exit_code, 0);
  const std::string said = r.out + r.err;
  // The compiler quotes the name as the locale has it: ‘Sum’ or 'Sum'.
  for (const std::string name : {"Sum", "Max", "Min"}) {
    std::istringstream lines(said);
    bool named = false;
    for (std::string line; std::getline(lines, line);)
      named |= line.find("sum.cu:2: error:") != std::string::npos &&
               line.find("is not a member of") != std::string::npos &&
               (line.find("‘" + name + "’") != std::string::npos ||
                line.find("'" + name + "'") != std::string::npos);
    EXPECT_TRUE(named) << name << "\n" << said;
  }
  fs::remove_all(dir);
}

}  // namespace
