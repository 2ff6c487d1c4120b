#include "device/occupancy/resource_report.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <regex>
#include <sstream>

namespace coop {

std::string demangled_name(const std::string& mangled) {
  int status = 0;
  char* text = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return mangled;
  std::string s(text);
  std::free(text);
  // Cut the parameter list: the first '(' at template depth 0 that opens no unnamed namespace.
  static const std::string unnamed = "(anonymous namespace)";
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, unnamed.size(), unnamed) == 0) {
      i += unnamed.size() - 1;
      continue;
    }
    if (s[i] == '<') ++depth;
    if (s[i] == '>') --depth;
    if (s[i] == '(' && depth == 0) return s.substr(0, i);
  }
  return s;
}

std::vector<PtxasKernelReport> parse_ptxas_report(std::string_view text) {
  // ptxas info    : Compiling entry function '_Z...' for 'sm_90'
  // ptxas info    : Function properties for _Z...
  //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  // ptxas info    : Used 31 registers, used 1 barriers, 4096 bytes smem, 376 bytes cmem[0]
  static const std::regex entry_re(R"(Compiling entry function '([^']+)' for 'sm_(\d+)[a-z]?')");
  static const std::regex frame_re(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used_re(R"(Used (\d+) registers)");
  static const std::regex barriers_re(R"(used (\d+) barriers)");
  static const std::regex smem_re(R"((\d+) bytes smem)");
  std::vector<PtxasKernelReport> out;
  PtxasKernelReport* current = nullptr;
  std::istringstream in{std::string(text)};
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry_re)) {
      PtxasKernelReport r;
      r.mangled = m[1];
      r.qualified = demangled_name(r.mangled);
      r.arch = std::stoi(m[2]);
      out.push_back(r);
      current = &out.back();
      continue;
    }
    if (current == nullptr) continue;
    if (line.find("Compiling ") != std::string::npos) {  // a device function: not ours
      current = nullptr;
      continue;
    }
    if (std::regex_search(line, m, frame_re)) {
      current->stack_bytes = uint32_t(std::stoul(m[1]));
      current->spill_stores = uint32_t(std::stoul(m[2]));
      current->spill_loads = uint32_t(std::stoul(m[3]));
    }
    if (std::regex_search(line, m, used_re)) {
      current->regs = std::stoi(m[1]);
      if (std::regex_search(line, m, barriers_re)) current->barriers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem_re)) current->static_smem = uint32_t(std::stoul(m[1]));
      current = nullptr;  // the "Used" line ends an entry's report
    }
  }
  return out;
}

}  // namespace coop
