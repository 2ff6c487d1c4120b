// The test binary runs lessons that are CUDA programs as coopviz does (app/main.cpp sets the same
// runner, and the same benchmark summary, before anything runs).
#include "app/bench/reduce/bench.hpp"
#include "app/program/lesson_program.hpp"
#include "lessons/program_lesson.hpp"

namespace {
const bool installed =
    (coop::app::install_lesson_runner(),
     coop::lessons::set_benchmark_summary(&coop::lessons::reduction_performance::shipped_summary),
     true);
}  // namespace
