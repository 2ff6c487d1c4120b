// The program pipeline runs the lessons that are ordinary CUDA programs (lessons/program_lesson.hpp):
// their .cu is built and run like any user's program, on the executor's backend, with the launch
// and parameters as arguments; every launch's trace and the checks the program prints come back.
#pragma once

#include "lessons/lesson.hpp"

namespace coop::app {

// Builds and runs the lesson's program. An error is what stopped it: a compile error (the
// compiler's words, at the lesson's file and line), a launch or parameters the program refused
// (its `error:` line), a crash, a hang. Adds coopviz's own check that no event was dropped.
Status run_lesson_program(const lessons::LessonDef& lesson, Executor& exec,
                          const lessons::RunRequest& request, lessons::LessonRun& out);

// Makes run_lesson() run program lessons with run_lesson_program. Every executable that runs
// lessons calls it first.
void install_lesson_runner();

}  // namespace coop::app
