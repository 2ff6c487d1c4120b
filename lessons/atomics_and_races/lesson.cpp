// Lesson "atomics-and-races": definition, parameters, steps; the experiments live in parts.cpp.
#include <random>
#include <string>

#include "lessons/atomics_and_races/parts.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/run_helpers.hpp"

namespace coop::lessons::atomics_and_races {
namespace {

// The race analysis keeps every load and store; this bounds the traced threads of one launch.
constexpr uint64_t kMaxThreads = 1u << 18;

Status validate(const LaunchConfig& c, const Params&) {
  if (Status s = require_1d_launch(c, "atomics-and-races"); !s) return s;
  if (c.block.x > 1024)
    return Status::error("staged_sum stages at most 1024 values per block: got a block of " +
                         std::to_string(c.block.x));
  if (c.mode != LaunchMode::Normal)
    return Status::error(std::string("atomics-and-races uses normal launches: got ") +
                         to_string(c.mode));
  if (c.total_threads() > kMaxThreads)
    return Status::error("atomics-and-races traces at most " + std::to_string(kMaxThreads) +
                         " threads: got " + std::to_string(c.total_threads()));
  return {};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  PartContext c{exec, req, out, {}};
  c.x.resize(req.config.total_threads());
  std::mt19937 rng(uint32_t(req.params.at("data")));
  std::uniform_int_distribution<int> share(1, 100);
  for (int& v : c.x) v = share(rng);

  const int64_t part = req.params.at("part");
  Status (*const parts[])(PartContext&) = {nullptr,         run_race,       run_atomic, run_staged,
                                           run_staged_race, run_contention, run_float};
  for (int64_t p = kRace; p < kPartCount; ++p) {
    if (part != kAll && part != p) continue;
    if (Status s = parts[p](c); !s) return s;
  }
  out.checks.push_back(nothing_dropped(out.launches));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "atomics-and-races";
  l.order = 90;
  l.title = "Atomics and races";
  l.level = Level::Intermediate;
  l.concepts = {"race condition", "lost update",           "atomicAdd",      "landing order",
                "contention",     "block-local reduction", "float precision"};
  l.params = {
      {"part", kAll, kAll, kPartCount - 1,
       "0: every experiment; 1 race, 2 atomicAdd, 3 block sum then one atomic, 4 the same "
       "unprotected, 5 contention, 6 float counter"},
      {"data", 1, 0, 1 << 30, "seed of the values the threads add (1..100 each)"},
      {"spread", 1, 1, 65536, "contention: how many addresses the threads' atomics spread over"},
      {"headroom", 64, 0, 1 << 20,
       "float counter: how far below 2^24 = 16777216 the counters start"},
  };
  l.default_config.grid = {8, 1, 1};
  l.default_config.block = {256, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::atomics_and_races
