// The host half of a user's program for the GPU (SourceKind::GpuHost): what stays of the source
// when its device code is compiled apart by nvcc and its host code by the host compiler alone.
#include <cctype>
#include <regex>
#include <string>
#include <string_view>

#include "device/lowering/lowering.hpp"

namespace coop {
namespace {

// `text` with comments, string and character literals and preprocessor lines blanked (newlines
// kept), so positions in it are positions in `text` and only code is left to scan.
std::string code_mask(const std::string& text) {
  std::string m = text;
  enum { Code, Line, Block, Quote } state = Code;
  char quote = 0;
  bool line_start = true;  // only blanks since the last newline
  for (size_t i = 0; i < m.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\n') {
      // A preprocessor line goes on past a backslash; a // comment does too.
      const bool continued = i > 0 && text[i - 1] == '\\';
      if ((state == Line && !continued) || state == Quote) state = Code;
      line_start = true;
      continue;
    }
    switch (state) {
      case Code:
        if (c == '/' && next == '/') {
          state = Line;
        } else if (c == '/' && next == '*') {
          state = Block;
          m[i++] = ' ';
        } else if (c == '"' || c == '\'') {
          state = Quote;
          quote = c;
        } else if (c == '#' && line_start) {
          state = Line;  // a directive: not code to scan
        }
        if (state != Code) m[i] = ' ';
        break;
      case Line:
        m[i] = ' ';
        break;
      case Block:
        m[i] = ' ';
        if (c == '*' && next == '/') m[++i] = ' ', state = Code;
        break;
      case Quote:
        m[i] = ' ';
        if (c == '\\' && i + 1 < m.size() && text[i + 1] != '\n')
          m[++i] = ' ';
        else if (c == quote)
          state = Code;
        break;
    }
    if (c != ' ' && c != '\t') line_start = false;
  }
  return m;
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The position of the whole word `word` in `m` at or after `from`, or npos.
size_t find_word(const std::string& m, const std::string& word, size_t from) {
  for (size_t at = m.find(word, from); at != std::string::npos; at = m.find(word, at + 1)) {
    const bool starts = at == 0 || !word_char(m[at - 1]);
    const bool ends = at + word.size() >= m.size() || !word_char(m[at + word.size()]);
    if (starts && ends) return at;
  }
  return std::string::npos;
}

bool has_word(const std::string& m, size_t from, size_t to, const std::string& word) {
  const size_t at = find_word(m, word, from);
  return at != std::string::npos && at < to;
}

// Spaces over text[from, to), newlines kept, so every later line keeps its number.
void blank(std::string& text, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i)
    if (text[i] != '\n') text[i] = ' ';
}

// The '}' that closes the '{' at `open`, or npos.
size_t closing_brace(const std::string& m, size_t open) {
  int depth = 0;
  for (size_t i = open; i < m.size(); ++i) {
    if (m[i] == '{') ++depth;
    if (m[i] == '}' && --depth == 0) return i;
  }
  return std::string::npos;
}

// Is there a call-like '(' in m[from, to) at depth 0: a function's parameter list rather than a
// variable's attributes?
bool declares_function(const std::string& m, size_t from, size_t to) {
  static const std::regex not_a_function(
      R"(\b(__launch_bounds__|__align__|alignas|__attribute__|__declspec|decltype|sizeof|alignof|__cluster_dims__|__maxnreg__)\s*$)");
  for (size_t i = from; i < to; ++i) {
    if (m[i] != '(') continue;
    if (!std::regex_search(m.substr(from, i - from), not_a_function)) return true;
    int depth = 0;  // skip the attribute's own parentheses
    for (; i < to; ++i) {
      if (m[i] == '(') ++depth;
      if (m[i] == ')' && --depth == 0) break;
    }
  }
  return false;
}

// Is the '=' at `at` part of an operator's name (operator=, operator+=, operator==)?
bool names_an_operator(const std::string& m, size_t at) {
  size_t i = at;
  while (i > 0 && std::string_view("=+-*/%^&|<>!").find(m[i - 1]) != std::string_view::npos) --i;
  while (i > 0 && (m[i - 1] == ' ' || m[i - 1] == '\t')) --i;
  return i >= 8 && m.compare(i - 8, 8, "operator") == 0 && (i == 8 || !word_char(m[i - 9]));
}

}  // namespace

