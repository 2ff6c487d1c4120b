// Data races in the window, driven as the window drives it (no display needed): the race
// lessons' steps open with races on and show the detector's pairs (as `coopviz steps --json`
// reports them), the grid marks the picked race's two threads, a jump to either access selects
// its thread at that moment, and a launch recorded on a GPU shows no race.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/panels.hpp"
#include "app/gui/step_report.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"

namespace coop::app {
namespace {

using Side = std::pair<std::string, int>;  // kind and line of one access

// What a race step shows: its space and the kinds and lines of its two accesses.
struct ShownPair {
  std::string space;
  std::set<Side> sides;
  bool operator==(const ShownPair&) const = default;
};

std::ostream& operator<<(std::ostream& os, const ShownPair& p) {
  os << p.space << ":";
  for (const auto& [kind, line] : p.sides) os << " " << kind << " line " << line;
  return os;
}

int line_in(const std::string& lesson, std::string_view snippet) {
  return lessons::line_of(lessons::find_lesson(lesson)->source, snippet);
}

// The pairs each kernel's race step must show, by the lines' own text: a read and a write of the
// unprotected counter on its one line, or missing_barrier's write and read; none with the barrier.
std::map<std::string, std::vector<ShownPair>> expected_pairs() {
  const std::string ar = "atomics-and-races", sh = "synchronization-hazards";
  auto one_line = [](const char* space, int line) {
    return std::vector<ShownPair>{{space, {{"read", line}, {"write", line}}}};
  };
  return {
      {"racy_sum", one_line("global", line_in(ar, "s[0] = s[0] + x[i]"))},
      {"racy_block_sum", one_line("shared", line_in(ar, "total = total + x["))},
      {"staged_sum", one_line("global", line_in(ar, "s[0] = s[0] + local"))},
      {"missing_barrier",
       {{"shared",
         {{"write", line_in(sh, "// the write")},
          {"read", line_in(sh, "// the read: no barrier")}}}}},
      {"three_spellings", {}},
  };
}

TEST(RaceSteps, TheRaceStepsOpenWithRacesOnAndShowTheirPairs) {
  const std::map<std::string, std::vector<ShownPair>> expected = expected_pairs();
  std::set<std::string> kernels_with_races;
  for (const std::string lesson : {"atomics-and-races", "synchronization-hazards"}) {
    Result<std::vector<StepReport>> reports = report_lesson_steps(lesson, 300);
    ASSERT_TRUE(reports.ok()) << reports.message();
    const std::vector<lessons::Step>& steps = lessons::find_lesson(lesson)->steps;
    ASSERT_EQ(reports->size(), steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      const StepReport& r = (*reports)[i];
      const std::string where = lesson + " step " + std::to_string(i + 1) + " (" + r.title + ")";
      EXPECT_EQ(step_view_problems(r), "ok") << where;
      // No control touched: the step itself switched races on, or left them off.
      EXPECT_EQ(r.races_on, steps[i].races) << where;
      const nlohmann::json j = to_json(r);
      EXPECT_EQ(j["races_on"], steps[i].races) << where;
      if (!r.races_on) {
        EXPECT_TRUE(r.races.empty()) << where;
        continue;
      }
      kernels_with_races.insert(r.kernel);
      ASSERT_TRUE(expected.contains(r.kernel)) << where << ": " << r.kernel;
      std::vector<ShownPair> shown;
      auto side = [](const nlohmann::json& access) {
        return Side{access["kind"].get<std::string>(), access["line"].get<int>()};
      };
      for (const nlohmann::json& race : j["races"])
        shown.push_back(
            {race["space"].get<std::string>(), {side(race["first"]), side(race["second"])}});
      EXPECT_EQ(shown, expected.at(r.kernel)) << where;
      EXPECT_EQ(r.race_list_shown, r.tab == "checks") << where;
    }
  }
  // Every racy launch the two lessons talk about has its step, and so has the fix.
  EXPECT_EQ(kernels_with_races, (std::set<std::string>{"racy_sum", "racy_block_sum", "staged_sum",
                                                       "missing_barrier", "three_spellings"}));
}

// The step with the missing barrier, as the window shows it.
GuiApp& missing_barrier_step(GuiApp& app) {
  const lessons::LessonDef& l = *lessons::find_lesson("synchronization-hazards");
  app.backend = BackendRequest::Emu;
  app.select_lesson(int(&l - lessons::registry().data()), 0);
  const auto step = std::find_if(l.steps.begin(), l.steps.end(), [](const lessons::Step& s) {
    return s.kernel == "missing_barrier";
  });
  EXPECT_NE(step, l.steps.end());
  app.select_step(int(step - l.steps.begin()), 0);
  EXPECT_TRUE(app.wait_for_runs(300));
  return app;
}

TEST(RaceGrid, ThePickedRacesTwoThreadsAreMarkedAndAJumpSelectsEach) {
  GuiApp app;
  missing_barrier_step(app);
  const std::vector<Race> races = shown_races(app);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(app.picked_race, 0) << "a launch's races open with the first one picked";
  visual::GridRaceMarks marks = shown_race_marks(app);
  ASSERT_TRUE(marks.picked);
  EXPECT_EQ(marks.picked->first, races[0].first.thread);
  EXPECT_EQ(marks.picked->second, races[0].second.thread);
  EXPECT_EQ(marks.in_race.size(), 2u);
  for (uint32_t t = 0; t < app.model()->thread_count(); ++t) {
    const bool raced = t == races[0].first.thread || t == races[0].second.thread;
    EXPECT_EQ(marks.at(t), raced ? visual::RaceMark::Picked : visual::RaceMark::None) << t;
  }
  // Either access: playback stands just after it, its thread selected and still marked.
  for (const bool second : {false, true}) {
    const RaceAccess& side = second ? races[0].second : races[0].first;
    jump_to_race_access(app, 0, second);
    ASSERT_GT(app.playback.cursor, 0u);
    const Event& played = app.model()->at(app.playback.cursor - 1);
    EXPECT_EQ(played.sequence, side.sequence) << "second: " << second;
    EXPECT_EQ(played.thread, side.thread);
    EXPECT_EQ(played.line, side.line);
    EXPECT_EQ(app.selection.thread, int64_t(side.thread));
    EXPECT_EQ(app.selection.scope, visual::SelectionScope::Thread);
    EXPECT_EQ(shown_race_marks(app).at(side.thread), visual::RaceMark::Picked);
  }
  // Picking none leaves every thread of the race marked, lighter.
  app.picked_race = -1;
  marks = shown_race_marks(app);
  EXPECT_FALSE(marks.picked);
  EXPECT_EQ(marks.at(races[0].first.thread), visual::RaceMark::InRace);
}

// A GPU records neither every access nor their order: a launch it ran shows no race, whatever
// the switch says (the Checks tab says why).
TEST(RaceGrid, ALaunchRecordedOnAGpuShowsNoRace) {
  GuiApp app;
  missing_barrier_step(app);
  ASSERT_FALSE(shown_races(app).empty());
  Trace gpu = app.model()->trace();
  gpu.header.backend = Backend::Gpu;
  app.show_traces({gpu}, "recorded on a GPU");
  app.find_races = true;
  EXPECT_TRUE(shown_races(app).empty());
  EXPECT_TRUE(shown_race_marks(app).empty());
  EXPECT_TRUE(race_marks(app).empty());
}

}  // namespace
}  // namespace coop::app
