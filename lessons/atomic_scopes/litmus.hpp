// The message-passing litmus test of the atomic-scopes lesson: traced launches of both orderings,
// then many untraced runs (seeded schedules on the emulator, repetitions on a GPU) counted into a
// histogram of what the readers saw.
#pragma once

#include "lessons/lesson.hpp"

namespace coop::lessons::atomic_scopes {

// Which orderings to test (bits of `which`).
constexpr unsigned kRelaxedTest = 1u << 0, kReleaseAcquireTest = 1u << 1;

Status run_litmus(Executor& exec, const RunRequest& req, LessonRun& out, unsigned which);

}  // namespace coop::lessons::atomic_scopes