std::string host_half_obstacle(const std::string& text) {
  const std::string m = code_mask(text);
  static const std::pair<std::regex, const char*> kObstacles[] = {
      // Host and device share the variable's memory: one compile must see both sides.
      {std::regex(R"(\b__managed__\b)"), "a __managed__ variable"},
      // Device variables of internal linkage get names of nvcc's own in the device code.
      {std::regex(R"(\bstatic\s+(__device__|__constant__)\s[^;(){}]*;)"),
       "a static __device__ or __constant__ variable"},
      {std::regex(R"(\bnamespace\s*\{)"), "an anonymous namespace"},
      // Lambdas with device code live in host functions.
      {std::regex(R"(\]\s*(__host__\s*)?__device__\b)"), "a lambda with device code"},
      // Cluster launches go through cudaLaunchKernelEx, which wants the program's own kernel.
      {std::regex(R"(\b(cudaLaunchKernelEx|cudaLaunchKernelExC|__cluster_dims__)\b)"),
       "a cluster launch"},
  };
  for (const auto& [re, what] : kObstacles)
    if (std::regex_search(m, re)) return what;
  // CUDA's pipeline headers want device code of their own on the host side.
  static const std::regex pipeline(
      R"((^|\n)\s*#\s*include\s*[<"](cuda/pipeline|cuda_pipeline\.h)[>"])");
  if (std::regex_search(text, pipeline)) return "CUDA's pipeline header";
  // Thrust's and CUB's headers hold their kernels and the launches of them together.
  static const std::regex library(R"((^|\n)\s*#\s*include\s*[<"](thrust|cub)/)");
  if (std::regex_search(text, library)) return "Thrust or CUB";
  return "";
}

std::string strip_device_code(std::string text) {
  const std::string m = code_mask(text);
  size_t resume = 0;
  for (size_t at = 0; at < m.size();) {
    const size_t g = find_word(m, "__global__", at), d = find_word(m, "__device__", at);
    const size_t p = std::min(g, d);
    if (p == std::string::npos) break;
    at = p + 10;
    if (p < resume) continue;
    // The declaration this keyword belongs to: from after the last ; { or } before it ...
    size_t start = p;
    while (start > 0 && m[start - 1] != ';' && m[start - 1] != '{' && m[start - 1] != '}') --start;
    // ... to its body's '{', its ';' or a variable's '='.
    size_t end = p;
    int depth = 0;
    for (; end < m.size(); ++end) {
      const char c = m[end];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (depth == 0 && (c == '{' || c == ';')) break;
      if (depth == 0 && c == '=' && !names_an_operator(m, end)) break;
    }
    if (end >= m.size()) break;
    if (has_word(m, start, end, "__host__")) continue;  // compiled for the host as well
    const bool kernel = p == g;
    if (m[end] == '{') {
      const size_t close = closing_brace(m, end);
      if (close == std::string::npos) break;
      if (kernel)
        blank(text, end + 1, close);  // the stub stays: its symbol names the kernel
      else
        blank(text, start, close + 1);
      resume = close + 1;
    } else if (m[end] == ';' && !kernel && declares_function(m, p, end)) {
      blank(text, start, end + 1);  // a device function's declaration
      resume = end + 1;
    }
    // Otherwise a device variable: the host keeps one of the same name, found by its symbol.
  }
  return text;
}

}  // namespace coop

namespace coop {

std::vector<std::string> defined_kernels(const std::string& text) {
  const std::string m = code_mask(text);
  std::vector<std::string> names;
  for (size_t at = find_word(m, "__global__", 0); at != std::string::npos;
       at = find_word(m, "__global__", at + 10)) {
    // Its parameters' '(': the first at depth 0 that is not an attribute's.
    size_t open = std::string::npos;
    for (size_t i = at + 10; i < m.size() && m[i] != ';' && m[i] != '{'; ++i) {
      if (m[i] != '(') continue;
      if (declares_function(m, at + 10, i + 1)) {
        open = i;
        break;
      }
      for (int depth = 0; i < m.size(); ++i) {  // past the attribute's own parentheses
        if (m[i] == '(') ++depth;
        if (m[i] == ')' && --depth == 0) break;
      }
    }
    if (open == std::string::npos) continue;
    // A definition: its body follows the parameters (and any trailing attributes).
    size_t close = open;
    for (int depth = 0; close < m.size(); ++close) {
      if (m[close] == '(') ++depth;
      if (m[close] == ')' && --depth == 0) break;
    }
    const size_t body = m.find_first_of("{;", close);
    if (body == std::string::npos || m[body] != '{') continue;
    size_t end = open;
    while (end > at && (m[end - 1] == ' ' || m[end - 1] == '\t' || m[end - 1] == '\n')) --end;
    size_t start = end;
    while (start > at && word_char(m[start - 1])) --start;
    if (start < end) names.push_back(text.substr(start, end - start));
  }
  return names;
}

}  // namespace coop
