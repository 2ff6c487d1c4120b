// The recipe for a user program's unhooked copy (device/byo/unhooked_copy.hpp): its lowered
// source compiled again without the memory instrumentation, into a shared object beside the
// program. The program runs the recipe itself, in the background, once it has spent a while in
// launches that record and check no access; programs that never do (most tests and lessons)
// never pay for the second compile.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "device/launch/result.hpp"

namespace coop::app {

// One lowered file of the program and the instrumented build's command that compiled it, up to
// its input and output.
struct UnhookedSource {
  std::filesystem::path lowered;
  std::vector<std::string> compile;
};

// Beside `executable`: its lowered sources (each renamed PROGRAM.unhooked.cpp in its folder, where
// its lowered headers are) and the recipe, a shell script that compiles each with its command
// less `instrumentation`, and links program.unhooked.so of them all; or, where the copy cannot
// share the program's variables, writes program.unhooked.none saying why. A program of several
// files (program_files.hpp) has a source for each.
Status keep_unhooked_recipe(const std::filesystem::path& executable,
                            const std::vector<UnhookedSource>& sources,
                            const std::vector<std::string>& instrumentation);

}  // namespace coop::app
