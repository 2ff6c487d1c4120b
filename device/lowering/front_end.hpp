// The C++ front end's part of lowering a program (SourceKind::Program, GpuProgram, GpuHost):
// coopviz-frontend (tools/frontend) reads the source with Clang and prints text edits for each
// launch, cudaLaunch* call and __shared__ declaration it understood, and for each plain access of
// a buffer the program's accesses show (ShownAccesses); they are applied here, and
// the line lowering (lowering.hpp) then does the rest on the result: what the front end left
// (a construct Clang could not read keeps its original text, which the line lowering handles as
// before), the built-in variables, atomics, allocations. Every edit keeps the lines where they
// are, so compiler messages and traces still name the user's lines.
//
// Lessons keep the line lowering alone: their kernel files are the project's own, written in
// the forms it reads, and are lowered at build time, where no front end is needed.
#pragma once

#include <string>
#include <vector>

#include "device/launch/result.hpp"
#include "device/lowering/lowering.hpp"

namespace coop {

// What an edit lowers, which decides the kinds of source it applies to.
enum class EditKind {
  Launch,  // a launch or cudaLaunch* call: every kind
  Shared,  // a __shared__ declaration: the emulator's alone (nvcc knows __shared__)
  Shown,   // a shown access made traced(...): kernel code, the emulator's and nvcc's
  BlockRecord,  // a kernel's block records (--record-blocks): kernel code, as Shown
};

struct FrontEndEdit {
  size_t offset = 0;
  size_t length = 0;
  std::string text;
  EditKind kind = EditKind::Launch;
};

// What coopviz-frontend said about one source.
struct FrontEndEdits {
  std::vector<FrontEndEdit> edits;   // by offset, none overlapping
  std::vector<std::string> skipped;  // "file:line: why", constructs left to the line lowering
  // "file:line: why": accesses of a shown buffer left plain (a `+=`, a store through another
  // pointer), from the tool's skip records that say "not shown: ".
  std::vector<std::string> not_shown;
  int clang_errors = 0;  // Clang's (tolerated) errors over the source and the headers it read as text
  int launches = 0;
  int shared_variables = 0;
};

// Reads the tool's output (its format is in tools/frontend/main.cpp), or an error naming what
// is wrong with it.
Result<FrontEndEdits> read_front_end_output(const std::string& output);

// `text` with the edits that apply to `kind` made (EditKind says which), or
// an error when an edit does not fit the text (the tool read another text).
Result<std::string> apply_front_end_edits(const std::string& text, const FrontEndEdits& edits,
                                          SourceKind kind);

}  // namespace coop
