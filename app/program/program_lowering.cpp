#include "app/program/program_lowering.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <utility>

#include "app/program/child_process.hpp"
#include "app/program/program.hpp"
#include "app/program/program_pch.hpp"
#include "device/lowering/device_code.hpp"
#include "device/paths/data_dirs.hpp"

namespace coop::app {
namespace fs = std::filesystem;

namespace {

// coopviz-frontend's reading of `text` (it reads the text on its standard input).
Result<FrontEndEdits> run_front_end(const fs::path& tool, const std::string& text,
                                    const std::string& path,
                                    const std::vector<std::string>& options) {
  char input[] = "/tmp/coopviz-frontend-XXXXXX";
  const int fd = mkstemp(input);
  if (fd < 0) return Status::error("cannot write the front end's input in /tmp");
  const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  ::close(fd);
  std::vector<std::string> argv = {tool.string(), path};
  argv.insert(argv.end(), options.begin(), options.end());
  // CUDA's runtime and Cooperative Groups headers, read once and kept precompiled.
  if (!precompiled_headers_turned_off())
    argv.push_back("--pch-dir=" + program_cache_root() + "/frontend-pch");
  std::string output;
  // Clang reads a program and its headers in about a second and a few hundred MiB; a minute or
  // 4 GiB means something is wrong (a huge include), and the line lowering takes over.
  ChildLimits limits;
  limits.wall_seconds = 60;
  limits.cpu_seconds = 60;
  limits.address_space = uint64_t(4) << 30;
  Result<ChildEnd> end = run_supervised(
      [&] {
        const int in = ::open(input, O_RDONLY);
        if (in >= 0) ::dup2(in, 0);
        std::vector<char*> args;
        for (std::string& a : argv) args.push_back(a.data());
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        _exit(127);
      },
      limits, &output);
  ::unlink(input);
  if (!written) return Status::error("cannot write the front end's input in /tmp");
  if (!end) return end.status();
  if (end->timed_out) return Status::error("coopviz-frontend ran past 60 s");
  if (exit_code_of(end->wait_status) != 0)
    return Status::error("coopviz-frontend ended with status " +
                         std::to_string(exit_code_of(end->wait_status)) + ": " +
                         output.substr(0, 300));
  return read_front_end_output(output);
}

}  // namespace

ProgramLowering::ProgramLowering(std::vector<std::string> clang_options,
                                 const ShownAccesses& shown, bool use_front_end)
    : clang_options_(std::move(clang_options)), shows_(!shown.empty()),
      use_front_end_(use_front_end) {
  clang_options_.insert(clang_options_.begin(),
                        {"--show-stores=" + join_shown_buffers(shown.stores),
                         "--show-loads=" + join_shown_buffers(shown.loads)});
  if (shown.blocks) clang_options_.insert(clang_options_.begin(), "--record-blocks");
}

Result<std::string> ProgramLowering::lower(const std::string& given, const std::string& path,
                                           SourceKind kind) {
  // The front end and the line lowering read launches with their chevrons joined.
  const std::string text = join_launch_chevrons(given);
  // What nvcc refuses in device code and the host compiler would take, refused in nvcc's words.
  if (kind == SourceKind::Program) {
    if (Status s = check_device_code_calls(text, path); !s) return s;
    if (Status s = check_emulator_device_code(text, path); !s) return s;
  }
  std::error_code ec;
  const std::string absolute = fs::absolute(path, ec).string();
  auto read = read_.find(absolute);
  if (read == read_.end() && !use_front_end_) read = read_.emplace(absolute, FrontEndEdits{}).first;
  if (read == read_.end()) {
    const fs::path tool = data_dirs().front_end;
    Result<FrontEndEdits> edits = Status::error("COOPVIZ_FRONTEND=off");
    if (!tool.empty())
      edits = fs::exists(tool, ec) ? run_front_end(tool, text, absolute, clang_options_)
                                   : Status::error(tool.string() + " is not there");
    if (!edits) {
      if (note_.empty())
        note_ = fs::path(path).filename().string() +
                " was lowered line by line, without the C++ front end: " +
                edits.status().message() +
                (shows_ ? " (so its shown loads and stores and its block records are not traced)"
                        : "");
      edits = FrontEndEdits{};
    }
    // Named as the program names the file, not by the absolute path the tool was given.
    for (const std::string& place : edits->not_shown)
      not_shown_.push_back(place.starts_with(absolute + ":")
                               ? path + place.substr(absolute.size())
                               : place);
    read = read_.emplace(absolute, std::move(*edits)).first;
  }
  Result<std::string> edited = apply_front_end_edits(text, read->second, kind);
  if (!edited) return edited.status();
  return lower_source(*edited, path, kind);
}

}  // namespace coop::app
