// The message-passing litmus test of the atomic-scopes lesson: traced launches of both orderings,
// then many untraced runs (seeded schedules on the emulator, repetitions on a GPU) counted into a
// histogram of what the readers saw.
#pragma once

#include "lessons/lesson.hpp"

namespace coop::lessons::atomic_scopes {

Status run_litmus(Executor& exec, const RunRequest& req, LessonRun& out);

}  // namespace coop::lessons::atomic_scopes
