// Exercises (app/exercise, lessons/<folder>/exercises/): every exercise is well formed, its
// starter fails the hidden cases and its solution passes them; the solution with any one barrier
// removed fails; a wrong solution that passes the shown example fails the hidden cases; and the
// `coopviz exercise` commands, their usage errors, compile errors and crashing kernels.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/exercise/counts.hpp"
#include "app/exercise/exercise.hpp"
#include "app/exercise/first_difference.hpp"
#include "app/program/program.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/check_summary.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
// Test names say which exercise; gtest prints the parameter as its id, not as bytes.
void PrintTo(const Exercise& e, std::ostream* out) {
  *out << e.id;
}
}  // namespace coop::app

namespace {
namespace fs = std::filesystem;
using coop::app::CheckReport;
using coop::app::Exercise;

// A fresh folder for the files a test writes.
fs::path scratch(const std::string& name) {
  return coop::testing::fresh_folder("exercise-test-" + name);
}

using coop::testing::read;

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

CheckReport check(const Exercise& e, const fs::path& file) {
  setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 1);
  coop::Result<CheckReport> r = coop::app::check_exercise(e, file.string());
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : CheckReport{};
}

using coop::testing::summary;

std::vector<Exercise> all_exercises() {
  coop::Result<std::vector<Exercise>> all = coop::app::find_exercises();
  return all.ok() ? *all : std::vector<Exercise>{};
}

TEST(Exercises, AtLeastTwelveOverElevenLessonsEachWithSpecHintsAndFiles) {
  coop::Result<std::vector<Exercise>> all = coop::app::find_exercises();
  ASSERT_TRUE(all.ok()) << all.message();
  std::set<std::string> lessons, ids;
  for (const Exercise& e : *all) {
    SCOPED_TRACE(e.id);
    lessons.insert(e.lesson);
    EXPECT_TRUE(ids.insert(e.id).second);
    EXPECT_FALSE(e.title.empty());
    EXPECT_GT(e.spec.size(), 100u);
    EXPECT_GE(e.hints.size(), 1u);
    EXPECT_LE(e.hints.size(), 3u);
    EXPECT_NE(read(e.starter()).find("TODO"), std::string::npos);
    EXPECT_EQ(read(e.solution()).find("TODO"), std::string::npos);
    EXPECT_TRUE(fs::is_regular_file(e.folder / "cases.cu"));
  }
  EXPECT_GE(all->size(), 12u);
  EXPECT_GE(lessons.size(), 11u);
  // Every exercise's count rules are well formed.
  for (const Exercise& e : *all) {
    coop::Result<std::vector<coop::app::CountRule>> rules = coop::app::read_count_rules(e.counts());
    EXPECT_TRUE(rules.ok()) << e.id << ": " << rules.message();
  }
}

TEST(Exercises, UnknownIdNamesTheKnownOnes) {
  coop::Result<Exercise> e = coop::app::find_exercise("no-such-exercise");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.message().find("no-such-exercise"), std::string::npos);
  EXPECT_NE(e.message().find("block-sum"), std::string::npos);
}

TEST(Exercises, MalformedTextIsAnErrorNamingTheFileAndTheLimit) {
  const fs::path dir = scratch("text");
  Exercise e;
  write(dir / "untitled.md", "Some spec\n");
  coop::Status s = coop::app::read_exercise_text(dir / "untitled.md", e);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("untitled.md:1"), std::string::npos) << s.message();
  Exercise f;
  write(dir / "hints.md", "# T\nspec\n## Hint\na\n## Hint\nb\n## Hint\nc\n## Hint\nd\n");
  s = coop::app::read_exercise_text(dir / "hints.md", f);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("more than 3 hints"), std::string::npos) << s.message();
  Exercise g;
  write(dir / "good.md", "# Title here\n\nThe spec.\n\n## Hint\n\nFirst.\n\n## Hint\nSecond.\n");
  ASSERT_TRUE(coop::app::read_exercise_text(dir / "good.md", g).ok());
  EXPECT_EQ(g.title, "Title here");
  EXPECT_EQ(g.spec, "The spec.");
  EXPECT_EQ(g.hints, (std::vector<std::string>{"First.", "Second."}));
  fs::remove_all(dir);
}

