// A compiler's errors about the user's own file, by line: what the window marks in its code view
// when a saved program does not compile. gcc and clang write "FILE:LINE:COL: error: WORDS",
// nvcc "FILE(LINE): error: WORDS"; the lowering keeps the user's file and lines (#line), so both
// name the file as the user gave it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace coop::app {

struct CompileError {
  int line = 0;      // in the user's file, from 1
  std::string text;  // "own.cu:12: error: expected ';' before '}' token"
};

// The errors (not warnings or notes) the output names at lines of `file` (matched by its file
// name, so a path written another way, absolute or relative, still counts), in the order
// written, at most `limit`.
std::vector<CompileError> compile_errors(std::string_view output, const std::string& file,
                                         size_t limit = 64);

}  // namespace coop::app
