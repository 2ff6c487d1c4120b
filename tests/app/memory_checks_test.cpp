// Memory checks of a user's program on the emulator (device/emu/memory_checks.hpp): an access
// outside its allocation (a guard zone after a cudaMalloc array, a negative __shared__ index, past
// a dynamic shared array) stops the program at the user's line, naming the thread, the
// allocation, its size and the offset; with --check-memory so does a read of memory never
// written. A correct program is told nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tests/app/run_coopviz.hpp"

namespace {

using coop::testing::coopviz;
using coop::testing::program;

// The program was stopped (never a crash) and coopviz says `words`.
void expect_stopped(const coop::testing::Ran& r, const std::string& words) {
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.find("not reached"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("crashed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the program was stopped: " + words), std::string::npos) << r.err;
}

struct Stop {
  const char* file;   // under tests/programs/failing
  const char* words;  // what coopviz says after "the program was stopped: "
};

void PrintTo(const Stop& stop, std::ostream* out) {
  *out << stop.file;
}

class OutOfBounds : public ::testing::TestWithParam<Stop> {};

TEST_P(OutOfBounds, StopsTheProgramAtTheLineNamingThreadAllocationSizeAndOffset) {
  expect_stopped(coopviz("run --backend emu " + program(std::string("failing/") + GetParam().file)),
                 GetParam().words);
}

INSTANTIATE_TEST_SUITE_P(
    Programs, OutOfBounds,
    ::testing::Values(
        Stop{"out_of_bounds_write.cu",
             "thread 0 (block 2) wrote 4 bytes at d_out[256] at out_of_bounds_write.cu:8, past "
             "the end of d_out, a 1024-byte allocation from cudaMalloc at "
             "out_of_bounds_write.cu:14"},
        Stop{"unguarded_read.cu",
             "thread 100 (block 0) read 4 bytes at d_in[100] at unguarded_read.cu:9, past the end "
             "of d_in, a 400-byte allocation from cudaMalloc at unguarded_read.cu:16"},
        Stop{"negative_shared_index.cu",
             "thread 0 (block 0) wrote 4 bytes at s[-1] at negative_shared_index.cu:8, before the "
             "start of __shared__ s (256 bytes, declared at line 7)"},
        Stop{"dynamic_shared_overrun.cu",
             "thread 63 (block 0) read 4 bytes at buf[64] at dynamic_shared_overrun.cu:9, past "
             "the end of extern __shared__ buf, the launch's 256 bytes of dynamic shared memory"},
        Stop{"thrust_vector_overrun.cu",
             "thread 232 (block 3) wrote 4 bytes at the allocation[4000] at "
             "thrust_vector_overrun.cu:10, past the end of a 4000-byte allocation from "
             "thrust::device_vector"}),
    [](const ::testing::TestParamInfo<Stop>& info) {
      std::string name = std::filesystem::path(info.param.file).stem().string();
      std::erase(name, '_');
      return name;
    });

// Reading never-written memory is found with --check-memory; without it the program computes
// with the poison fresh device memory holds (0xa5 bytes), as it would with a GPU's garbage.
TEST(MemoryChecks, AReadOfMemoryNeverWrittenIsFoundWithCheckMemory) {
  const coop::testing::Ran checked =
      coopviz("run --backend emu --check-memory " + program("failing/never_written.cu"));
  expect_stopped(checked,
                 "read of memory never written: thread 0 (block 0) read 4 bytes at d_bias[0] at "
                 "never_written.cu:8, in d_bias, a 128-byte allocation from cudaMalloc at "
                 "never_written.cu:13");
  EXPECT_NE(checked.err.find("neither the host (cudaMemcpy, cudaMemset) nor any thread"),
            std::string::npos)
      << checked.err;
  const coop::testing::Ran unchecked =
      coopviz("run --backend emu " + program("failing/never_written.cu"));
  EXPECT_EQ(unchecked.exit_code, 0) << unchecked.err;
  EXPECT_NE(unchecked.out.find("data[0] = -1515870811"), std::string::npos) << unchecked.out;
}

// What a CUB call on the emulator writes counts as written, and no more: DeviceSelect wrote 20
// of d_out's 40 ints, and the kernel's read of the 21st is found.
TEST(MemoryChecks, AReadPastWhatACubCallWroteIsFound) {
  expect_stopped(
      coopviz("run --backend emu --check-memory " + program("failing/cub_selected_tail.cu")),
      "read of memory never written: thread 20 (block 0) read 4 bytes at d_out[20] at "
      "cub_selected_tail.cu:13, in d_out, a 160-byte allocation from cudaMalloc at "
      "cub_selected_tail.cu:22");
}

// A CUB call's own reads are checked as a kernel's are: a device-wide sum over floats the host
// copied only some of into, and a block's load of ints the host set only some of, stop the
// program at the call's line, naming the call.
TEST(MemoryChecks, ACubCallsReadOfMemoryNeverWrittenIsFound) {
  expect_stopped(
      coopviz("run --backend emu --check-memory " + program("failing/cub_sum_unwritten.cu")),
      "read of memory never written: cub::DeviceReduce::Sum read 4 bytes at d_in[60] at "
      "cub_sum_unwritten.cu:60, in d_in, a 512-byte allocation from cudaMalloc at "
      "cub_sum_unwritten.cu:56");
  expect_stopped(
      coopviz("run --backend emu --check-memory " + program("failing/cub_block_load_unwritten.cu")),
      "read of memory never written: thread 25 (block 0) in cub::BlockLoad::Load read 4 bytes at "
      "d_in[100] at cub_block_load_unwritten.cu:11, in d_in, a 512-byte allocation from "
      "cudaMalloc at cub_block_load_unwritten.cu:17");
}

// So are its reads through the iterators that wrap device memory (thrust's transform_iterator
// and device_ptr, CUB's cache-modified iterator, in a device-wide call or a kernel), a kernel's
// cub::ThreadLoad, a histogram's active channels (and not its inactive ones: the alpha never
// written is not reported), and the values UniqueByKey keeps: the same program, each read picked
// by its argument.
TEST(MemoryChecks, ACubCallsReadThroughAnIteratorOrOfPartOfItsInputIsFound) {
  const std::string file = "cub_sum_unwritten.cu";
  const std::string floats = ", in d_in, a 512-byte allocation from cudaMalloc at " + file + ":56";
  const std::pair<const char*, std::string> reads[] = {
      {"transform", "cub::DeviceReduce::Sum read 4 bytes at d_in[60] at " + file + ":64" + floats},
      {"vector", "cub::DeviceReduce::Sum read 4 bytes at d_in[60] at " + file + ":70" + floats},
      {"cached", "cub::DeviceReduce::Max read 4 bytes at d_in[60] at " + file + ":75" + floats},
      {"threadload", "thread 100 (block 0) in cub::ThreadLoad read 4 bytes at d_in[100] at " +
                         file + ":33" + floats},
      {"iterator",
       "thread 100 (block 0) in cub::CacheModifiedInputIterator read 4 bytes at d_in[100] at " +
           file + ":38" + floats},
      {"channels", "cub::DeviceHistogram::MultiHistogramEven read 1 byte at d_rgba[62] at " + file +
                       ":96, in d_rgba, a 64-byte allocation from cudaMalloc at " + file + ":87"},
      {"unique", "cub::DeviceSelect::UniqueByKey read 4 bytes at d_values[9] at " + file +
                     ":110, in d_values, a 48-byte allocation from cudaMalloc at " + file +
                     ":103"}};
  for (const auto& [pick, words] : reads) {
    SCOPED_TRACE(pick);
    expect_stopped(
        coopviz("run --backend emu --check-memory " + program("failing/" + file) + " -- " + pick),
        "read of memory never written: " + words);
  }
}

// Correct programs, checked: nothing said, and their own verdicts stand.
TEST(MemoryChecks, CorrectProgramsReportNothing) {
  for (const char* file : {"scale_by_argument.cu", "shared_histogram.cu", "pitched_rows.cu",
                           "pipeline_stages.cu", "partial_tiles.cu"}) {
    const coop::testing::Ran r = coopviz("run --backend emu --check-memory " + program(file));
    EXPECT_EQ(r.exit_code, 0) << file << "\n" << r.out << r.err;
    EXPECT_EQ(r.err, "") << file;
    EXPECT_NE(r.out.find("PASSED"), std::string::npos) << file << "\n" << r.out;
  }
}

// --json says the program stopped and why; the launch that stopped is in the trace.
TEST(MemoryChecks, JsonSaysWhyTheProgramStopped) {
  const coop::testing::Ran r =
      coopviz("run --backend emu --json " + program("failing/negative_shared_index.cu"));
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  EXPECT_EQ(j["status"], "stopped");
  EXPECT_NE(j.value("problem", "").find("at s[-1] at negative_shared_index.cu:8"),
            std::string::npos)
      << j.dump(2);
  ASSERT_EQ(j["launches"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["launches"][0]["kernel"], "shift");
}

}  // namespace