// A parameterised test's name: the exercise's id, with '_' for '-'.
template <class T>
std::string named_by_id(const ::testing::TestParamInfo<T>& info) {
  std::string name = info.param.id;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

class EachExercise : public ::testing::TestWithParam<Exercise> {};

TEST_P(EachExercise, StarterFailsItsCheck) {
  const CheckReport r = check(GetParam(), GetParam().starter());
  EXPECT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed()) << summary(r);
  EXPECT_FALSE(r.cases.empty()) << summary(r);
}

TEST_P(EachExercise, SolutionPassesEveryHiddenCase) {
  const CheckReport r = check(GetParam(), GetParam().solution());
  EXPECT_TRUE(r.passed()) << summary(r);
  // Several launch shapes and inputs, each under every check schedule.
  std::set<std::string> launches;
  for (const auto& c : r.cases) launches.insert(c.launch);
  EXPECT_GE(launches.size(), 5u);
  EXPECT_EQ(r.cases.size() % coop::app::check_schedules().size(), 0u);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The starter is the solution with one part of its kernel taken out: the same lines before and
// after it (main() and the shown example among them), and the part to write marked TODO.
TEST_P(EachExercise, StarterIsTheSolutionWithOneMarkedHole) {
  const std::vector<std::string> solution = lines_of(read(GetParam().solution()));
  const std::vector<std::string> starter = lines_of(read(GetParam().starter()));
  size_t before = 0, after = 0;
  while (before < solution.size() && before < starter.size() && solution[before] == starter[before])
    ++before;
  while (after + before < solution.size() && after + before < starter.size() &&
         solution[solution.size() - 1 - after] == starter[starter.size() - 1 - after])
    ++after;
  std::string hole, filled;
  for (size_t k = before; k + after < starter.size(); ++k) hole += starter[k] + "\n";
  for (size_t k = before; k + after < solution.size(); ++k) filled += solution[k] + "\n";
  EXPECT_NE(hole.find("TODO"), std::string::npos) << hole;
  EXPECT_EQ(hole.find("main("), std::string::npos) << hole;
  EXPECT_EQ(filled.find("main("), std::string::npos) << filled;
  EXPECT_FALSE(filled.empty());
}

// A line that is a barrier: __syncthreads(), __syncwarp(), x.sync(), barrier_wait, grid.sync().
bool is_barrier_line(const std::string& line) {
  static const std::regex barrier(
      R"((__syncthreads|__syncwarp|\.sync|barrier_wait|barrier_arrive_and_wait)\s*\()");
  const std::string code = line.substr(0, line.find("//"));
  return std::regex_search(code, barrier);
}

TEST_P(EachExercise, SolutionWithAnyBarrierRemovedFails) {
  const Exercise& e = GetParam();
  const std::vector<std::string> lines = lines_of(read(e.solution()));
  const fs::path dir = scratch("barrier-" + e.id);
  int removed = 0;
  for (size_t k = 0; k < lines.size(); ++k) {
    if (!is_barrier_line(lines[k])) continue;
    std::string variant;
    for (size_t j = 0; j < lines.size(); ++j) variant += (j == k ? "" : lines[j]) + "\n";
    const fs::path file = dir / ("without_line_" + std::to_string(k + 1) + ".cu");
    write(file, variant);
    const CheckReport r = check(e, file);
    ++removed;
    if (!r.compiled) continue;  // removing it broke the build: nothing to check
    EXPECT_FALSE(r.passed()) << e.id << ": removing line " << k + 1 << " (" << lines[k]
                             << ") still passes";
  }
  if (removed == 0) GTEST_SKIP() << e.id << "'s solution has no barrier line";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Lessons, EachExercise, ::testing::ValuesIn(all_exercises()),
                         named_by_id<Exercise>);

// Solutions that are right for the shown example (the starter's main() prints PASSED) and wrong
// in general: each is the reference with one edit, assumed about the example's launch.
struct Wrong {
  const char* id;
  const char* from;
  const char* to;
  const char* why;
};
const Wrong kWrongSolutions[] = {
    {"block-sum", "tile_sums[lane]", "tile_sums[lane % 8]", "assumes 8 tiles, a block of 256"},
    {"tile-shuffle-sum", "sums[i / 32]", "sums[blockIdx.x * 8 + tile.meta_group_rank()]",
     "assumes 8 tiles, a block of 256"},
    {"block-scan", "lane < int(tile.meta_group_size()) ? tile_totals[lane] : 0",
     "lane < 8 ? tile_totals[lane] : 0", "assumes 8 tiles, a block of 256"},
    {"fix-the-race", "min(int(blockDim.x), n - first)", "int(blockDim.x)",
     "assumes n is a multiple of the block"},
    {"sum-of-the-others", "for (int i = rank; i < n; i += threads) mine",
     "for (int i = rank; i < n; i += 512) mine", "assumes the grid of 4 x 128 threads"},
    {"tile-ranks", "100 * int(tile.meta_group_rank())", "100 * (i / 8)",
     "numbers the tiles over the grid, right in block 0 only"},
    {"label-sums", "cg::labeled_partition(active, label[i])",
     "cg::labeled_partition(cg::tiled_partition<32>(cg::this_thread_block()), label[i])",
     "assumes every lane of the warp is there (n a multiple of 32)"},
    {"overlap-the-wait", "published[(r + 1) % count]", "published[(r + 1) % blockDim.x]",
     "assumes n is a multiple of the block"},
    {"double-buffer", "count = min(size, n - first);", "count = size;",
     "assumes n is a multiple of the block"},
    {"choose-the-block", "for (int block = 32; block <= max_block; block += 32)",
     "for (int block = 1024; block <= 1024; block += 32)",
     "a fixed block of 1024, the example's best"},
};

void PrintTo(const Wrong& w, std::ostream* out) {
  *out << w.id << ": " << w.why;
}

class WrongSolution : public ::testing::TestWithParam<Wrong> {};

// Writes the reference solution with `w`'s edit into `file`.
void write_variant(const Exercise& e, const Wrong& w, const fs::path& file) {
  std::string text = read(e.solution());
  const size_t at = text.find(w.from);
  ASSERT_NE(at, std::string::npos) << w.from;
  text.replace(at, std::string(w.from).size(), w.to);
  write(file, text);
}

// The same, and checks that the shown example (the program as the student runs it) still passes.
void write_variant_passing_the_example(const Exercise& e, const Wrong& w, const fs::path& file) {
  ASSERT_NO_FATAL_FAILURE(write_variant(e, w, file));
  const coop::testing::Ran shown = coop::testing::coopviz("run --backend emu " + file.string());
  EXPECT_EQ(shown.exit_code, 0) << shown.out << shown.err;
  EXPECT_NE(shown.out.find("PASSED"), std::string::npos) << shown.out;
}

TEST_P(WrongSolution, PassesTheShownExampleButFailsTheHiddenCases) {
  const Wrong w = GetParam();
  coop::Result<Exercise> e = coop::app::find_exercise(w.id);
  ASSERT_TRUE(e.ok()) << e.message();
  const fs::path dir = scratch(std::string("wrong-") + w.id);
  const fs::path file = dir / "wrong.cu";
  ASSERT_NO_FATAL_FAILURE(write_variant_passing_the_example(*e, w, file));
  const CheckReport r = check(*e, file);
  EXPECT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed()) << w.why << summary(r);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Exercises, WrongSolution, ::testing::ValuesIn(kWrongSolutions),
                         named_by_id<Wrong>);

