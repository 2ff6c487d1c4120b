// What the front end changes in a CUDA source, found in Clang's AST of it: each launch, each call
// of cudaLaunchKernel / cudaLaunchCooperativeKernel / cudaLaunchKernelEx and each __shared__
// declaration of the main file, as text edits that keep every line where it was (the lowering in
// device/lowering then compiles the result; what each rewrite produces is in its lowering.hpp).
//
// The AST is what the line lowering lacked: the callee of `<<<>>>` whatever expression it is (a
// variable, an array element, a template chosen at run time), the template arguments Clang
// deduced, the default arguments a launch leaves out, the kernel behind any cast, every variable
// of one `__shared__` declaration, and for a launch written inside a macro, the macro's own text.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"

namespace coop::frontend {

// Replace `length` bytes at `offset` of the main file with `text` (same number of newlines).
struct Edit {
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
  // The record's word for what it lowers: "launch", "shared" (a __shared__ declaration, which
  // nvcc keeps as it is), "shown" (a shown access, tools/frontend/shown_edits.hpp) or "blocks"
  // (a kernel's block records, the same file).
  const char* kind = "launch";
};

// A construct seen but left to the line lowering, with the reason ("p.cu:12: ...").
struct Skipped {
  std::string where;
  std::string why;
};

struct LaunchEdits {
  std::vector<Edit> edits;  // sorted by offset, none overlapping
  std::vector<Skipped> skipped;
  int launches = 0;          // rewritten <<<>>> launches and cudaLaunch* calls
  int shared_variables = 0;  // rewritten __shared__ variables
  int shown = 0;             // shown accesses made traced (shown_edits.hpp)
  int blocks = 0;            // kernels whose blocks are recorded (shown_edits.hpp)
};

// Where `at` is written, as "file:line" (a macro's expansion: where it is used), or "" outside
// the main file.
std::string place_of(const clang::SourceManager& sm, clang::SourceLocation at);

// The edits of the main file of `context`'s translation unit (unsorted, as found).
LaunchEdits collect_launch_edits(clang::ASTContext& context);

// `found` sorted by offset, an edit seen twice (a macro's, once per expansion) kept once, and of
// two that overlap, the first.
void sort_edits(LaunchEdits& found);

}  // namespace coop::frontend
