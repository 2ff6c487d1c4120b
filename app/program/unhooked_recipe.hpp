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

// Beside `executable`: its lowered source (moved from `lowered`) and the recipe, a shell script
// that compiles it with `compile` (the instrumented build's command, up to its input and output)
// less `instrumentation`, and links program.unhooked.so; or, where the copy cannot share the
// program's variables, writes program.unhooked.none saying why.
Status keep_unhooked_recipe(const std::filesystem::path& executable,
                            const std::filesystem::path& lowered, std::vector<std::string> compile,
                            const std::vector<std::string>& instrumentation);

}  // namespace coop::app
