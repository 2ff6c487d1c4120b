// Two files' traces compared line by line although their lines are numbered apart (a lesson's
// kernel file and its twin, an ordinary CUDA program): each event's line becomes the number of
// its text, trimmed, shared through `ids`. A lesson's traced(x) reads as the program's x, the
// access the program's run shows as traced (ShownAccesses), and a block record's line is no
// line of text in either.
#pragma once

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "device/trace/compare.hpp"
#include "device/trace/trace.hpp"

namespace coop::testing {

// `text` with every traced(X) written X.
inline std::string without_traced(std::string text) {
  for (size_t at = text.find("traced("); at != std::string::npos; at = text.find("traced(", at)) {
    size_t close = at + 7;
    for (int depth = 1; close < text.size(); ++close) {
      depth += text[close] == '(' ? 1 : text[close] == ')' ? -1 : 0;
      if (depth == 0) break;
    }
    if (close >= text.size()) break;
    text.erase(close, 1);
    text.erase(at, 7);
  }
  return text;
}

inline const std::string kBlockRecordLine = "(a block record)";

inline void number_lines_by_text(Trace& t, const std::string& source,
                                 std::map<std::string, uint16_t>& ids) {
  std::vector<std::string> lines{""};
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) {
    const size_t a = line.find_first_not_of(" \t");
    lines.push_back(a == std::string::npos ? "" : without_traced(line.substr(a)));
  }
  for (Event& e : t.events) {
    // A block record is made where the lesson calls record_block_start() or record_block_finish(),
    // and where the program's kernel is named (ShownAccesses::blocks): compared as one line.
    const bool block_record = e.group_kind == GroupKind::Block &&
                              (e.kind == EventKind::ThreadBegin || e.kind == EventKind::ThreadEnd);
    const std::string& text = block_record    ? kBlockRecordLine
                              : e.line < lines.size() ? lines[e.line]
                                                      : lines[0];
    e.line = ids.try_emplace(text, uint16_t(ids.size() + 1)).first->second;
  }
}

// A lesson's launch (its kernel file `source`) against its program's (whose trace holds its
// source) on every deterministic field, lines compared by their text.
inline TraceDiff compare_with_program(Trace lesson, const std::string& source, Trace program) {
  std::map<std::string, uint16_t> ids;
  number_lines_by_text(lesson, source, ids);
  number_lines_by_text(program, program.header.source, ids);
  return compare_deterministic(lesson, program);
}

}  // namespace coop::testing
