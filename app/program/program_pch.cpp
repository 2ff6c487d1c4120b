#include "app/program/program_pch.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include "app/program/child_process.hpp"

namespace coop::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrelude = "prelude.hpp";
// A lock older than this was left by a coopviz that died while making the header.
constexpr auto kStaleLock = std::chrono::minutes(5);

}  // namespace

bool precompiled_headers_turned_off() {
  const char* v = std::getenv("COOPVIZ_PRECOMPILED_HEADER");
  return v && std::string(v) == "0";
}

RuntimeHeader::RuntimeHeader(std::vector<std::string> flags, fs::path dir)
    : flags_(std::move(flags)), dir_(std::move(dir)) {}

std::vector<std::string> RuntimeHeader::options() {
  if (precompiled_headers_turned_off()) return {};
  std::error_code ec;
  const fs::path prelude = dir_ / kPrelude;
  if (fs::exists(dir_ / (std::string(kPrelude) + ".gch"), ec)) return {"-include", prelude.string()};
  if (fs::exists(dir_ / "failed", ec)) return {};  // its compiler's words are kept there
  fs::create_directories(dir_, ec);
  if (ec) return {};
  // One coopviz makes it; the others build without it meanwhile.
  const fs::path lock = dir_ / "making";
  if (fs::exists(lock, ec)) {
    const auto age = fs::file_time_type::clock::now() - fs::last_write_time(lock, ec);
    if (ec || age < kStaleLock) return {};
    fs::remove(lock, ec);
  }
  const int fd = ::open(lock.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (fd < 0) return {};
  ::close(fd);
  making_ = std::jthread([this] { make(); });
  return {};
}

void RuntimeHeader::make() {
  std::error_code ec;
  const fs::path prelude = dir_ / kPrelude;
  const std::string mine = std::to_string(getpid());
  const fs::path text = dir_ / (std::string(kPrelude) + "." + mine);
  const fs::path partial = dir_ / (std::string(kPrelude) + ".gch.partial." + mine);
  {
    std::ofstream out(text);
    out << "// The emulator's runtime, which a program's compile reads precompiled from "
        << kPrelude << ".gch.\n#include \"device/byo/runtime.hpp\"\n";
  }
  fs::rename(text, prelude, ec);
  std::vector<std::string> cmd = flags_;
  cmd.insert(cmd.end(), {"-x", "c++-header", prelude.string(), "-o", partial.string()});
  std::string output;
  Result<int> rc = run_compiler(cmd, output, prelude.string());
  // Kept only whole: a compile reads the header only under its final name.
  if (rc && *rc == 0) fs::rename(partial, dir_ / (std::string(kPrelude) + ".gch"), ec);
  else std::ofstream(dir_ / "failed") << (rc ? output : rc.status().message()) << "\n";
  fs::remove(partial, ec);
  fs::remove(dir_ / "making", ec);
}

}  // namespace coop::app