// Barriers that are not: a warp tile's sync() in place of the block barrier, or a tile made and
// never synced. Making a tile of 32 threads orders nothing (each thread computes it alone) and a
// tile's sync() waits for its own warp only, so a thread still reads its mirror's value from
// another warp before that warp wrote it, and the check must fail the solution.
const Wrong kFalseBarriers[] = {
    {"fix-the-race", "block.sync();", "cg::tiled_partition<32>(block).sync();",
     "a warp tile's sync() for the block's barrier"},
    {"fix-the-race", "block.sync();",
     "const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n  (void)tile;",
     "a tile made and never synced"},
};

class FalseBarrier : public ::testing::TestWithParam<Wrong> {};

TEST_P(FalseBarrier, FailsTheCheck) {
  const Wrong w = GetParam();
  coop::Result<Exercise> e = coop::app::find_exercise(w.id);
  ASSERT_TRUE(e.ok()) << e.message();
  const fs::path dir = scratch("false-barrier-" + std::to_string(std::hash<std::string>{}(w.to)));
  const fs::path file = dir / "false_barrier.cu";
  ASSERT_NO_FATAL_FAILURE(write_variant(*e, w, file));
  const CheckReport r = check(*e, file);
  EXPECT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed()) << w.why << summary(r);
  // The check names the cause at the file's lines: the race (both accesses), or the read of a
  // slot its writer's warp had not written yet, whichever a schedule meets first.
  size_t named = 0;
  for (const auto& c : r.cases)
    named += !c.passed && c.problem.find("false_barrier.cu:") != std::string::npos &&
             (c.problem.find("data race") != std::string::npos ||
              c.problem.find("never written") != std::string::npos);
  EXPECT_GT(named, 0u) << w.why << ": a case fails naming the race at the file's lines"
                       << summary(r);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Exercises, FalseBarrier, ::testing::ValuesIn(kFalseBarriers),
                         [](const ::testing::TestParamInfo<Wrong>& info) {
                           return std::string(info.index == 0 ? "TileSync" : "TileNeverSynced");
                         });

