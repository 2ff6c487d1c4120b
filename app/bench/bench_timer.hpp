// `coopviz bench byo --timer`: a program's own timed loop, plain nvcc against coopviz's GPU
// backend (bench_timer.cpp).
#pragma once

#include <string>

namespace coop::app {

// Prints both averages and their ratio; returns 0 when the ratio is within 1.5, 1 when not or
// when a build or run failed, 2 without a GPU.
int bench_program_timer(const std::string& file, int runs, bool json);

}  // namespace coop::app
