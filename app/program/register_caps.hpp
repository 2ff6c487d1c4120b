// What a lesson program cannot say about itself: its compiler's report under register caps
// (lesson.json's "register_caps"). coopviz builds the program's kernels again for the device the
// lesson ran on, without a cap and under each --maxrregcount value, as a student's
// `nvcc --maxrregcount N --resource-usage` would, and adds the rows and checks to the run.
#pragma once

#include "app/program/program.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {

// Adds, for lesson.register_caps (nothing when it has none): a result per build ("KERNEL, no
// register cap", "KERNEL, --maxrregcount N": registers, bytes spilled, and the occupancy they
// allow at the block of the kernel's first launch in out.launches), the check that every capped
// build stays within its cap, and the lesson's spill check. The report is kept beside the build
// (`build`), so an unchanged program is not compiled again. Without nvcc the checks are skipped
// and say why.
void add_register_cap_reports(const lessons::LessonDef& lesson, const ProgramOptions& options,
                              const ProgramBuild& build, const DeviceProps& device,
                              lessons::LessonRun& out);

}  // namespace coop::app
