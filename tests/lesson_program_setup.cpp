// The test binary runs lessons that are CUDA programs as coopviz does (app/main.cpp sets the same
// runner before anything runs).
#include "app/program/lesson_program.hpp"

namespace {
const bool installed = (coop::app::install_lesson_runner(), true);
}  // namespace
