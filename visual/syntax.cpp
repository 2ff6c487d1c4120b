#include "visual/syntax.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string_view>

namespace coop::visual {
namespace {

using namespace std::string_view_literals;

constexpr std::string_view kKeywords[] = {
    "if"sv,        "else"sv,     "for"sv,    "while"sv,    "do"sv,       "return"sv,
    "break"sv,     "continue"sv, "switch"sv, "case"sv,     "default"sv,  "const"sv,
    "constexpr"sv, "static"sv,   "inline"sv, "template"sv, "typename"sv, "namespace"sv,
    "using"sv,     "struct"sv,   "class"sv,  "public"sv,   "private"sv,  "extern"sv,
    "volatile"sv,  "true"sv,     "false"sv,  "nullptr"sv,  "sizeof"sv,   "static_assert"sv};
constexpr std::string_view kTypes[] = {
    "void"sv,     "int"sv,     "unsigned"sv, "float"sv, "double"sv,  "bool"sv,
    "char"sv,     "long"sv,    "short"sv,    "auto"sv,  "size_t"sv,  "int32_t"sv,
    "uint32_t"sv, "int64_t"sv, "uint64_t"sv, "dim3"sv,  "uint8_t"sv, "uint16_t"sv};
constexpr std::string_view kQualifiers[] = {"__global__"sv,     "__device__"sv,   "__host__"sv,
                                            "__shared__"sv,     "__constant__"sv, "__restrict__"sv,
                                            "__forceinline__"sv};
// Names a student should spot: the Cooperative Groups API and CUDA's built-ins.
constexpr std::string_view kCoopNames[] = {"cg"sv,
                                           "thread_group"sv,
                                           "thread_block"sv,
                                           "grid_group"sv,
                                           "thread_block_tile"sv,
                                           "coalesced_group"sv,
                                           "cluster_group"sv,
                                           "this_thread_block"sv,
                                           "this_grid"sv,
                                           "this_cluster"sv,
                                           "tiled_partition"sv,
                                           "coalesced_threads"sv,
                                           "labeled_partition"sv,
                                           "binary_partition"sv,
                                           "stride_partition"sv,
                                           "sync"sv,
                                           "thread_rank"sv,
                                           "num_threads"sv,
                                           "size"sv,
                                           "meta_group_rank"sv,
                                           "meta_group_size"sv,
                                           "reduce"sv,
                                           "inclusive_scan"sv,
                                           "exclusive_scan"sv,
                                           "shfl"sv,
                                           "shfl_down"sv,
                                           "shfl_up"sv,
                                           "shfl_xor"sv,
                                           "any"sv,
                                           "all"sv,
                                           "ballot"sv,
                                           "match_any"sv,
                                           "match_all"sv,
                                           "invoke_one"sv,
                                           "invoke_one_broadcast"sv,
                                           "memcpy_async"sv,
                                           "wait"sv,
                                           "barrier_arrive"sv,
                                           "barrier_wait"sv,
                                           "atomicAdd"sv,
                                           "atomicSub"sv,
                                           "atomicMin"sv,
                                           "atomicMax"sv,
                                           "atomicExch"sv,
                                           "atomicCAS"sv,
                                           "atomicAnd"sv,
                                           "atomicOr"sv,
                                           "atomicXor"sv,
                                           "atomicInc"sv,
                                           "atomicDec"sv,
                                           "__syncthreads"sv,
                                           "threadIdx"sv,
                                           "blockIdx"sv,
                                           "blockDim"sv,
                                           "gridDim"sv,
                                           "warpSize"sv,
                                           "atomic_ref"sv,
                                           "traced"sv};

template <size_t N>
bool contains(const std::string_view (&set)[N], std::string_view word) {
  return std::find(std::begin(set), std::end(set), word) != std::end(set);
}

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

TokenKind word_kind(std::string_view w) {
  if (contains(kKeywords, w)) return TokenKind::Keyword;
  if (contains(kTypes, w)) return TokenKind::Type;
  if (contains(kQualifiers, w)) return TokenKind::Qualifier;
  if (contains(kCoopNames, w)) return TokenKind::CoopName;
  return TokenKind::Text;
}

}  // namespace

std::vector<Token> tokenize_line(std::string_view line, bool& in_block_comment) {
  std::vector<Token> out;
  auto push = [&](size_t b, size_t e, TokenKind k) {
    if (e <= b) return;
    if (!out.empty() && out.back().kind == k && out.back().end == b)
      out.back().end = uint32_t(e);  // merge neighbours of one kind
    else
      out.push_back({uint32_t(b), uint32_t(e), k});
  };
  size_t i = 0;
  const size_t n = line.size();
  if (in_block_comment) {
    const size_t close = line.find("*/");
    if (close == std::string_view::npos) {
      push(0, n, TokenKind::Comment);
      return out;
    }
    push(0, close + 2, TokenKind::Comment);
    in_block_comment = false;
    i = close + 2;
  }
  const size_t first = line.find_first_not_of(" \t");
  if (i == 0 && first != std::string_view::npos && line[first] == '#') {
    push(0, n, TokenKind::Preprocessor);
    return out;
  }
  while (i < n) {
    const char c = line[i];
    if (c == '/' && i + 1 < n && line[i + 1] == '/') {
      push(i, n, TokenKind::Comment);
      break;
    }
    if (c == '/' && i + 1 < n && line[i + 1] == '*') {
      const size_t close = line.find("*/", i + 2);
      if (close == std::string_view::npos) {
        push(i, n, TokenKind::Comment);
        in_block_comment = true;
        break;
      }
      push(i, close + 2, TokenKind::Comment);
      i = close + 2;
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < n && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      push(i, j, TokenKind::String);
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < n && (ident_char(line[j]) || line[j] == '.')) ++j;
      push(i, j, TokenKind::Number);
      i = j;
    } else if (ident_char(c)) {
      size_t j = i;
      while (j < n && ident_char(line[j])) ++j;
      push(i, j, word_kind(line.substr(i, j - i)));
      i = j;
    } else {
      push(i, i + 1, TokenKind::Text);
      ++i;
    }
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

}  // namespace coop::visual
