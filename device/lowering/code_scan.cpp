#include "device/lowering/code_scan.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <string_view>

namespace coop {
namespace {

// Is the '=' at `at` part of an operator's name (operator=, operator+=, operator==)?
bool names_an_operator(const std::string& m, size_t at) {
  size_t i = at;
  while (i > 0 && std::string_view("=+-*/%^&|<>!").find(m[i - 1]) != std::string_view::npos) --i;
  while (i > 0 && (m[i - 1] == ' ' || m[i - 1] == '\t')) --i;
  return i >= 8 && m.compare(i - 8, 8, "operator") == 0 && (i == 8 || !word_char(m[i - 9]));
}

}  // namespace

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

size_t closing_brace(const std::string& m, size_t open) {
  int depth = 0;
  for (size_t i = open; i < m.size(); ++i) {
    if (m[i] == '{') ++depth;
    if (m[i] == '}' && --depth == 0) return i;
  }
  return std::string::npos;
}

size_t parameter_list(const std::string& m, size_t from, size_t to) {
  static const std::regex not_a_function(
      R"(\b(__launch_bounds__|__align__|alignas|__attribute__|__declspec|decltype|sizeof|alignof|__cluster_dims__|__maxnreg__)\s*$)");
  for (size_t i = from; i < to; ++i) {
    if (m[i] != '(') continue;
    if (!std::regex_search(m.substr(from, i - from), not_a_function)) return i;
    int depth = 0;  // skip the attribute's own parentheses
    for (; i < to; ++i) {
      if (m[i] == '(') ++depth;
      if (m[i] == ')' && --depth == 0) break;
    }
  }
  return std::string::npos;
}

std::vector<DeviceDeclaration> device_declarations(const std::string& m) {
  std::vector<DeviceDeclaration> found;
  size_t resume = 0;
  for (size_t at = 0; at < m.size();) {
    const size_t g = find_word(m, "__global__", at), d = find_word(m, "__device__", at);
    const size_t p = std::min(g, d);
    if (p == std::string::npos) break;
    at = p + 10;
    if (p < resume) continue;
    DeviceDeclaration decl;
    decl.keyword = p;
    decl.kernel = p == g;
    // The declaration this keyword belongs to: from after the last ; { or } before it ...
    decl.start = p;
    while (decl.start > 0 && m[decl.start - 1] != ';' && m[decl.start - 1] != '{' &&
           m[decl.start - 1] != '}')
      --decl.start;
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
    if (has_word(m, decl.start, end, "__host__")) continue;  // compiled for the host as well
    decl.end = end;
    if (m[end] == '{') {
      decl.close = closing_brace(m, end);
      if (decl.close == std::string::npos) break;
      resume = decl.close + 1;
    } else if (m[end] == ';') {
      resume = end + 1;
    }
    found.push_back(decl);
  }
  return found;
}

}  // namespace coop
