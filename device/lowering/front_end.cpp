#include "device/lowering/front_end.hpp"

#include <sstream>

namespace coop {
namespace {

std::string unescaped(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[i + 1] == 'n' ? '\n' : s[i + 1];
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

Result<FrontEndEdits> read_front_end_output(const std::string& output) {
  FrontEndEdits edits;
  std::istringstream lines(output);
  bool header = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string record;
    words >> record;
    if (record == "frontend") {
      int version = 0;
      std::string field;
      words >> version;
      if (version != 1)
        return Status::error("coopviz-frontend speaks version " + std::to_string(version) +
                             ", this coopviz reads version 1");
      while (words >> field) {
        const size_t eq = field.find('=');
        const int value = eq == std::string::npos ? 0 : std::atoi(field.c_str() + eq + 1);
        if (field.starts_with("errors=")) edits.clang_errors = value;
        if (field.starts_with("launches=")) edits.launches = value;
        if (field.starts_with("shared=")) edits.shared_variables = value;
      }
      header = true;
    } else if (record == "edit" && header) {
      FrontEndEdit e;
      std::string what;
      if (!(words >> what >> e.offset >> e.length) ||
          (what != "launch" && what != "shared" && what != "shown" && what != "blocks"))
        return Status::error("coopviz-frontend: unreadable edit: " + line);
      e.kind = what == "shared" ? EditKind::Shared
               : what == "shown"  ? EditKind::Shown
               : what == "blocks" ? EditKind::BlockRecord
                                  : EditKind::Launch;
      std::string rest;
      std::getline(words, rest);
      e.text = unescaped(rest.empty() ? rest : rest.substr(1));
      if (!edits.edits.empty() && edits.edits.back().offset + edits.edits.back().length > e.offset)
        return Status::error("coopviz-frontend: edits out of order at offset " +
                             std::to_string(e.offset));
      edits.edits.push_back(std::move(e));
    } else if (record == "skip" && header) {
      std::string rest;
      std::getline(words, rest);
      rest = rest.empty() ? rest : rest.substr(1);
      (rest.find(": not shown: ") != std::string::npos ? edits.not_shown : edits.skipped)
          .push_back(rest);
    }
    // Anything else is Clang's own words (a driver message): not ours to read.
  }
  if (!header) return Status::error("coopviz-frontend said nothing it was asked for");
  return edits;
}

Result<std::string> apply_front_end_edits(const std::string& text, const FrontEndEdits& edits,
                                          SourceKind kind) {
  const auto applies = [kind](EditKind edit) {
    switch (edit) {
      case EditKind::Launch:
        return true;
      case EditKind::Shared:
        return kind == SourceKind::Program;  // nvcc knows __shared__
      case EditKind::Shown:
      case EditKind::BlockRecord:
        return kind == SourceKind::Program || kind == SourceKind::GpuProgram;  // kernel code
    }
    return false;
  };
  std::string out;
  size_t copied = 0;
  for (const FrontEndEdit& e : edits.edits) {
    if (!applies(e.kind)) continue;
    if (e.offset < copied || e.offset + e.length > text.size())
      return Status::error("coopviz-frontend: an edit at offset " + std::to_string(e.offset) +
                           " does not fit the " + std::to_string(text.size()) + "-byte source");
    out.append(text, copied, e.offset - copied);
    out += e.text;
    copied = e.offset + e.length;
  }
  out.append(text, copied, std::string::npos);
  return out;
}

}  // namespace coop
