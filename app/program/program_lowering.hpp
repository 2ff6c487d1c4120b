// A user's program lowered as `coopviz run` compiles it: each of its files (the program, its own
// headers, the .cu files it includes) read by coopviz-frontend, Clang's front end
// (device/lowering/front_end.hpp), and its edits applied before the line lowering. Where the
// front end is not there (COOPVIZ_FRONTEND=off, a machine without Clang's libraries) or does
// not answer, the line lowering alone lowers the file, and `note` says so. The front end also
// makes the program's shown accesses traced (tools/frontend/shown_edits.hpp), and names the
// accesses of shown buffers it leaves plain (`not_shown`).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "device/launch/result.hpp"
#include "device/launch/shown_accesses.hpp"
#include "device/lowering/front_end.hpp"
#include "device/lowering/lowering.hpp"

namespace coop::app {

class ProgramLowering {
 public:
  // `clang_options`: the program's own -I and -D, as the compiler gets them. `use_front_end`
  // false lowers line by line alone (build_program's second try, program.hpp).
  ProgramLowering(std::vector<std::string> clang_options, const ShownAccesses& shown,
                  bool use_front_end);

  // `text`, read from `path`, lowered as `kind` (a program's kind, not SourceKind::Lesson).
  Result<std::string> lower(const std::string& text, const std::string& path, SourceKind kind);

  // Why a file was lowered line by line alone ("" when the front end read every file).
  const std::string& note() const { return note_; }

  // "file:line: not shown: why" for each access of a shown buffer left plain, the file as the
  // program names it.
  const std::vector<std::string>& not_shown() const { return not_shown_; }

 private:
  std::vector<std::string> clang_options_;  // with the shown buffers' names, for the tool
  bool shows_;
  bool use_front_end_;
  std::map<std::string, FrontEndEdits> read_;  // by path: the GPU's two halves read it once
  std::string note_;
  std::vector<std::string> not_shown_;
};

}  // namespace coop::app
