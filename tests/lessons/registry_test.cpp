// Every lesson in the registry, validated the same way: metadata complete, every code snippet a
// step names exists in the kernel, parameters and the default launch legal, checks pass on the
// emulator; on a GPU, checks pass there too and both backends' traces agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "device/occupancy/kernel_resources.hpp"
#include "device/trace/compare.hpp"
#include "device/trace/instrumented_flag.hpp"
#include "device/trace/names.hpp"
#include "device/trace/race_detector.hpp"
#include "lessons/lesson.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

RunRequest default_request(const LessonDef& l) {
  RunRequest r;
  r.config = l.default_config;
  for (const ParamDef& p : l.params) r.params[p.name] = p.default_value;
  return r;
}

std::vector<std::string> lesson_ids_for_tests() {
  std::vector<std::string> ids;
  for (const LessonDef& l : registry()) ids.push_back(l.id);
  return ids;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

TEST(Registry, IdsAreUniqueAndOrdered) {
  std::set<std::string> ids;
  int previous = -1;
  for (const LessonDef& l : registry()) {
    EXPECT_TRUE(ids.insert(l.id).second) << "duplicate lesson id " << l.id;
    EXPECT_GT(l.order, previous) << l.id << ": orders must be distinct";
    previous = l.order;
    EXPECT_EQ(find_lesson(l.id), &l);
  }
  EXPECT_GE(registry().size(), 1u);
}

// lessons/<folder>/ of the lesson `id`: the id with - written _.
std::string folder_of(std::string id) {
  std::replace(id.begin(), id.end(), '-', '_');
  return id;
}

// The folder's name is the id with - written _, so a lesson is found by either name; every
// lesson is a folder read at run time, with its program.
TEST(Registry, EveryFolderIsItsLessonsIdWithUnderscores) {
  for (const LessonDef& l : registry()) {
    EXPECT_FALSE(l.program.empty()) << l.id << ": a lesson is a folder with its CUDA program";
    EXPECT_EQ(std::filesystem::path(l.folder).filename().string(), folder_of(l.id))
        << l.folder << "/lesson.json defines lesson '" << l.id << "'";
  }
}

class Lesson : public ::testing::TestWithParam<std::string> {
 protected:
  const LessonDef& lesson() const { return *find_lesson(GetParam()); }
};

TEST_P(Lesson, MetadataIsComplete) {
  const LessonDef& l = lesson();
  EXPECT_FALSE(l.title.empty());
  EXPECT_FALSE(l.concepts.empty());
  EXPECT_GT(l.text.size(), 200u) << "the lesson text is the lesson";
  EXPECT_FALSE(l.source.empty());
  EXPECT_FALSE(l.source_file.empty());
  EXPECT_TRUE(l.run != nullptr || !l.program.empty()) << "a lesson runs its kernels or its program";
  EXPECT_EQ(l.steps_error, "") << "lesson.md's steps must parse";
  ASSERT_FALSE(l.steps.empty());
  for (const Step& s : l.steps) {
    EXPECT_FALSE(s.title.empty());
    EXPECT_FALSE(s.text.empty()) << s.title;
    EXPECT_FALSE(s.code.empty()) << s.title << ": a step names the code it concerns";
    for (const std::string& snippet : s.code)
      EXPECT_FALSE(lines_with(l.source, snippet).empty())
          << s.title << ": '" << snippet << "' is not in " << l.source_file;
    EXPECT_TRUE(check_params(l, s.params).ok()) << s.title << ": " << check_params(l, s.params).message();
  }
  for (const ParamDef& p : l.params) {
    EXPECT_LE(p.min, p.default_value) << p.name;
    EXPECT_LE(p.default_value, p.max) << p.name;
    EXPECT_FALSE(p.help.empty()) << p.name;
  }
}

TEST_P(Lesson, DefaultLaunchIsLegal) {
  const LessonDef& l = lesson();
  const RunRequest r = default_request(l);
  if (l.validate) EXPECT_TRUE(l.validate(r.config, r.params).ok()) << l.validate(r.config, r.params).message();
  EXPECT_TRUE(check_params(l, r.params).ok());
}

TEST_P(Lesson, ChecksPassOnTheEmulator) {
  const LessonDef& l = lesson();
  auto exec = testing::emulator();
  const LessonRun run = run_lesson(l, *exec, default_request(l));
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_FALSE(run.checks.empty()) << "every lesson states its checks";
  for (const Check& c : run.checks)
    EXPECT_TRUE(c.pass || c.skipped) << c.name << ": expected " << c.expected << ", got " << c.got;
  for (const Trace& t : run.launches) {
    EXPECT_EQ(t.dropped(), 0u) << t.header.kernel;
    EXPECT_EQ(t.header.lesson, l.id);
  }
}

// Recording every load and store (ExecOptions::record_memory) adds events and changes nothing
// else: the checks still pass, and a comparison with a plain run, which leaves the recorded
// accesses out as a comparison with a GPU's trace does, finds no difference.
TEST_P(Lesson, RecordingEveryLoadAndStoreChangesNothingElse) {
  const LessonDef& l = lesson();
  auto plain = testing::emulator();
  auto recording = testing::emulator();
  recording->options().record_memory = true;
  const RunRequest r = default_request(l);
  const LessonRun without = run_lesson(l, *plain, r);
  const LessonRun with = run_lesson(l, *recording, r);
  ASSERT_TRUE(with.status.ok()) << with.status.message();
  for (const Check& c : with.checks)
    EXPECT_TRUE(c.pass || c.skipped) << c.name << ": expected " << c.expected << ", got " << c.got;
  ASSERT_EQ(without.launches.size(), with.launches.size());
  uint64_t recorded = 0;
  for (size_t i = 0; i < with.launches.size(); ++i) {
    const Trace& t = with.launches[i];
    EXPECT_EQ(t.dropped(), 0u) << t.header.kernel;
    for (const Event& e : t.events) recorded += (e.flags & kFlagInstrumented) != 0;
    const bool comparable = l.traces_comparable &&
                            std::find(l.incomparable_kernels.begin(), l.incomparable_kernels.end(),
                                      t.header.kernel) == l.incomparable_kernels.end();
    if (!comparable) continue;
    const TraceDiff d = compare_deterministic(without.launches[i], t);
    EXPECT_TRUE(d.equal()) << t.header.kernel << ": " << d.examples.front();
  }
  EXPECT_GT(recorded, 0u) << "every lesson's kernels read or write memory";
}

// Races found with every load and store recorded: only where a lesson races on purpose.
std::vector<Race> races_of(const LessonDef& l, const lessons::Params& params = {}) {
  auto exec = testing::emulator();
  exec->options().record_memory = true;
  RunRequest r = default_request(l);
  for (const auto& [name, value] : params) r.params[name] = value;
  const LessonRun run = run_lesson(l, *exec, r);
  EXPECT_TRUE(run.status.ok()) << run.status.message();
  std::vector<Race> all;
  for (const Trace& t : run.launches)
    for (const Race& race : find_races(t)) all.push_back(race);
  return all;
}

TEST_P(Lesson, RacesAreFoundOnlyWhereTheLessonRacesOnPurpose) {
  const LessonDef& l = lesson();
  const std::vector<Race> races = races_of(l);
  // atomics-and-races shows a lost update in shared and in global memory by default.
  if (l.id == "atomics-and-races") {
    EXPECT_FALSE(races.empty());
    return;
  }
  for (const Race& r : races)
    ADD_FAILURE() << l.id << ": " << r.kernel << ": lines " << r.first.line << " and "
                  << r.second.line;
}

// The racy experiments and variants, one by one; the hazard variants that deadlock do not race.
TEST(LessonRaces, RacyVariantsRaceAndDeadlockVariantsDoNot) {
  const LessonDef* races = lessons::find_lesson("atomics-and-races");
  const LessonDef* split = lessons::find_lesson("split-barriers");
  const LessonDef* hazards = lessons::find_lesson("synchronization-hazards");
  ASSERT_TRUE(races && split && hazards);
  EXPECT_FALSE(races_of(*races, {{"part", 1}}).empty()) << "the unprotected counter";
  EXPECT_FALSE(races_of(*races, {{"part", 4}}).empty()) << "the unprotected block sums";
  for (int part : {2, 3, 5, 6})
    EXPECT_TRUE(races_of(*races, {{"part", part}}).empty()) << "atomics only, part " << part;
  EXPECT_FALSE(races_of(*split, {{"variant", 3}}).empty()) << "a slot reused right after the wait";
  EXPECT_FALSE(races_of(*hazards, {{"variant", 3}}).empty()) << "a barrier left out";
  for (int variant : {1, 2}) {
    auto exec = testing::emulator();
    exec->options().record_memory = true;
    RunRequest r = default_request(*hazards);
    r.params["variant"] = variant;
    for (const Trace& t : run_lesson(*hazards, *exec, r).launches)
      EXPECT_TRUE(find_races(t).empty()) << "variant " << variant << " deadlocks, not races";
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, Lesson, ::testing::ValuesIn(lesson_ids_for_tests()), test_name);

// gpu: the same lessons on the device; checks pass and traces agree with the emulator's.
class LessonGpu : public Lesson {};

TEST_P(LessonGpu, ChecksPassAndTracesMatchTheEmulator) {
  COOP_GPU_OR_SKIP(gpu);
  const LessonDef& l = lesson();
  const DeviceProps& d = gpu->device();
  if (!l.runs_on_gpu) GTEST_SKIP() << l.id << " runs on the emulator only (it demonstrates a hazard)";
  if (l.min_cc > d.cc_major * 10 + d.cc_minor) GTEST_SKIP() << l.id << " needs cc " << l.min_cc;
  auto emu = make_emu_executor(d);
  const RunRequest r = default_request(l);
  const LessonRun on_gpu = run_lesson(l, *gpu, r);
  const LessonRun on_emu = run_lesson(l, *emu, r);
  ASSERT_TRUE(on_gpu.status.ok()) << on_gpu.status.message();
  ASSERT_TRUE(on_emu.status.ok()) << on_emu.status.message();
  for (const Check& c : on_gpu.checks)
    EXPECT_TRUE(c.pass || c.skipped) << "gpu: " << c.name << ": expected " << c.expected << ", got " << c.got;
  if (!l.traces_comparable) return;
  ASSERT_EQ(on_gpu.launches.size(), on_emu.launches.size());
  for (size_t i = 0; i < on_gpu.launches.size(); ++i) {
    const std::string& kernel = on_gpu.launches[i].header.kernel;
    if (std::find(l.incomparable_kernels.begin(), l.incomparable_kernels.end(), kernel) !=
        l.incomparable_kernels.end())
      continue;
    const TraceDiff diff = compare_deterministic(on_gpu.launches[i], on_emu.launches[i]);
    EXPECT_TRUE(diff.equal()) << on_gpu.launches[i].header.kernel << ": " << diff.mismatches
                              << " differences, first: " << (diff.examples.empty() ? "" : diff.examples[0]);
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, LessonGpu, ::testing::ValuesIn(lesson_ids_for_tests()), test_name);

}  // namespace
}  // namespace coop::lessons
