// What is wrong with a lesson's lesson.md, found by one function and said the same way wherever
// a lesson is opened: the window's lesson text panel, `coopviz steps`, `gui --script`,
// `coopviz questions` and `coopviz lesson check FOLDER`.
#pragma once

#include <cstddef>
#include <string>

#include "device/launch/result.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {

// Every mistake of the lesson's lesson.md, one "FILE:LINE: what is wrong" a line, or "": its
// steps' (lessons::read_lesson_markdown: the format, a kernel, line, parameter or launch the
// lesson lacks), a step's tab that no tab has, every question block that does not parse, and a
// query's `on "snippet"` that no kernel line holds.
std::string lesson_errors(const lessons::LessonDef& lesson);

// What `coopviz lesson check` says of a lesson without mistakes: "6 steps, 9 questions, 14 line
// references found in block_reduce.cu".
std::string lesson_summary(const lessons::LessonDef& lesson);

}  // namespace coop::app
