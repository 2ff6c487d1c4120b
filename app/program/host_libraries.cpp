#include "app/program/host_libraries.hpp"

#include <regex>
#include <set>
#include <sstream>

#include "device/trace/user_file.hpp"

namespace coop::app {

std::string host_library_prelude(const std::vector<std::filesystem::path>& files) {
  static const std::regex library_include(R"re(^\s*#\s*include\s*[<"]((thrust|cub)/[^>"]+)[>"])re");
  std::set<std::string> headers;
  std::set<std::string> libraries;
  for (const std::filesystem::path& file : files) {
    Result<std::string> text = read_user_file(file.string(), kSourceFileLimit);
    if (!text) continue;
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);)
      if (std::smatch m; std::regex_search(line, m, library_include)) {
        headers.insert(m[1].str());
        libraries.insert(m[2].str());
      }
  }
  if (headers.empty()) return "";
  std::string prelude = "#include \"device/byo/host_libraries_begin.hpp\"\n";
  for (const std::string& h : headers) prelude += "#include <" + h + ">\n";
  prelude += "#include \"device/byo/host_libraries_end.hpp\"\n";
  // Said once, as the program starts: their work is not in the trace.
  for (const std::string& library : libraries)
    prelude += "static const bool coop_said_" + library +
               " = ::coop::byo::library_on_host(\"" + (library == "cub" ? "CUB" : "Thrust") +
               "\");\n";
  return prelude;
}

}  // namespace coop::app