// Solutions whose outputs are right everywhere but that miss the exercise's point, which its
// count rules (counts.json) hold the student to: `why` is what the failure must say.
const Wrong kCountedSolutions[] = {
    {"aggregated-append",
     "cg::coalesced_group active = cg::coalesced_threads();\n  int first = 0;\n  if "
     "(active.thread_rank() == 0) first = atomicAdd(count, int(active.num_threads()));\n  first "
     "= active.shfl(first, 0);\n  out[first + active.thread_rank()] = input[i];",
     "out[atomicAdd(count, 1)] = input[i];", "one atomicAdd per group of active lanes"},
    {"tile-shuffle-sum",
     "  for (int offset = tile.num_threads() / 2; offset > 0; offset /= 2)\n    value += "
     "tile.shfl_down(value, offset);",
     "  value = cg::reduce(tile, value, cg::plus<int>());", "use shuffles only"},
    {"block-histogram", "if (i < n) atomicAdd(&counts[bin_of(input[i])], 1);",
     "if (i < n) atomicAdd(&bins[bin_of(input[i])], 1);",
     "at most one global atomicAdd per bin and block"},
    {"overlap-the-wait",
     "  cg::thread_block::arrival_token token = block.barrier_arrive();\n  if (r < count) "
     "squares[i] = in[i] * in[i];  // needs nobody else's value",
     "  if (r < count) squares[i] = in[i] * in[i];\n  cg::thread_block::arrival_token token = "
     "block.barrier_arrive();",
     "write squares[i] between barrier_arrive and barrier_wait"},
    {"double-buffer",
     "    fetch(block, buffers[(k + 1) % 2], in, tile + gridDim.x, n);\n    const int* here = "
     "buffers[k % 2];\n    const int first = tile * size, count = min(size, n - first);\n    if "
     "(t < count) out[first + t] = here[t] + here[(t + 1) % count];",
     "    const int* here = buffers[k % 2];\n    const int first = tile * size, count = min(size, "
     "n - first);\n    if (t < count) out[first + t] = here[t] + here[(t + 1) % count];\n    "
     "cg::wait(block);\n    fetch(block, buffers[(k + 1) % 2], in, tile + gridDim.x, n);",
     "start the next copy before reading this tile"},
    {"tile-shuffle-sum",
     "  for (int offset = tile.num_threads() / 2; offset > 0; offset /= 2)\n    value += "
     "tile.shfl_down(value, offset);",
     "  __shared__ int staged[1024];\n  staged[threadIdx.x] = value;\n  tile.sync();\n  if "
     "(tile.thread_rank() == 0)\n    for (int k = 1; k < 32; ++k) value += staged[threadIdx.x + "
     "k];",
     "use shuffles only: no shared memory"},
    {"block-sum", "const int tile_sum = cg::reduce(tile, value, cg::plus<int>());",
     "int tile_sum = value;\n  for (int d = 16; d > 0; d /= 2) tile_sum += tile.shfl_xor(tile_sum, "
     "d);",
     "reduce over each 32-thread tile with cg::reduce"},
    {"overlap-the-wait", "published[r] + published[(r + 1) % count]",
     "published[r] + in[first + (r + 1) % count]", "the neighbour comes from shared memory"},
};

