#include "app/program/host_libraries.hpp"

#include <regex>
#include <set>
#include <sstream>

#include "device/trace/user_file.hpp"

namespace coop::app {

namespace {

// The Thrust or CUB headers `files` include ("thrust/sort.h"), each once.
std::set<std::string> library_headers(const std::vector<std::filesystem::path>& files,
                                      const char* libraries) {
  const std::regex include(std::string(R"re(^\s*#\s*include\s*[<"]((?:)re") + libraries +
                           R"re()/[^>"]+)[>"])re");
  std::set<std::string> headers;
  for (const std::filesystem::path& file : files) {
    Result<std::string> text = read_user_file(file.string(), kSourceFileLimit);
    if (!text) continue;
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);)
      if (std::smatch m; std::regex_search(line, m, include)) headers.insert(m[1].str());
  }
  return headers;
}

}  // namespace

std::string host_library_prelude(const std::vector<std::filesystem::path>& files) {
  const std::set<std::string> headers = library_headers(files, "thrust");
  if (headers.empty()) return "";
  std::string prelude = "#include \"device/byo/host_libraries_begin.hpp\"\n";
  for (const std::string& h : headers) prelude += "#include <" + h + ">\n";
  // Said once, as the program starts: Thrust's work is not in the trace.
  return prelude + "#include \"device/byo/host_libraries_end.hpp\"\n" +
         "static const bool coop_said_thrust = ::coop::byo::library_on_host(\"Thrust\");\n";
}

std::string gpu_library_prelude(const std::vector<std::filesystem::path>& files) {
  if (library_headers(files, "thrust|cub").empty()) return "";
  return "#include <cstdio>\n"
         "static const bool coop_said_libraries = std::fprintf(stderr, \"coopviz: the kernels "
         "Thrust and CUB launch run untraced on the GPU; the program's own kernels are "
         "traced\\n\") > 0;\n";
}

}  // namespace coop::app
