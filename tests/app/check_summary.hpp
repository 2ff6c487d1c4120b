// An exercise check's report in a few lines, for a failed expectation's message.
#pragma once

#include <string>

#include "app/exercise/exercise.hpp"

namespace coop::testing {

// The compiler's words and the report's problem, then each case: its schedule, launch and input,
// whether it passed, and what it got and wanted.
inline std::string summary(const app::CheckReport& r) {
  std::string s = r.compiler_output + r.problem;
  for (const auto& c : r.cases)
    s += "\n" + c.schedule + " " + c.launch + " / " + c.input + ": " +
         (c.passed ? "passed" : "failed ") + c.got + " want " + c.want + " " + c.problem;
  return s;
}

}  // namespace coop::testing
