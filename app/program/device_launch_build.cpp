#include "app/program/device_launch_build.hpp"

#include "device/lowering/device_code.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {

std::string relocatable_device_code_reason(const std::vector<std::filesystem::path>& files,
                                           bool asked) {
  for (const std::filesystem::path& file : files)
    if (Result<std::string> text = read_user_file(file.string(), kSourceFileLimit))
      if (launches_from_device_code(*text))
        return "kernels launch kernels in " + file.filename().string() +
               " (relocatable device code, -rdc=true)";
  return asked ? "asked for relocatable device code (-rdc=true)" : "";
}

void add_relocatable_device_code(std::vector<std::string>& cmd) {
  if (cmd.empty()) return;
  cmd.insert(cmd.begin() + 1, "-rdc=true");
  cmd.push_back("-lcudadevrt");
}

}  // namespace coop::app
