#include "app/gui/editor_launch.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

extern char** environ;

namespace coop::app {

std::vector<std::string> editor_command(const std::string& file) {
  std::vector<std::string> argv;
  for (const char* name : {"VISUAL", "EDITOR"}) {
    const char* value = std::getenv(name);
    if (!value) continue;
    std::istringstream words(value);
    for (std::string w; words >> w;) argv.push_back(w);
    if (!argv.empty()) break;  // a variable set to spaces names no editor
  }
  if (argv.empty()) argv.push_back("xdg-open");
  argv.push_back(file);
  return argv;
}

Status launch_detached(const std::vector<std::string>& argv) {
  if (argv.empty()) return Status::error("no program to start");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  // posix_spawnp reports a program that cannot be executed as its result (glibc waits for the
  // exec), so a missing editor is said here rather than lost in a child.
  if (const int e = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ); e != 0)
    return Status::error("cannot start " + argv[0] + ": " + std::strerror(e));
  std::thread([pid] { waitpid(pid, nullptr, 0); }).detach();
  return {};
}

}  // namespace coop::app
