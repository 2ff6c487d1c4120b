// What is wrong with a lesson's lesson.md, found by one function and said the same way wherever
// a lesson is opened: the window's lesson text panel, `coopviz steps`, `gui --script`,
// `coopviz questions` and `coopviz lesson check FOLDER`.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "device/launch/result.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {

// Every mistake of the lesson's lesson.md, one "FILE:LINE: what is wrong" a line, or "": its
// steps' (lessons::read_lesson_markdown: the format, a kernel, line, parameter or launch the
// lesson lacks), a step's tab that no tab has, every question block that does not parse, and a
// query's `on "snippet"` that no kernel line holds.
std::string lesson_errors(const lessons::LessonDef& lesson);

// A lesson folder read from disk: one with a lesson.json is a whole lesson (an ordinary CUDA
// program, lessons/lesson_folder.hpp); another is read as the built-in lesson of its name, its
// lesson.md and its one kernel file (.cuh) in place of the embedded ones, with the parameters and
// launch rules of its lesson.cpp, which only a lesson built into coopviz has.
struct LessonFolder {
  lessons::LessonDef lesson;  // its text and source are views into the strings below
  std::string markdown, kernel;
};
Result<std::unique_ptr<LessonFolder>> read_lesson_folder(const std::string& folder);

// What `coopviz lesson check` says of a lesson without mistakes: "6 steps, 9 questions, 14 line
// references found in block_reduce.cuh".
std::string lesson_summary(const lessons::LessonDef& lesson);

}  // namespace coop::app
