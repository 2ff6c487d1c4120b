#include "app/program/compile_errors.hpp"

#include <charconv>
#include <filesystem>

namespace coop::app {
namespace {

// `path` names the file `name`: it is the name, or a path ending in "/name".
bool names_file(std::string_view path, std::string_view name) {
  return path == name || (path.ends_with(name) && path[path.size() - name.size() - 1] == '/');
}

// The line number of the location "PATH:LINE[:COL]" or "PATH(LINE)" that `head` ends with,
// where PATH ends in `name`; 0 when it is another file's location or none.
int line_before(std::string_view head, std::string_view name) {
  // nvcc: "PATH(LINE)".
  if (head.ends_with(")")) {
    const size_t open = head.rfind('(');
    if (open == std::string_view::npos) return 0;
    int line = 0;
    const std::string_view digits = head.substr(open + 1, head.size() - open - 2);
    if (std::from_chars(digits.data(), digits.data() + digits.size(), line).ec != std::errc() ||
        !names_file(head.substr(0, open), name))
      return 0;
    return line;
  }
  // gcc, clang: "PATH:LINE:COL" or "PATH:LINE".
  std::string_view rest = head;
  int numbers[2] = {0, 0}, found = 0;
  for (; found < 2; ++found) {
    const size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos) break;
    const std::string_view digits = rest.substr(colon + 1);
    int value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) break;
    numbers[found] = value;
    rest = rest.substr(0, colon);
  }
  if (found == 0 || !names_file(rest, name)) return 0;
  return found == 2 ? numbers[1] : numbers[0];
}

}  // namespace

std::vector<CompileError> compile_errors(std::string_view output, const std::string& file,
                                         size_t limit) {
  const std::string name = std::filesystem::path(file).filename().string();
  std::vector<CompileError> errors;
  for (size_t at = 0; at < output.size() && errors.size() < limit;) {
    const size_t end = std::min(output.find('\n', at), output.size());
    const std::string_view text = output.substr(at, end - at);
    at = end + 1;
    for (std::string_view marker : {": error: ", ": fatal error: "}) {
      const size_t where = text.find(marker);
      if (where == std::string_view::npos) continue;
      const int line = line_before(text.substr(0, where), name);
      if (line <= 0) break;
      errors.push_back(
          {line, name + ":" + std::to_string(line) + ": " + std::string(text.substr(where + 2))});
      break;
    }
  }
  return errors;
}

}  // namespace coop::app
