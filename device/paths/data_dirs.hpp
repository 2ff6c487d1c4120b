// Where coopviz finds its own files: the recorded traces, the lesson folders, the example
// programs, the fonts, and the headers and libraries a user's own CUDA program is built against.
// An installed coopviz finds them beside itself (bin/../share/coopviz, bin/../lib/coopviz), so
// the installed tree can move; a coopviz run from its build tree finds them in the source and
// build trees it was built from.
#pragma once

#include <filesystem>
#include <vector>

namespace coop {

struct DataDirs {
  // Folders of <lesson>.cvt traces, most preferred first: $COOPVIZ_ASSETS/traces, then the
  // traces that ship with coopviz.
  std::vector<std::filesystem::path> traces;
  std::filesystem::path lessons;    // lesson folders: lesson.md, kernels, the plain CUDA program
  std::filesystem::path programs;   // example CUDA programs (runtime_calls.cu, ...)
  std::filesystem::path fonts;      // dejavu/ and jetbrains-mono/
  std::filesystem::path headers;    // where "device/byo/runtime.hpp" and the shim folders are
  std::filesystem::path libraries;  // the static libraries a user's program links
  // coopviz-frontend, the Clang front end of the lowering (device/lowering/front_end.hpp):
  // $COOPVIZ_FRONTEND when set ("off": none), else beside the binary, else the build tree's.
  std::filesystem::path front_end;
};

// Looked up on each call, so a changed environment (as in tests) is seen; it costs a readlink.
DataDirs data_dirs();

}  // namespace coop