class CountedSolution : public ::testing::TestWithParam<Wrong> {};

TEST_P(CountedSolution, RightOutputsButTheCountRuleFailsItAndSaysWhy) {
  const Wrong w = GetParam();
  coop::Result<Exercise> e = coop::app::find_exercise(w.id);
  ASSERT_TRUE(e.ok()) << e.message();
  const fs::path dir = scratch(std::string("counted-") + w.id);
  const fs::path file = dir / "counted.cu";
  ASSERT_NO_FATAL_FAILURE(write_variant_passing_the_example(*e, w, file));
  const CheckReport r = check(*e, file);
  ASSERT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_FALSE(r.passed()) << summary(r);
  // Only the lockstep run is counted; its cases fail with the rule's words, and every output
  // was right (no case names a wrong output).
  size_t counted = 0;
  for (const auto& c : r.cases) {
    EXPECT_LT(c.index, 0) << c.launch << " / " << c.input << ": output " << c.index;
    if (c.passed) continue;
    ++counted;
    EXPECT_EQ(c.schedule, "lockstep");
    EXPECT_NE(c.problem.find(w.why), std::string::npos) << c.problem;
  }
  EXPECT_GT(counted, 0u);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Exercises, CountedSolution, ::testing::ValuesIn(kCountedSolutions),
                         [](const ::testing::TestParamInfo<Wrong>& info) {
                           return named_by_id(info) + "_" + std::to_string(info.index);
                         });

// A count rule states the property, not the reference's order: a right solution that has the
// property another way passes. Double buffering with the next copy issued first and
// wait_prior<1> (this tile landed, the next still on its way), a plain wait on the last tile.
TEST(CountRules, ARightSolutionInAnotherOrderPasses) {
  const Wrong w = {"double-buffer",
                   "    cg::wait(block);\n    // The next tile is copied into the other buffer "
                   "while this one is used.\n    fetch(block, buffers[(k + 1) % 2], in, tile + "
                   "gridDim.x, n);",
                   "    block.sync();  // nobody still reads the other buffer\n"
                   "    if (tile + int(gridDim.x) < tiles) {\n      fetch(block, buffers[(k + 1) "
                   "% 2], in, tile + gridDim.x, n);\n      cg::wait_prior<1>(block);\n    } "
                   "else {\n      cg::wait(block);\n    }",
                   "issue, wait_prior<1>, compute"};
  coop::Result<Exercise> e = coop::app::find_exercise(w.id);
  ASSERT_TRUE(e.ok()) << e.message();
  const fs::path dir = scratch("counted-other-order");
  const fs::path file = dir / "other_order.cu";
  ASSERT_NO_FATAL_FAILURE(write_variant(*e, w, file));
  const CheckReport r = check(*e, file);
  ASSERT_TRUE(r.compiled) << r.compiler_output;
  EXPECT_TRUE(r.passed()) << w.why << summary(r);
  fs::remove_all(dir);
}

