// Just enough C++/CUDA lexing to colour a lesson kernel: keywords, types, CUDA qualifiers,
// Cooperative Groups names, numbers, strings, comments and preprocessor lines.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace coop::visual {

enum class TokenKind : uint8_t {
  Text,       // identifiers, operators, spaces
  Keyword,    // if, for, return, const, ...
  Type,       // int, float, auto, ...
  Qualifier,  // __global__, __device__, __shared__
  CoopName,   // cg, this_thread_block, sync, thread_rank, atomicAdd, ...
  Number,
  String,
  Comment,
  Preprocessor,
};

struct Token {
  uint32_t begin = 0, end = 0;  // byte offsets into the line
  TokenKind kind = TokenKind::Text;
};

// Tokens covering all of `line` in order. `in_block_comment` carries a /* ... */ comment from
// one line to the next (in: the state before the line, out: after it).
std::vector<Token> tokenize_line(std::string_view line, bool& in_block_comment);

// Splits source text into lines (without their '\n').
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace coop::visual
