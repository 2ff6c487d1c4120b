// The six experiments of the atomics-and-races lesson. Each launches its kernels on the lesson's
// executor, checks them against a CPU reference and adds its results.
#pragma once

#include <vector>

#include "lessons/lesson.hpp"

namespace coop::lessons::atomics_and_races {

enum Part : int64_t {
  kAll = 0,
  kRace = 1,        // racy_sum: every thread's unprotected read-add-write
  kAtomic = 2,      // atomic_sum: the same with atomicAdd, and its tickets
  kStaged = 3,      // staged_sum: block-local sum, one atomic per block
  kStagedRace = 4,  // staged_sum with the unprotected update of the seed's warning
  kContention = 5,  // spread_add: one address against many
  kFloat = 6,       // count_both: a float counter at 2^24
  kPartCount
};

struct PartContext {
  Executor& exec;
  const RunRequest& req;
  LessonRun& out;
  std::vector<int> x;  // what each thread adds: seeded integers 1..100
};

Status run_race(PartContext& c);
Status run_atomic(PartContext& c);
Status run_staged(PartContext& c);
Status run_staged_race(PartContext& c);
Status run_contention(PartContext& c);
Status run_float(PartContext& c);

}  // namespace coop::lessons::atomics_and_races