TEST(CountRules, AMalformedRuleIsAnErrorNamingTheFileTheRuleAndWhatIsWrong) {
  const fs::path dir = scratch("counts");
  const auto error_of = [&](const std::string& text) {
    write(dir / "counts.json", text);
    coop::Result<std::vector<coop::app::CountRule>> r =
        coop::app::read_count_rules(dir / "counts.json");
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.message();
  };
  EXPECT_NE(error_of("{}").find("not a JSON array"), std::string::npos);
  const std::string rule = R"({"kernel": "k", "says": "s", "per": "warp", "at_most": 1, )";
  std::string m = error_of("[" + rule + R"("event": "atomc"}])");
  EXPECT_NE(m.find("counts.json: rule 1"), std::string::npos) << m;
  EXPECT_NE(m.find("'atomc' is not an event kind"), std::string::npos) << m;
  m = error_of("[" + rule + R"("event": "atomic", "between": "barrier_arrive"}])");
  EXPECT_NE(m.find("FIRST..SECOND"), std::string::npos) << m;
  m = error_of(R"([{"kernel": "k", "says": "s", "event": "atomic", "per": "lane", "at_most": 1}])");
  EXPECT_NE(m.find("thread, warp, block or launch"), std::string::npos) << m;
  m = error_of(R"([{"kernel": "k", "says": "s", "event": "atomic", "per": "warp"}])");
  EXPECT_NE(m.find("at_most"), std::string::npos) << m;
  // No file: no rules.
  coop::Result<std::vector<coop::app::CountRule>> none =
      coop::app::read_count_rules(dir / "absent.json");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  fs::remove_all(dir);
}

// A solution wrong in one known thread: the first failing case's first difference from the
// reference's trace is that thread's store of its output, in the student's trace of the case.
TEST(FirstDifference, NamesTheThreadAndTheEventWhereTheTraceDeparts) {
  coop::Result<Exercise> e = coop::app::find_exercise("overlap-the-wait");
  ASSERT_TRUE(e.ok()) << e.message();
  std::string text = read(e->solution());
  const std::string from = "out[i] = published[r] + published[(r + 1) % count];";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(),
               "out[i] = published[r] + published[(r + 1) % count] + (i == 37);");
  const fs::path dir = scratch("first-difference");
  write(dir / "off_by_one_at_37.cu", text);
  const CheckReport r = check(*e, dir / "off_by_one_at_37.cu");
  ASSERT_FALSE(r.passed()) << summary(r);
  // The first case with a thread 37: grid 4 x block 256 over 1024 elements, lockstep.
  const coop::app::CaseResult* failed = nullptr;
  for (const auto& c : r.cases)
    if (!c.passed) {
      failed = &c;
      break;
    }
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->launch, "grid 4 x block 256, n 1024");
  EXPECT_EQ(failed->schedule, "lockstep");
  const coop::app::CaseResult::FirstDifference& d = failed->first_difference;
  EXPECT_EQ(d.launch, 0) << d.what;
  EXPECT_EQ(d.thread, 37) << d.what;
  EXPECT_EQ(d.block, 0) << d.what;
  EXPECT_NE(d.what.find("thread 37 (block 0) stores"), std::string::npos) << d.what;
  EXPECT_NE(d.what.find("the reference's stores"), std::string::npos) << d.what;
  // The event is thread 37's store of out[37] in the student's trace of that case.
  ASSERT_FALSE(failed->trace_path.empty());
  coop::Result<std::vector<coop::Trace>> traces = coop::load_traces(failed->trace_path);
  ASSERT_TRUE(traces.ok()) << traces.message();
  ASSERT_EQ(traces->size(), 1u);
  ASSERT_GE(d.event, 0);
  ASSERT_LT(size_t(d.event), (*traces)[0].events.size());
  const coop::Event& ev = (*traces)[0].events[size_t(d.event)];
  EXPECT_EQ(ev.thread, 37u);
  EXPECT_EQ(ev.kind, coop::EventKind::Store);
  // Input "ramp": in[37] + in[38] + 1.
  EXPECT_EQ(int(ev.a), 37 + 38 + 1);
  // Only the failing case was explained; passing ones carry nothing.
  for (const auto& c : r.cases)
    if (&c != failed) EXPECT_TRUE(c.first_difference.what.empty() && c.trace_path.empty());
  fs::remove_all(dir);
}

