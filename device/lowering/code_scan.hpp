// Reading a CUDA source as code, for the lowering's whole-text scans (host_half.cpp,
// device_code.cpp): the text with everything but code blanked, whole words, and the
// declarations of device code with their bodies.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace coop {

// `text` with comments, string and character literals and preprocessor lines blanked (newlines
// kept), so positions in it are positions in `text` and only code is left to scan.
std::string code_mask(const std::string& text);

bool word_char(char c);

// The position of the whole word `word` in `m` at or after `from`, or npos.
size_t find_word(const std::string& m, const std::string& word, size_t from);
bool has_word(const std::string& m, size_t from, size_t to, const std::string& word);

// The '}' that closes the '{' at `open`, or npos.
size_t closing_brace(const std::string& m, size_t open);

// Where m[from, to) opens a function's parameter list: its first '(' at depth 0 that is no
// attribute's (__launch_bounds__(...), alignas(...)), or npos (a variable).
size_t parameter_list(const std::string& m, size_t from, size_t to);

// A declaration of device code in a code_mask: a __global__ or __device__ function or variable
// that is not also __host__.
struct DeviceDeclaration {
  size_t start = 0;    // after the last ; { or } before it
  size_t keyword = 0;  // its __global__ or __device__
  size_t end = 0;      // its body's '{', its ';' or a variable's '='
  size_t close = std::string::npos;  // the '}' that closes its body, npos if it has none
  bool kernel = false;               // __global__
};
// Those of `m` in order, none inside another's body.
std::vector<DeviceDeclaration> device_declarations(const std::string& m);

}  // namespace coop
