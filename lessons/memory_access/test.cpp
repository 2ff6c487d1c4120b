// memory-access beyond its default run: the access analysis gives the hardware's numbers for every
// pattern (4, 8 and 32 sectors per request; 32-way, 1-way and broadcast banks), the lesson records
// memory without being asked, and one request's layout shows its lanes' sectors and banks.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "device/trace/memory_access.hpp"
#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

const LessonDef& memory_access() {
  return *find_lesson("memory-access");
}

int line_of_snippet(std::string_view snippet) {
  const std::vector<int> lines = lines_with(memory_access().source, snippet);
  EXPECT_EQ(lines.size(), 1u) << snippet;
  return lines.empty() ? 0 : lines.front();
}

// The analysis of one line's accesses of one space and kind in `trace`.
LineMemoryStats stats_of(const Trace& trace, int line, MemorySpace space, bool store) {
  for (const LineMemoryStats& s : analyze_memory(trace))
    if (s.line == line && s.space == space && s.store == store) return s;
  ADD_FAILURE() << trace.header.kernel << " has no " << to_string(space)
                << (store ? " store" : " load") << " on line " << line;
  return {};
}

// The first request of warp 0 of block 0 on `line`.
MemoryRequest first_request(const Trace& trace, int line, MemorySpace space, bool store) {
  for (MemoryRequest& r : memory_requests(trace))
    if (r.line == line && r.space == space && r.store == store && r.block == 0 && r.warp == 0 &&
        r.execution == 0)
      return r;
  ADD_FAILURE() << "no request on line " << line;
  return {};
}

LessonRun default_run() {
  auto exec = testing::emulator();
  return run_lesson(memory_access(), *exec, testing::lesson_request(memory_access()));
}

TEST(MemoryAccessLesson, ChecksPassOnTheEmulator) {
  auto exec = testing::emulator();
  for (uint32_t block : {32u, 128u, 256u})
    for (uint32_t grid : {1u, 4u})
      testing::expect_checks_pass(
          run_lesson(memory_access(), *exec,
                     testing::lesson_request(memory_access(), {}, grid, block)),
          "grid " + std::to_string(grid) + ", block " + std::to_string(block));
}

TEST(MemoryAccessLesson, RecordsEveryAccessWithoutTheSwitchAndRestoresIt) {
  auto exec = testing::emulator();
  ASSERT_FALSE(exec->options().record_memory);
  const LessonRun run =
      run_lesson(memory_access(), *exec, testing::lesson_request(memory_access()));
  EXPECT_FALSE(exec->options().record_memory);
  ASSERT_EQ(run.launches.size(), 6u);
  for (const Trace& t : run.launches)
    EXPECT_FALSE(analyze_memory(t).empty()) << t.header.kernel << ": nothing recorded";
}

TEST(MemoryAccessLesson, StridedReadsTouchFourEightAndThirtyTwoSectorsPerRequest) {
  const LessonRun run = default_run();
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  const int load = line_of_snippet("// the strided load");
  const int store = line_of_snippet("// the contiguous store");
  const double expected[] = {4, 8, 32};  // strides 1, 2 and 32
  for (size_t k = 0; k < 3; ++k) {
    const Trace& t = run.launches.at(k);
    ASSERT_EQ(t.header.kernel, "strided_read");
    const LineMemoryStats ld = stats_of(t, load, MemorySpace::Global, false);
    EXPECT_EQ(ld.sectors_per_request(), expected[k]) << "launch " << k;
    EXPECT_EQ(ld.requests, 4u * 256 / 32) << "one request per warp";
    EXPECT_EQ(stats_of(t, store, MemorySpace::Global, true).sectors_per_request(), 4.0);
  }
}

TEST(MemoryAccessLesson, ColumnReadConflictsThirtyTwoWaysUntilPadded) {
  const LessonRun run = default_run();
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  const Trace& plain = run.launches.at(3);
  const Trace& padded = run.launches.at(4);
  ASSERT_EQ(plain.header.kernel, "transpose_tile");
  ASSERT_EQ(padded.header.kernel, "transpose_tile_padded");
  const LineMemoryStats column =
      stats_of(plain, line_of_snippet("// column read, unpadded"), MemorySpace::Shared, false);
  EXPECT_EQ(column.bank_conflict_ways, 32u);
  // 4 tiles of 32 warps; each read takes 32 passes where one would do.
  EXPECT_EQ(column.requests, 4u * 32);
  EXPECT_EQ(column.wavefronts, 4u * 32 * 32);
  EXPECT_EQ(column.bank_conflicts, 4u * 32 * 31);
  const LineMemoryStats padded_column =
      stats_of(padded, line_of_snippet("// column read, padded"), MemorySpace::Shared, false);
  EXPECT_EQ(padded_column.bank_conflict_ways, 1u);
  EXPECT_EQ(padded_column.bank_conflicts, 0u);
  for (const Trace* t : {&plain, &padded}) {
    const int row =
        line_of_snippet(t == &plain ? "// row write, unpadded" : "// row write, padded");
    EXPECT_EQ(stats_of(*t, row, MemorySpace::Shared, true).bank_conflict_ways, 1u);
    EXPECT_EQ(stats_of(*t, row, MemorySpace::Global, false).sectors_per_request(), 4.0);
  }
}