// Two traces of one launch whose threads 40 and 3 store other values at the same first moment,
// and thread 1 at a later one: the earliest moment's lowest thread is named, at its event.
TEST(FirstDifference, TheEarliestMomentsLowestThreadIsNamed) {
  coop::Trace reference;
  reference.header.kernel = "k";
  reference.header.launch.grid = {1, 1, 1};
  reference.header.launch.block = {64, 1, 1};
  const auto store = [](uint32_t thread, uint64_t time, uint64_t value) {
    coop::Event e{};
    e.kind = coop::EventKind::Store;
    e.value_type = coop::ValueType::I32;
    e.thread = thread;
    e.time = time;
    e.a = value;
    return e;
  };
  for (uint64_t time : {1, 2})
    for (uint32_t t = 0; t < 64; ++t) reference.events.push_back(store(t, time, 100 * time + t));
  coop::Trace student = reference;
  student.events[40].a = 7;
  student.events[3].a = 7;
  student.events[64 + 1].a = 7;
  const coop::app::CaseResult::FirstDifference d =
      coop::app::first_difference({student}, {reference});
  EXPECT_EQ(d.launch, 0);
  EXPECT_EQ(d.thread, 3);
  EXPECT_EQ(d.block, 0);
  EXPECT_EQ(d.event, 3);
  EXPECT_NE(d.what.find("thread 3 (block 0) stores"), std::string::npos) << d.what;
  EXPECT_NE(d.what.find("= 7; the reference's stores"), std::string::npos) << d.what;
  EXPECT_NE(d.what.find("= 103"), std::string::npos) << d.what;
  // No launch where the reference made one; no difference at all.
  const coop::app::CaseResult::FirstDifference none = coop::app::first_difference({}, {reference});
  EXPECT_EQ(none.launch, -1);
  EXPECT_NE(none.what.find("made 0 launches"), std::string::npos) << none.what;
  // A run that was stopped (an endless loop) kept no trace: its launch did not finish.
  const coop::app::CaseResult::FirstDifference hung =
      coop::app::first_difference({}, {reference}, "the case ran 60 s of CPU time and was stopped");
  EXPECT_EQ(hung.launch, -1);
  EXPECT_EQ(hung.what,
            "your launch 0 of k did not finish, so the run kept no trace of it (the case ran 60 s "
            "of CPU time and was stopped); the reference's launch 0 is k (grid 1 x block 64)")
      << hung.what;
  const coop::app::CaseResult::FirstDifference same =
      coop::app::first_difference({reference}, {reference});
  EXPECT_EQ(same.launch, -1);
  EXPECT_NE(same.what.find("same events"), std::string::npos) << same.what;
}

// A passing check traces nothing of its own and explains nothing.
TEST(FirstDifference, APassingCheckHasNoTraceAndNoDifference) {
  coop::Result<Exercise> e = coop::app::find_exercise("overlap-the-wait");
  ASSERT_TRUE(e.ok()) << e.message();
  const CheckReport r = check(*e, e->solution());
  ASSERT_TRUE(r.passed()) << summary(r);
  for (const auto& c : r.cases)
    EXPECT_TRUE(c.trace_path.empty() && c.first_difference.what.empty());
}

}  // namespace
