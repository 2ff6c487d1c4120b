// The test binary runs lessons that are CUDA programs as coopviz does (app/main.cpp sets the same
// runner, and the same benchmark summary, before anything runs). Its builds go where every other
// test's do (program_test_cache()), unless the run names a cache of its own: a lesson the tests
// build once is not built again into the home folder's cache.
#include <cstdlib>

#include "app/bench/reduce/bench.hpp"
#include "app/program/lesson_program.hpp"
#include "lessons/program_lesson.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {
const bool installed =
    (setenv("XDG_CACHE_HOME", coop::testing::program_test_cache().c_str(), 0),
     coop::app::install_lesson_runner(),
     coop::lessons::set_benchmark_summary(&coop::lessons::reduction_performance::shipped_summary),
     true);
}  // namespace
