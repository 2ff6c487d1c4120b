// A lesson folder read at run time: an ordinary CUDA program (its one `.cu`, and any headers
// beside it), `lesson.md` (text, steps, questions), `exercises/`, and `lesson.json`, the little a
// program cannot say (id, title, level, parameters with their ranges, the default launch and its
// rules, what runs only on a GPU). Nothing of it is compiled into coopviz, so a teacher edits or
// writes a lesson with an installed coopviz and no rebuild (lessons/README.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "device/launch/result.hpp"
#include "lessons/lesson.hpp"

namespace coop::lessons {

// True for a folder holding a lesson.json.
bool is_lesson_folder(const std::filesystem::path& folder);

// Reads the folder into a lesson that runs its program (program_lesson.hpp). Every mistake of
// lesson.json is an error naming the file, the field and what it must be; lesson.md's mistakes
// are the lesson's steps_error, as for every lesson.
Result<LessonDef> read_lesson_folder(const std::filesystem::path& folder);

// Where lessons are found at run time, most preferred first: the folders named on the command
// line (add_lesson_folder), the folders of $COOPVIZ_LESSON_PATH (each a lesson folder or a folder
// of lesson folders), then the lesson folders coopviz ships
// (data_dirs().lessons). Of two lessons with one id the first is kept.
//
// The lesson folders `dir` names: itself when it is one, else its subfolders that are, in name
// order.
std::vector<std::filesystem::path> lesson_folders_in(const std::filesystem::path& dir);

// The folders $COOPVIZ_LESSON_PATH names, separated by ':'.
std::vector<std::filesystem::path> lesson_search_path();

// Adds a folder named on the command line to the registry, ahead of every lesson with its id,
// and returns that id. Call it before holding any lesson of registry(): it may move them.
Result<std::string> add_lesson_folder(const std::filesystem::path& folder);

}  // namespace coop::lessons
