#include "app/cli/nvcc_flags.hpp"

namespace coop::app {

std::vector<std::string> with_nvcc_rdc_flags(const std::vector<std::string>& own) {
  std::vector<std::string> out;
  bool rdc = false;
  for (size_t i = 0; i < own.size(); ++i) {
    const std::string& a = own[i];
    if (a == "-rdc" && i + 1 < own.size() && (own[i + 1] == "true" || own[i + 1] == "false")) {
      rdc = rdc || own[++i] == "true";
    } else if (a == "-rdc=false" || a == "--relocatable-device-code=false") {
      // nvcc's default, said aloud.
    } else if (a == "-rdc=true" || a == "--relocatable-device-code=true" || a == "-dc" ||
               a == "--device-c" || a == "-lcudadevrt") {
      rdc = true;
    } else {
      out.push_back(a);
    }
  }
  if (rdc) out.push_back("--rdc");
  return out;
}

}  // namespace coop::app
