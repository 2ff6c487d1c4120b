// The emulator runtime's header (device/byo/runtime.hpp, which every program built for the
// emulator includes first) precompiled once per compiler, flags and header state, and kept in the
// program cache. Parsing that header is about half of a small program's compile; a build that
// reads it precompiled skips that half.
//
// The first build that finds no precompiled header compiles as before and makes one beside it, on
// another core; later builds use it. The header is used through `-include` of a one-line file that
// includes runtime.hpp, so where the compiler finds the precompiled form unusable (a -D of the
// program's that the header reads, say) it reads that line as text and the build is the same.
// COOPVIZ_PRECOMPILED_HEADER=0 turns it off (to compare), and the front end's precompiled
// prelude too (program_lowering.cpp).
#pragma once

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace coop::app {

// COOPVIZ_PRECOMPILED_HEADER=0: nothing precompiled.
bool precompiled_headers_turned_off();

class RuntimeHeader {
 public:
  // `flags`: the emulator's compile command, compiler first, up to its input and output, without
  // the program's own folders and -D options. `dir`: where the header is kept, a folder named by
  // everything that makes a kept header stale (the flags, the headers' stamps).
  RuntimeHeader(std::vector<std::string> flags, std::filesystem::path dir);
  // Waits for a header being made.
  ~RuntimeHeader() = default;

  // The options that have a compile read the precompiled header ({} while there is none yet; then
  // one is started, unless another coopviz is making it).
  std::vector<std::string> options();

 private:
  void make();

  std::vector<std::string> flags_;
  std::filesystem::path dir_;
  std::jthread making_;
};

}  // namespace coop::app
