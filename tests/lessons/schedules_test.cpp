// Every lesson under the emulator's random and its schedules: the checks pass for several seeds
// (a lesson whose results depend on the interleaving says so in its checks rather than failing),
// the atomics lessons show their atomics landing in different orders under different seeds, as
// on a GPU, and a seed repeats its run exactly.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::testing {
namespace {

constexpr uint64_t kSeeds[] = {1, 2, 3};

LessonRun run_scheduled(const LessonDef& lesson, Schedule schedule, uint64_t seed) {
  auto exec = emulator();
  RunRequest r = lesson_request(lesson, {}, seed);
  r.schedule = schedule;
  return lessons::run_lesson(lesson, *exec, r);
}

class EveryLessonUnderASchedule
    : public ::testing::TestWithParam<std::tuple<std::string, Schedule>> {};

TEST_P(EveryLessonUnderASchedule, ChecksPassForSeveralSeeds) {
  const auto& [id, schedule] = GetParam();
  const LessonDef* lesson = lessons::find_lesson(id);
  ASSERT_NE(lesson, nullptr);
  for (uint64_t seed : kSeeds) {
    const LessonRun run = run_scheduled(*lesson, schedule, seed);
    expect_checks_pass(run, id + ", " + to_string(schedule) + " seed " + std::to_string(seed));
    // Each launch names its schedule, unless the lesson replaced it with the occupancy model's. A
    // program's launch k of a kernel and shape runs under the seed plus k.
    std::map<std::string, uint64_t> launched;
    for (const Trace& t : run.launches) {
      const LaunchConfig& c = t.header.launch;
      uint64_t& k = launched[t.header.kernel + " " + c.grid.str() + " " + c.block.str() + " " +
                             std::to_string(c.dynamic_smem)];
      const uint64_t ran_under = seed + (lesson->program.empty() ? 0 : k);
      ++k;
      if (!block_records_modelled(t.header))
        EXPECT_EQ(t.header.schedule.rfind(std::string(to_string(schedule)) + " schedule, seed " +
                                              std::to_string(ran_under) + ";",
                                          0),
                  0u)
            << t.header.schedule;
    }
  }
}

std::vector<std::tuple<std::string, Schedule>> lessons_and_schedules() {
  std::vector<std::tuple<std::string, Schedule>> all;
  for (const LessonDef& l : lessons::registry())
    for (Schedule s : {Schedule::Random, Schedule::Its}) all.emplace_back(l.id, s);
  return all;
}

INSTANTIATE_TEST_SUITE_P(
    Lessons, EveryLessonUnderASchedule, ::testing::ValuesIn(lessons_and_schedules()),
    [](const ::testing::TestParamInfo<std::tuple<std::string, Schedule>>& info) {
      std::string name = std::get<0>(info.param) + "_" + to_string(std::get<1>(info.param));
      for (char& c : name)
        if (c == '-') c = '_';
      return name;
    });

// Who landed an atomic with which old value, launch by launch: the order the atomics landed in.
std::vector<std::pair<uint32_t, uint64_t>> landing_order(const LessonRun& run) {
  std::vector<std::pair<uint32_t, uint64_t>> order;
  for (const Trace& t : run.launches)
    for (const Event& e : t.events)
      if (e.kind == EventKind::Atomic) order.emplace_back(e.thread, e.b);
  return order;
}

TEST(AtomicsLessonsUnderSchedules, SeedsLandTheAtomicsInDifferentOrders) {
  for (const char* id : {"atomics-and-races", "atomic-scopes"}) {
    const LessonDef* lesson = lessons::find_lesson(id);
    ASSERT_NE(lesson, nullptr);
    for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
      std::set<std::vector<std::pair<uint32_t, uint64_t>>> orders;
      for (uint64_t seed : kSeeds) {
        const LessonRun run = run_scheduled(*lesson, schedule, seed);
        ASSERT_TRUE(run.status.ok()) << run.status.message();
        const auto order = landing_order(run);
        ASSERT_FALSE(order.empty()) << id << " records its atomics";
        orders.insert(order);
      }
      EXPECT_EQ(orders.size(), std::size(kSeeds)) << id << ", " << to_string(schedule);
    }
  }
}

// An event with its addresses made relative to the buffer they fall in, so that two runs of a
// lesson, which allocate their buffers afresh, compare on every field.
std::vector<Event> relative_events(const Trace& t) {
  std::vector<Event> out(t.events.begin(), t.events.end());
  for (Event& e : out)
    for (const BufferInfo& b : t.header.buffers)
      if (!b.shared && !(e.flags & kFlagShared) && e.address >= b.base &&
          e.address < b.base + b.bytes)
        e.address -= b.base;
  return out;
}

TEST(AtomicsLessonsUnderSchedules, ASeedRepeatsItsRunExactly) {
  const LessonDef* lesson = lessons::find_lesson("atomics-and-races");
  ASSERT_NE(lesson, nullptr);
  for (Schedule schedule : {Schedule::Random, Schedule::Its}) {
    const LessonRun a = run_scheduled(*lesson, schedule, 7),
                    b = run_scheduled(*lesson, schedule, 7);
    ASSERT_EQ(a.launches.size(), b.launches.size());
    for (size_t i = 0; i < a.launches.size(); ++i) {
      const std::vector<Event> x = relative_events(a.launches[i]),
                               y = relative_events(b.launches[i]);
      ASSERT_EQ(x.size(), y.size()) << a.launches[i].header.kernel;
      EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(Event)), 0)
          << to_string(schedule) << ", " << a.launches[i].header.kernel;
    }
    EXPECT_EQ(a.results, b.results);
  }
}

}  // namespace
}  // namespace coop::testing
