// The host half of a user's program for the GPU (SourceKind::GpuHost): what stays of the source
// when its device code is compiled apart by nvcc and its host code by the host compiler alone.
#include <cctype>
#include <regex>
#include <string>
#include <string_view>

#include "device/lowering/code_scan.hpp"
#include "device/lowering/lowering.hpp"

namespace coop {
namespace {

// Spaces over text[from, to), newlines kept, so every later line keeps its number.
void blank(std::string& text, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i)
    if (text[i] != '\n') text[i] = ' ';
}

// Is there a call-like '(' in m[from, to) at depth 0: a function's parameter list rather than a
// variable's attributes?
bool declares_function(const std::string& m, size_t from, size_t to) {
  return parameter_list(m, from, to) != std::string::npos;
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
  for (const DeviceDeclaration& d : device_declarations(m)) {
    if (d.close != std::string::npos) {
      if (d.kernel)
        blank(text, d.end + 1, d.close);  // the stub stays: its symbol names the kernel
      else
        blank(text, d.start, d.close + 1);
    } else if (m[d.end] == ';' && !d.kernel && declares_function(m, d.keyword, d.end)) {
      blank(text, d.start, d.end + 1);  // a device function's declaration
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