TEST(MemoryAccessLesson, EveryLaneReadingOneWordIsABroadcast) {
  const LessonRun run = default_run();
  const Trace& t = run.launches.at(5);
  ASSERT_EQ(t.header.kernel, "broadcast_read");
  const int line = line_of_snippet("// every lane reads the same word");
  const LineMemoryStats read = stats_of(t, line, MemorySpace::Shared, false);
  EXPECT_EQ(read.bank_conflict_ways, 1u);
  EXPECT_EQ(read.wavefronts, read.requests);
  const RequestLayout l = layout_request(first_request(t, line, MemorySpace::Shared, false));
  ASSERT_EQ(l.lanes.size(), 32u);
  for (const RequestLayout::Lane& lane : l.lanes) {
    EXPECT_TRUE(lane.broadcast) << "lane " << lane.lane;
    EXPECT_FALSE(lane.conflicting) << "lane " << lane.lane;
  }
}

TEST(MemoryAccessLesson, RequestLayoutShowsEachLanesSectorAndBank) {
  const LessonRun run = default_run();
  // Stride 2: lane l reads byte 8 l, so lanes 4s to 4s + 3 share sector s.
  const RequestLayout strided = layout_request(first_request(
      run.launches.at(1), line_of_snippet("// the strided load"), MemorySpace::Global, false));
  ASSERT_EQ(strided.sectors.size(), 8u);
  ASSERT_EQ(strided.lanes.size(), 32u);
  for (const RequestLayout::Lane& lane : strided.lanes) {
    EXPECT_EQ(lane.sector, lane.lane / 4) << "lane " << lane.lane;
    EXPECT_EQ(lane.address, strided.lanes[0].address + 8 * lane.lane);
  }
  // The unpadded column read: every lane of warp 0 (y = 0) asks bank 0, each for its own word.
  const RequestLayout column = layout_request(first_request(
      run.launches.at(3), line_of_snippet("// column read, unpadded"), MemorySpace::Shared, false));
  EXPECT_EQ(column.ways, 32u);
  ASSERT_EQ(column.bank_words.size(), 32u);
  EXPECT_EQ(column.bank_words[0], 32u);
  EXPECT_EQ(std::count(column.bank_words.begin(), column.bank_words.end(), 0u), 31);
  for (const RequestLayout::Lane& lane : column.lanes) {
    EXPECT_EQ(lane.bank, 0u);
    EXPECT_TRUE(lane.conflicting);
    EXPECT_FALSE(lane.broadcast);
  }
  // Padded: lane x of warp 0 asks bank x.
  const RequestLayout padded = layout_request(first_request(
      run.launches.at(4), line_of_snippet("// column read, padded"), MemorySpace::Shared, false));
  EXPECT_EQ(padded.ways, 1u);
  for (const RequestLayout::Lane& lane : padded.lanes) {
    EXPECT_EQ(lane.bank, lane.lane);
    EXPECT_FALSE(lane.conflicting);
  }
}

TEST(MemoryAccessLesson, RefusesLaunchesThatBreakWholeWarpsOrTheBlockLimit) {
  auto exec = testing::emulator();
  LessonRun run =
      run_lesson(memory_access(), *exec, testing::lesson_request(memory_access(), {}, 4, 48));
  EXPECT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("multiple of 32"), std::string::npos) << run.status.message();
  EXPECT_NE(run.status.message().find("48"), std::string::npos);
  run = run_lesson(memory_access(), *exec, testing::lesson_request(memory_access(), {}, 65, 32));
  EXPECT_NE(run.status.message().find("at most 64"), std::string::npos) << run.status.message();
}

// The ncu.json a GPU run leaves in the lesson folder (embedded as gpu_counters) names this
// lesson's launches, each profiled; until one was measured there is nothing to check.
TEST(MemoryAccessLesson, ShippedGpuCountersNameEveryLaunch) {
  if (memory_access().gpu_counters.empty())
    GTEST_SKIP() << "lessons/memory_access/ncu.json not measured yet (scripts/gpu-check.sh ncu)";
  const nlohmann::json j = nlohmann::json::parse(memory_access().gpu_counters);
  EXPECT_EQ(j.at("lesson"), "memory-access");
  const LessonRun run = default_run();
  ASSERT_EQ(j.at("launches").size(), run.launches.size());
  for (size_t i = 0; i < run.launches.size(); ++i) {
    EXPECT_EQ(j["launches"][i].at("kernel"), run.launches[i].header.kernel);
    EXPECT_TRUE(j["launches"][i].at("profiled").get<bool>()) << i;
  }
}

// gpu: the same launches on a GPU pass the same checks.
TEST(MemoryAccessLessonGpu, ChecksPassOnTheGpu) {
  COOP_GPU_OR_SKIP(gpu);
  testing::expect_checks_pass(
      run_lesson(memory_access(), *gpu, testing::lesson_request(memory_access())), "gpu");
}

}  // namespace
}  // namespace coop::lessons
