#include "app/program/host_libraries.hpp"

#include <regex>
#include <set>
#include <sstream>

#include "device/trace/user_file.hpp"

namespace coop::app {

std::string host_library_prelude(const std::vector<std::filesystem::path>& files) {
  static const std::regex thrust_include(R"re(^\s*#\s*include\s*[<"](thrust/[^>"]+)[>"])re");
  std::set<std::string> headers;
  for (const std::filesystem::path& file : files) {
    Result<std::string> text = read_user_file(file.string(), kSourceFileLimit);
    if (!text) continue;
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);)
      if (std::smatch m; std::regex_search(line, m, thrust_include)) headers.insert(m[1].str());
  }
  if (headers.empty()) return "";
  std::string prelude = "#include \"device/byo/host_libraries_begin.hpp\"\n";
  for (const std::string& h : headers) prelude += "#include <" + h + ">\n";
  // Said once, as the program starts: Thrust's work is not in the trace.
  return prelude + "#include \"device/byo/host_libraries_end.hpp\"\n" +
         "static const bool coop_said_thrust = ::coop::byo::library_on_host(\"Thrust\");\n";
}

}  // namespace coop::app
