// Where a student's trace of a hidden case first departs from the reference solution's trace of
// the same case under the same schedule: the launch, and in it the earliest event (by time, as
// playback orders them; of one moment, the lowest thread's) at which some thread did something
// else than the reference's same thread did at the same point of its own history.
#pragma once

#include <string>
#include <vector>

#include "app/exercise/exercise.hpp"
#include "device/trace/trace.hpp"

namespace coop::app {

// What differs first; `what` says so in words. Traces that agree give launch -1 and a `what`
// that says they agree (the outputs differ by something the traces do not record). `stopped`:
// why the student's run of the case ended early (the case's problem: a crash, an endless loop),
// or "": a run that was stopped keeps no trace of the launch it was in, which is then said to
// have not finished, not to have not been made.
CaseResult::FirstDifference first_difference(const std::vector<Trace>& student,
                                             const std::vector<Trace>& reference,
                                             const std::string& stopped = "");

}  // namespace coop::app
