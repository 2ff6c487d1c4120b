// tiled-partitions beyond its default run: every runtime tile size, larger blocks, the
// block-size rule; on a GPU, the same against the emulator.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

using testing::expect_checks_pass;
using testing::lesson_request;

const LessonDef& tiled() {
  return *find_lesson("tiled-partitions");
}

TEST(TiledPartitions, EveryRuntimeTileSizePrintsFromItsRankZeros) {
  auto exec = testing::emulator();
  for (int64_t tile : {1, 2, 4, 8, 16, 32}) {
    const LessonRun run = run_lesson(tiled(), *exec, lesson_request(tiled(), {{"tile", tile}}));
    expect_checks_pass(run, "tile=" + std::to_string(tile));
    // Exactly one printed line per tile: one traced store per tile of every block.
    size_t prints = 0;
    for (const Event& e : run.launches.at(0).events) prints += e.kind == EventKind::Store;
    EXPECT_EQ(prints, tiled().default_config.total_threads() / size_t(tile)) << "tile=" << tile;
  }
}

TEST(TiledPartitions, LargerBlocksKeepTheNumberingWithinEachParent) {
  auto exec = testing::emulator();
  for (uint32_t block : {128u, 512u, 1024u}) {
    RunRequest r = lesson_request(tiled());
    r.config.block = {block, 1, 1};
    expect_checks_pass(run_lesson(tiled(), *exec, r), "block " + std::to_string(block));
  }
}

TEST(TiledPartitions, RefusesBlocksThatAreNotWholeTilesOf128) {
  auto exec = testing::emulator();
  RunRequest r = lesson_request(tiled());
  r.config.block = {192, 1, 1};
  const LessonRun run = run_lesson(tiled(), *exec, r);
  ASSERT_FALSE(run.status.ok());
  // lesson.json's rule, in its words: the window refuses such a block before anything runs.
  EXPECT_NE(run.status.message().find("a multiple of 128 threads: got 192"), std::string::npos)
      << run.status.message();
  const Result<Params> bad = parse_params(tiled(), {"tile=3"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("power of two"), std::string::npos) << bad.message();
}

// gpu: the smallest, the blog's and the largest runtime tile, and a 512-thread block.
TEST(TiledPartitionsGpu, TileSizesMatchTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  for (int64_t tile : {1, 4, 32})
    testing::expect_backends_agree(*gpu, "tiled-partitions",
                                   lesson_request(tiled(), {{"tile", tile}}));
  RunRequest r = lesson_request(tiled());
  r.config.block = {512, 1, 1};
  testing::expect_backends_agree(*gpu, "tiled-partitions", r);
}

}  // namespace
}  // namespace coop::lessons
