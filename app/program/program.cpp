#include "app/program/program.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <thread>

#include "app/program/child_process.hpp"
#include "app/program/device_launch_build.hpp"
#include "app/program/host_libraries.hpp"
#include "app/program/kernel_resource_table.hpp"
#include "app/program/program_build.hpp"
#include "app/program/program_files.hpp"
#include "app/program/program_lowering.hpp"
#include "app/program/program_pch.hpp"
#include "app/program/program_paths.hpp"
#include "app/program/unhooked_recipe.hpp"
#include "device/gpu/device_query.hpp"
#include "device/launch/executor.hpp"
#include "device/lowering/lowering.hpp"
#include "device/occupancy/presets.hpp"
#include "device/paths/data_dirs.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

Result<std::string> read_file(const std::string& path) {
  return read_user_file(path, kSourceFileLimit);
}

}  // namespace

uint64_t hash_of(const std::vector<std::string>& parts) {
  uint64_t h = 1469598103934665603ull;
  for (const std::string& p : parts) {
    for (unsigned char c : p) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  }
  return h;
}

std::string hash_name(const std::vector<std::string>& parts) {
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(hash_of(parts)));
  return name;
}

// `file`'s name and modification time, added to a build's key.
void stamp_file(std::vector<std::string>& key, const std::string& file) {
  if (struct stat st{}; stat(file.c_str(), &st) == 0)
    key.push_back(file + "@" + std::to_string(st.st_mtim.tv_sec) + "." +
                  std::to_string(st.st_mtim.tv_nsec));
}

void stamp_program_headers(std::vector<std::string>& key, const DataDirs& dirs) {
  std::error_code ec;
  std::vector<std::string> header_files;  // sorted: a folder lists its files in no set order
  for (const auto& entry : fs::recursive_directory_iterator(dirs.headers / "device", ec))
    if (entry.is_regular_file(ec)) header_files.push_back(entry.path().string());
  std::sort(header_files.begin(), header_files.end());
  for (const std::string& file : header_files) stamp_file(key, file);
}

BuildFolderLock::BuildFolderLock(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  fd_ = ::open((dir / "building.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  // Without the lock (a read-only cache, say) the build goes on unguarded, as before.
  if (fd_ >= 0)
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
}

BuildFolderLock::~BuildFolderLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::string program_cache_root() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/coopviz";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/coopviz";
  return "/tmp/coopviz-cache";
}

namespace {

// nvcc runs its steps one after another, yet the host side's front end (cudafe++) and the
// device side's compiler (cicc, then ptxas) need nothing from each other but the translation
// unit's module id, which cudafe++ would write first. So the GPU build asks nvcc for its
// commands (--dryrun), writes a module id itself, and runs those two chains side by side; the
// host compile that embeds the device code, and the link, follow. If the commands are not of
// that shape (another nvcc), nvcc runs as usual. `before_ptxas`, when given, edits the device
// code's PTX between cicc and ptxas, and ptxas's -v words go to `ptxas_report`; it is not called
// when nvcc runs as usual.
Result<int> run_nvcc(const std::vector<std::string>& cmd, const fs::path& dir, std::string& output,
                     const std::string& file,
                     const std::function<Status(const std::string& ptx)>& before_ptxas = {},
                     std::string* ptxas_report = nullptr) {
  // Its own folder: another coopviz building the same program at once removes its folder when
  // it is done, under the feet of this one's nvcc.
  const fs::path tmp = dir / ("nvcc." + std::to_string(getpid()));
  std::error_code ec;
  fs::create_directories(tmp, ec);
  std::vector<std::string> dry = {"env", "TMPDIR=" + tmp.string()};
  dry.insert(dry.end(), cmd.begin(), cmd.end());
  dry.push_back("--dryrun");
  std::string listing;
  Result<int> listed = run_compiler(dry, listing, file);
  if (!listed) return listed.status();
  if (*listed != 0) {  // nvcc's own words about its options
    fs::remove_all(tmp, ec);
    return run_compiler(cmd, output, file);
  }
  static const std::regex simple_assignment(R"(^[A-Za-z_]\w*=("[^"]*"|[^ "]*)\s*$)");
  static const std::regex assignment(R"(^[A-Za-z_]\w*=)");
  std::string exports = "set -e\n";
  std::vector<std::string> steps;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("#$ ")) continue;
    line = line.substr(3);
    if (std::regex_search(line, assignment)) {
      // The commands use a few of nvcc's variables ($CICC_PATH); those of several words are
      // nvcc's own notation, already expanded into the commands.
      if (std::regex_search(line, simple_assignment)) exports += "export " + line + "\n";
    } else {
      if (line.starts_with("rm ")) line = "rm -f " + line.substr(3);
      steps.push_back(line);
    }
  }
  const auto program = [](const std::string& step) {
    std::string first = step.substr(0, step.find(' '));
    return first.substr(first.find_last_of('/') + 1);
  };
  // Expected: host preprocessing, cudafe++, then device preprocessing, cicc, ptxas, fatbinary
  // (and the removal of its unneeded file), then the rest.
  size_t device_end = 0, ptxas = 0;
  bool cicc = false;
  for (size_t i = 2; i < steps.size() && !device_end; ++i) {
    cicc |= program(steps[i]).find("cicc") != std::string::npos;
    if (program(steps[i]) == "ptxas" && !ptxas) ptxas = i;
    if (program(steps[i]) == "fatbinary") device_end = i + 1;
  }
  static const std::regex ptx_file(R"re("([^"]+\.ptx)")re");
  std::smatch ptx;
  if (before_ptxas && ptxas &&
      (!std::regex_search(steps[ptxas], ptx, ptx_file) || steps[ptxas].find(' ') == std::string::npos))
    ptxas = 0;
  if (device_end < steps.size() && program(steps[device_end]) == "rm") ++device_end;
  static const std::regex module_file(R"re(--module_id_file_name\s+"([^"]+)")re");
  std::smatch m;
  if (steps.size() < 4 || program(steps[1]) != "cudafe++" || !cicc || !ptxas || !device_end ||
      !std::regex_search(steps[1], m, module_file) ||
      steps[1].find(" --gen_module_id_file") == std::string::npos) {
    fs::remove_all(tmp, ec);
    return run_compiler(cmd, output, file);
  }
  const std::string module_id_file = m[1].str();
  steps[1].replace(steps[1].find(" --gen_module_id_file"), 21, "");
  // Any name unique to this translation unit will do; both sides read the same one.
  std::ofstream(module_id_file) << "_" + hash_name({dir.string(), listing}) + "_coopviz";
  auto script = [&](size_t from, size_t to, const char* name) {
    const fs::path path = tmp / name;
    std::ofstream out(path);
    out << exports;
    for (size_t i = from; i < to; ++i) out << steps[i] << "\n";
    return path.string();
  };
  // With an edit, the device side stops before ptxas, edits the PTX, and goes on with ptxas -v.
  const size_t assemble = before_ptxas ? ptxas : device_end;
  if (before_ptxas) steps[ptxas].insert(steps[ptxas].find(' '), " -v");
  const std::string host = script(0, 2, "host.sh"), device = script(2, assemble, "device.sh"),
                    assembly = script(assemble, device_end, "assemble.sh"),
                    rest = script(device_end, steps.size(), "rest.sh");
  std::string device_output;
  Result<int> device_rc = 0;
  std::thread device_side([&] {
    device_rc = run_compiler({"bash", device}, device_output, file);
    if (!before_ptxas || !device_rc || *device_rc != 0) return;
    if (Status edited = before_ptxas(ptx[1].str()); !edited) {
      device_rc = edited;
      return;
    }
    std::string said;
    device_rc = run_compiler({"bash", assembly}, said, file);
    (device_rc && *device_rc == 0 && ptxas_report ? *ptxas_report : device_output) += said;
  });
  Result<int> rc = run_compiler({"bash", host}, output, file);
  device_side.join();
  // Both sides parse the source, so a compile error is found by both: the host side's words
  // are those nvcc would show, and are shown alone.
  if (rc && *rc == 0 && device_rc && *device_rc != 0) output = device_output;
  if (rc && *rc == 0) rc = device_rc;
  if (rc && *rc == 0) rc = run_compiler({"bash", rest}, output, file);
  fs::remove_all(tmp, ec);
  return rc;
}

}  // namespace

int emulated_arch_number(const std::string& arch) {
  DeviceProps d = default_emulated_device();
  if (!arch.empty())
    if (Result<DeviceProps> p = find_preset(arch)) d = *p;
  return d.cc_major * 100 + d.cc_minor * 10;
}

std::vector<std::string> cmake_list(const char* list) {
  std::vector<std::string> out;
  std::istringstream in(list);
  for (std::string word; std::getline(in, word, ';');)
    if (!word.empty()) out.push_back(word);
  return out;
}

std::vector<std::string> cuda_include_dirs() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const std::string& dir : cmake_list(kProgramCudaIncludes)) {
    out.push_back(dir);
    if (fs::is_directory(dir + "/cccl", ec)) out.push_back(dir + "/cccl");
  }
  return out;
}

std::vector<std::string> link_libraries(bool gpu, const DataDirs& dirs) {
  std::vector<std::string> out;
  for (const std::string& lib :
       cmake_list(gpu ? kProgramGpuLinkLibraries : kProgramLinkLibraries)) {
    const bool own = lib.front() != '/' && lib.front() != '-';
    out.push_back(own ? (dirs.libraries / lib).string() : lib);
  }
  return out;
}

std::string nvcc_command() {
  std::error_code ec;
  return fs::exists(kProgramNvcc, ec) ? kProgramNvcc : "nvcc";
}

DeviceProps program_device(const ProgramOptions& o) {
  if (!o.gpu_arch.empty())
    if (Result<std::vector<DeviceProps>> gpus = query_gpus(); gpus && !gpus->empty())
      return gpus->front();
  if (!o.arch.empty())
    if (Result<DeviceProps> p = find_preset(o.arch)) return *p;
  return default_emulated_device();
}

Status check_launch_overrides(const ProgramOptions& o) {
  if (o.launch_overrides.empty()) return {};
  const DeviceProps device = program_device(o);
  for (const LaunchOverride& l : o.launch_overrides)
    if (Status s = check_launch_override(l, device); !s) return s;
  return {};
}

std::string local_gpu_arch() {
  Result<std::vector<DeviceProps>> gpus = query_gpus();
  if (!gpus || gpus->empty()) return "";
  return "sm_" + std::to_string(gpus->front().cc_major * 10 + gpus->front().cc_minor);
}

bool is_header_path(const std::string& name) {
  for (const char* ext : {".h", ".hpp", ".cuh", ".inl"})
    if (name.ends_with(ext)) return true;
  return false;
}

bool is_program_path(const std::string& name) {
  for (const char* ext : {".cu", ".cuh", ".cpp", ".cc", ".cxx"})
    if (name.size() > std::strlen(ext) && name.ends_with(ext)) return true;
  return false;
}

std::vector<std::string> compile_command(const ProgramOptions& o, const fs::path& source,
                                         const std::string& headers) {
  if (!o.gpu_arch.empty())
    // nvcc with the traced Cooperative Groups in place of CUDA's, and no fused multiply-add (as
    // lesson kernels: the host does not fuse either, so both backends round alike).
    return {nvcc_command(),
            "-std=c++20",
            "-O1",
            "-arch=" + o.gpu_arch,
            "--fmad=false",
            "-Xcompiler=-fdiagnostics-color=never,-fno-diagnostics-show-caret",
            "-I" + headers + "/device/byo/gpu_include",
            "-I" + headers,
            "-I" + source.parent_path().string()};
  std::vector<std::string> cmd = {kProgramCompiler,
                                  "-std=c++20",
                                  "-O1",
                                  "-pthread",
                                  "-fdiagnostics-color=never",
                                  "-fno-diagnostics-show-caret",
                                  // C++20 deprecates `v[i] += x` on a volatile v, which warp-
                                  // synchronous code writes and nvcc (C++17) takes without a word.
                                  "-Wno-volatile",
                                  "-D__CUDA_ARCH__=" + std::to_string(emulated_arch_number(o.arch)),
                                  "-I" + headers + "/device/byo/include",
                                  "-I" + headers,
                                  "-I" + source.parent_path().string()};
  // CUDA's own headers after everything else: the shims in byo/include read them (the types,
  // enums, macros and declarations are the toolkit's) and add the emulator's runtime. Thrust
  // and CUB come from there too (byo/include/thrust and cub say how they run).
  for (const std::string& dir : cuda_include_dirs()) cmd.insert(cmd.end(), {"-isystem", dir});
  // Every load and store calls the emulator's memory recorder (device/emu/memory_record.hpp).
  for (const std::string& flag : cmake_list(kProgramInstrumentationFlags)) cmd.push_back(flag);
  return cmd;
}

std::vector<std::string> emulator_link_command(const std::vector<std::string>& objects,
                                               const std::string& out,
                                               const std::vector<std::string>& libraries) {
  // -rdynamic: the unhooked copy finds the program's variables and the emulator by name.
  std::vector<std::string> cmd = {kProgramCompiler, "-pthread", "-rdynamic"};
  cmd.insert(cmd.end(), objects.begin(), objects.end());
  cmd.insert(cmd.end(), {"-o", out});
  cmd.insert(cmd.end(), libraries.begin(), libraries.end());
  return cmd;
}

void add_gpu_link(std::vector<std::string>& cmd, const std::vector<std::string>& libraries) {
  // Thrust's and CUB's own launches pass through the runtime on their way, to be counted
  // (byo/gpu_library_launches.cpp).
  for (const char* wrapped : {"--wrap=cudaLaunchKernel", "--wrap=cudaLaunchKernelExC",
                              "--wrap=__cudaLaunchKernel", "--wrap=__cudaLaunchKernel_ptsz"})
    cmd.insert(cmd.end(), {"-Xlinker", wrapped});
  for (const char* wrapped : kLastErrorWraps) cmd.insert(cmd.end(), {"-Xlinker", wrapped});
  for (const std::string& lib : libraries) {
    // nvcc takes .a, .so and .o files itself; a versioned shared library goes to the linker.
    const bool plain = lib.ends_with(".a") || lib.ends_with(".so") || lib.ends_with(".o");
    if (lib.front() == '/' && !plain) cmd.push_back("-Xlinker");
    cmd.push_back(lib);
  }
}

std::string first_error_line(const std::string& output) {
  std::istringstream said(output);
  for (std::string l; std::getline(said, l);)
    if (l.find("error") != std::string::npos) return l;
  return "";
}

std::string failed_compile_words(std::string output, int status) {
  if (!first_error_line(output).empty()) return output;
  if (!output.empty() && output.back() != '\n') output += "\n";
  return output + "the compiler ended with status " + std::to_string(status) +
         (status > 128 ? " (signal " + std::to_string(status - 128) + ")" : "") +
         " and named no error";
}

namespace {

// A file the program includes by a quoted name that is found from the program's folder, as
// spelled ("kernels.cu", "../common/book.h") and where it is.
struct QuotedInclude {
  std::string spelled;
  fs::path file;
};

std::vector<QuotedInclude> quoted_includes(const fs::path& source, const std::string& text) {
  static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<QuotedInclude> found;
  std::istringstream lines(text);
  std::error_code ec;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, include)) continue;
    const fs::path file = (source.parent_path() / m[1].str()).lexically_normal();
    if (file != source && fs::is_regular_file(file, ec)) found.push_back({m[1].str(), file});
  }
  return found;
}

// The .cu files of its own folder the program includes ("kernels.cu"), lowered beside it like
// its headers. Only those it names: a folder of programs holds many .cu files.
std::vector<fs::path> included_cu_files(const fs::path& source, const std::string& text) {
  std::vector<fs::path> files;
  for (const QuotedInclude& i : quoted_includes(source, text))
    if (i.spelled.find('/') == std::string::npos && i.spelled.ends_with(".cu"))
      files.push_back(i.file);
  return files;
}

// The headers and .cu files the program includes by a path into another folder
// ("../common/book.h", the layout of CUDA by Example's chapters): they hold kernels too.
std::vector<QuotedInclude> included_elsewhere(const fs::path& source, const std::string& text) {
  std::vector<QuotedInclude> files;
  for (const QuotedInclude& i : quoted_includes(source, text))
    if (i.spelled.find('/') != std::string::npos &&
        (is_header_path(i.spelled) || i.spelled.ends_with(".cu")))
      files.push_back(i);
  return files;
}

}  // namespace

// The program's own headers, lowered as `kind` like the program: those beside it into `to`
// (where the lowered program is, so `#include "x.cuh"` finds them first), those of each -I
// folder into to/include<k>, which the returned -I options search before the original folder.
// Those it includes by a path into another folder go to to/elsewhere<k>, and `program` (the
// lowered program) includes them there by their full path instead: `-I` folders are searched
// after the program's own, where the path would find the file not lowered.
Result<std::vector<std::string>> lower_headers(const fs::path& source, const std::string& text,
                                               const std::vector<std::string>& includes,
                                               SourceKind kind, const fs::path& to,
                                               ProgramLowering& lowering, std::string& program) {
  std::error_code ec;
  auto lower_file = [&](const fs::path& file, const fs::path& into) -> Status {
    Result<std::string> h = read_file(file.string());
    if (!h) return h.status();
    Result<std::string> l = lowering.lower(*h, file.string(), kind);
    if (!l) return l.status();
    // Another coopviz building the same program may be compiling against this header: it is
    // replaced whole, never seen half written.
    const fs::path path = into / file.filename();
    const fs::path partial = path.string() + ".partial." + std::to_string(getpid());
    {
      std::ofstream out(partial);
      out << "#pragma once\n" << *l;
      if (!out) return Status::error("cannot write " + partial.string());
    }
    fs::rename(partial, path, ec);
    if (ec) return Status::error("cannot write " + path.string() + ": " + ec.message());
    return {};
  };
  auto lower_folder = [&](const fs::path& from, const fs::path& into) -> Status {
    fs::create_directories(into, ec);
    for (const auto& entry : fs::directory_iterator(from, ec)) {
      if (entry.path() == source || !entry.is_regular_file() ||
          !is_header_path(entry.path().string()))
        continue;
      if (Status s = lower_file(entry.path(), into); !s) return s;
    }
    return {};
  };
  if (Status s = lower_folder(source.parent_path(), to); !s) return s;
  for (const fs::path& file : included_cu_files(source, text))
    if (Status s = lower_file(file, to); !s) return s;
  const std::vector<QuotedInclude> elsewhere = included_elsewhere(source, text);
  for (size_t k = 0; k < elsewhere.size(); ++k) {
    const fs::path into = to / ("elsewhere" + std::to_string(k));
    fs::create_directories(into, ec);
    if (Status s = lower_file(elsewhere[k].file, into); !s) return s;
    const std::regex line(R"re((^|\n)(\s*#\s*include\s*)")re" +
                          std::regex_replace(elsewhere[k].spelled,
                                             std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                          "\"");
    program = std::regex_replace(program, line,
                                 "$1$2\"" + (into / elsewhere[k].file.filename()).string() + "\"");
  }
  std::vector<std::string> options;
  for (size_t k = 0; k < includes.size(); ++k) {
    const fs::path lowered = to / ("include" + std::to_string(k));
    if (Status s = lower_folder(fs::absolute(includes[k], ec), lowered); !s) return s;
    options.push_back("-I" + lowered.string());
  }
  return options;
}

std::vector<fs::path> own_files(const fs::path& source, const std::string& text,
                                const std::vector<std::string>& includes) {
  std::vector<fs::path> files = {source};
  std::error_code ec;
  std::vector<fs::path> folders = {source.parent_path()};
  for (const std::string& i : includes) folders.push_back(fs::absolute(i, ec));
  for (const fs::path& folder : folders)
    for (const auto& entry : fs::directory_iterator(folder, ec))
      if (entry.is_regular_file() && is_header_path(entry.path().string()))
        files.push_back(entry.path());
  for (const fs::path& file : included_cu_files(source, text)) files.push_back(file);
  for (const QuotedInclude& i : included_elsewhere(source, text)) files.push_back(i.file);
  return files;
}

namespace {

// What keeps the program (or a header of its own) from a GPU build in two halves, or "".
std::string split_obstacle(const fs::path& source, const std::string& text,
                           const std::vector<std::string>& includes) {
  if (std::string why = host_half_obstacle(text); !why.empty()) return why;
  for (const fs::path& file : own_files(source, text, includes))
    if (file != source && is_header_path(file.string()))
      if (Result<std::string> h = read_file(file.string()))
        if (std::string why = host_half_obstacle(*h); !why.empty())
          return why + " in " + file.filename().string();
  return "";
}

}  // namespace

std::string as_the_user_wrote_it(const std::string& output, const fs::path& source,
                                 const fs::path& compiled) {
  const std::regex column(
      "(" + std::regex_replace(source.string(), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
      R"(:\d+):\d+:)");
  std::string said = std::regex_replace(output, column, "$1:");
  // Each mention replaced once, searched for past the last (the source's name may hold the
  // compiled one's; a file compiled as written has none).
  const std::string from = compiled.string(), to = source.string();
  if (from.empty() || from == to) return said;
  for (size_t at = 0; (at = said.find(from, at)) != std::string::npos; at += to.size())
    said.replace(at, from.size(), to);
  return said;
}

namespace {

// The build; `halves` false has nvcc build a GPU program whole, `front_end` false lowers it line
// by line alone.
Result<ProgramBuild> compile_program(const ProgramOptions& o, bool halves, bool front_end) {
  if (!o.other_files.empty()) return compile_program_files(o, front_end);
  const auto start = Clock::now();
  std::error_code ec;
  const fs::path source = fs::absolute(o.file, ec);
  if (!fs::is_regular_file(source, ec))
    return Status::error(o.file + ": no such file");
  Result<std::string> text = read_file(source.string());
  if (!text) return text.status();

  // The command, then everything it depends on, hashed into the build's folder name.
  const bool gpu = !o.gpu_arch.empty();
  const DataDirs dirs = data_dirs();
  const std::string headers = dirs.headers.string();
  // The GPU build compiles the device code and the host code apart, side by side, where nothing
  // in the program needs one compile to see both (gpu_host_runtime.hpp); else nvcc builds it whole.
  std::string obstacle;
  // Kernels that launch kernels: relocatable device code, built whole (device_launch_build.hpp).
  const std::string relocatable =
      gpu ? relocatable_device_code_reason(own_files(source, *text, o.includes),
                                           o.relocatable_device_code)
          : "";
  if (gpu) {
    obstacle = !relocatable.empty() ? relocatable
               : halves            ? split_obstacle(source, *text, o.includes)
                                   : "asked to build it whole";
  }
  const bool split = gpu && obstacle.empty();
  std::vector<std::string> cmd = compile_command(o, source, headers);
  if (split) cmd.insert(cmd.begin() + 1, {"-cubin", "-DCOOP_BYO_DEVICE_HALF"});
  if (gpu && !relocatable.empty()) add_relocatable_device_code(cmd);
  // The emulator's runtime header's flags (program_pch.hpp): the command without the program's
  // own folder.
  std::vector<std::string> runtime_flags;
  if (!gpu) {
    runtime_flags = cmd;
    std::erase(runtime_flags, "-I" + source.parent_path().string());
  }
  // The host half: the host compiler alone, with CUDA's runtime headers and library.
  std::vector<std::string> host_cmd;
  if (split) {
    host_cmd = {kProgramCompiler, "-std=c++20", "-O1", "-pthread", "-fdiagnostics-color=never",
                "-fno-diagnostics-show-caret", "-I" + headers + "/device/byo/host_include"};
    for (const std::string& dir : cuda_include_dirs()) host_cmd.push_back("-I" + dir);
    host_cmd.insert(host_cmd.end(), {"-I" + headers, "-I" + source.parent_path().string()});
  }
  const std::vector<std::string> libraries = link_libraries(gpu, dirs);
  for (const std::string& d : o.defines) {
    cmd.push_back("-D" + d);
    if (split) host_cmd.push_back("-D" + d);
  }
  std::vector<std::string> key = cmd;
  key.insert(key.end(), host_cmd.begin(), host_cmd.end());
  for (const std::string& i : o.includes) key.push_back("-I" + fs::absolute(i, ec).string());
  key.push_back(*text);
  // What the program's Thrust and CUB includes add ahead of it (host_libraries.hpp).
  const std::vector<fs::path> files = own_files(source, *text, o.includes);
  const std::string library_prelude =
      gpu ? gpu_library_prelude(files) : host_library_prelude(files);
  key.push_back(library_prelude);
  // This coopviz's runtime and the headers a program is compiled with (the traced Cooperative
  // Groups, the runtime shims): a changed one makes earlier builds stale.
  auto stamp = [&](const std::string& file) { stamp_file(key, file); };
  for (const std::string& lib : libraries) stamp(lib);
  // The emulator's build keeps the recipe of its unhooked copy (unhooked_recipe.hpp).
  if (!gpu) key.push_back("unhooked copy recipe 2");
  // A program that asks for its kernels' resources gets the compiler's report beside its build
  // (kernel_resource_table.hpp), made by this toolkit's nvcc and ptxas. Its GPU build is held to
  // the report's registers, so that the queries answer there as on the emulator and as for plain
  // nvcc's build; its device half is then compiled to PTX, capped, and assembled apart.
  std::vector<std::string> texts = {*text};
  for (const fs::path& f : files)
    if (f != source)
      if (Result<std::string> t = read_file(f.string())) texts.push_back(*t);
  const bool resources = needs_kernel_resources(texts);
  int resource_arch = emulated_arch_number(o.arch) / 10;
  if (gpu && std::sscanf(o.gpu_arch.c_str(), "sm_%d", &resource_arch) != 1) resource_arch = 0;
  if (resources) {
    key.push_back(gpu ? "kernel resource table 1, registers capped 1" : "kernel resource table 1");
    for (const std::string& tool : kernel_resource_tools()) stamp(tool);
    if (split) *std::find(cmd.begin(), cmd.end(), "-cubin") = "-ptx";
  }
  // What lowers the program is part of the build, and so are the buffers whose accesses it shows.
  if (front_end) stamp(dirs.front_end.string());
  else key.push_back("lowered line by line");
  key.push_back("shown stores " + join_shown_buffers(o.shown.stores) + "; shown loads " +
                join_shown_buffers(o.shown.loads) + (o.shown.blocks ? "; block records" : ""));
  // The headers are walked once, for the build's key and the precompiled header's.
  std::vector<std::string> header_stamps;
  stamp_program_headers(header_stamps, dirs);
  key.insert(key.end(), header_stamps.begin(), header_stamps.end());
  // Headers next to the program (its own helpers) and .cu files it includes are part of it.
  for (const auto& entry : fs::directory_iterator(source.parent_path(), ec)) {
    if (entry.path() != source && is_header_path(entry.path().string()))
      if (Result<std::string> h = read_file(entry.path().string())) key.push_back(*h);
  }
  for (const fs::path& file : included_cu_files(source, *text))
    if (Result<std::string> cu = read_file(file.string())) key.push_back(*cu);
  for (const QuotedInclude& i : included_elsewhere(source, *text))
    if (Result<std::string> h = read_file(i.file.string())) key.push_back(*h);
  const fs::path dir = fs::path(program_cache_root()) / "programs" / hash_name(key);
  // The emulator's runtime header, precompiled once per flags and headers (program_pch.hpp).
  std::vector<std::string> header_key = runtime_flags;
  if (!gpu) {
    header_key.insert(header_key.end(), header_stamps.begin(), header_stamps.end());
    stamp_file(header_key, fs::canonical(runtime_flags.front(), ec).string());
  }
  RuntimeHeader runtime_header(runtime_flags,
                               fs::path(program_cache_root()) / "pch" / hash_name(header_key));
  ProgramBuild build;
  build.executable = (dir / "program").string();
  build.halves = split;
  if (!split) build.whole_because = obstacle;
  const BuildFolderLock building(dir);
  // Halves tried before, whose host half did not compile apart: nvcc's whole build of it.
  if (std::string why; split && fs::exists(dir / "whole_because", ec) &&
                       std::getline(std::ifstream(dir / "whole_because"), why)) {
    Result<ProgramBuild> whole = compile_program(o, false, front_end);
    if (whole) {
      whole->whole_because = why;
      whole->seconds = seconds_since(start);
    }
    return whole;
  }
  if (fs::exists(build.executable, ec)) {
    build.cached = true;
    std::ifstream kept(dir / "not_shown");
    for (std::string line; std::getline(kept, line);) build.not_shown.push_back(line);
    std::ifstream notes(dir / "register_notes");
    for (std::string line; std::getline(notes, line);) build.register_notes.push_back(line);
    build.seconds = seconds_since(start);
    return build;
  }
  fs::create_directories(dir, ec);
  if (ec) return Status::error("cannot create " + dir.string() + ": " + ec.message());

  // Names of this process's own: two coopviz may build the same program at once; the last
  // rename wins, with the same result.
  const std::string mine = std::to_string(getpid());
  const std::string partial = build.executable + ".partial." + mine;
  const std::string partial_cubin = build.executable + ".cubin.partial." + mine;

  // The program's files read by Clang's front end once for both of a GPU build's halves.
  std::vector<std::string> clang_options;
  for (const std::string& i : o.includes)
    clang_options.push_back("-I" + fs::absolute(i, ec).string());
  for (const std::string& d : o.defines) clang_options.push_back("-D" + d);
  ProgramLowering lowering(clang_options, o.shown, front_end);
  // Writes the program lowered as `kind` (with its headers) into `folder`; returns its path.
  auto write_lowered = [&](SourceKind kind, const fs::path& folder, const char* extension,
                           std::vector<std::string>& into) -> Result<fs::path> {
    Result<std::string> lowered = lowering.lower(*text, source.string(), kind);
    if (!lowered) return lowered.status();
    Result<std::vector<std::string>> include_options =
        lower_headers(source, *text, o.includes, kind, folder, lowering, *lowered);
    if (!include_options) return include_options.status();
    into.insert(into.end(), include_options->begin(), include_options->end());
    const fs::path path = folder / ("program." + mine + extension);
    std::ofstream out(path);
    out << program_prelude(kind);
    if (kind != SourceKind::GpuHost) out << library_prelude;
    out << *lowered;
    if (!out) return Status::error("cannot write " + path.string());
    // The original folders after the lowered ones, for their subfolders.
    for (const std::string& i : o.includes) into.push_back("-I" + fs::absolute(i, ec).string());
    return path;
  };
  const SourceKind kind = gpu ? SourceKind::GpuProgram : SourceKind::Program;
  const fs::path device_folder = split ? dir / "device" : dir;
  Result<fs::path> cpp = write_lowered(kind, device_folder, gpu ? ".cu" : ".cpp", cmd);
  if (!cpp) return cpp.status();
  // The emulator's build is compiled, then linked in a second command: a link that sees the
  // memory instrumentation's -fsanitize=thread adds ThreadSanitizer's runtime, whose entry points
  // coopviz defines itself.
  const std::string object = partial + ".o";
  const std::vector<std::string> compile = cmd;  // up to its input and output
  if (!gpu) {
    const std::vector<std::string> header = runtime_header.options();
    build.precompiled_runtime = !header.empty();
    cmd.insert(cmd.end(), header.begin(), header.end());
    cmd.insert(cmd.end(), {"-c", "-x", "c++"});
  }
  cmd.push_back(cpp->string());
  cmd.push_back("-o");
  // A GPU build held to plain nvcc's registers: its device half's PTX, capped and assembled next.
  const std::string partial_ptx = partial + ".ptx";
  cmd.push_back(split ? (resources ? partial_ptx : partial_cubin) : gpu ? partial : object);
  if (gpu && !split) {
    add_gpu_link(cmd, libraries);
  }
  Result<fs::path> host_cpp = fs::path();
  if (split) {
    host_cpp = write_lowered(SourceKind::GpuHost, dir / "host", ".cpp", host_cmd);
    if (!host_cpp) return host_cpp.status();
    host_cmd.insert(host_cmd.end(), {"-x", "c++", host_cpp->string(), "-x", "none", "-o", partial});
    host_cmd.insert(host_cmd.end(), libraries.begin(), libraries.end());
    host_cmd.insert(host_cmd.end(), {kProgramCudaRuntime, "-ldl", "-lrt", "-lpthread"});
    for (const char* wrapped : kLastErrorWraps) host_cmd.push_back(std::string("-Wl,") + wrapped);
  }
  // The compiler's report is made beside the compile, on another core (joined on every return).
  std::string table;
  std::jthread report;
  if (resources) {
    KernelResourceRequest request{source.string(), {}, resource_arch, !gpu};
    for (const std::string& i : o.includes)
      request.options.push_back("-I" + fs::absolute(i, ec).string());
    for (const std::string& d : o.defines) request.options.push_back("-D" + d);
    // Its own files: the device half's PTX is partial_ptx, which the report would remove.
    report = std::jthread([&table, request, tmp = partial + ".report"] {
      table = make_kernel_resource_table(request, tmp);
    });
  }
  // The GPU build's PTX held to the report's registers, and what ptxas -v said of it after.
  bool capped = false;
  std::string capped_report;
  auto cap = [&](const std::string& ptx) {
    if (report.joinable()) report.join();
    capped = true;
    return cap_ptx_registers(ptx, table, resource_arch);
  };
  Result<int> rc = 0;
  if (split) {
    // Both halves at once; the device half's words are nvcc's, about the user's lines.
    std::string host_output;
    Result<int> host_rc = 0;
    std::thread host_half([&] { host_rc = run_compiler(host_cmd, host_output, o.file); });
    rc = run_compiler(cmd, build.compiler_output, o.file);
    host_half.join();
    if (rc && *rc == 0 && (!host_rc || *host_rc != 0)) {
      // Something of the host half the lowering did not foresee: nvcc builds the program whole
      // and has the last word.
      const std::string first_line =
          host_rc ? first_error_line(host_output) : host_rc.status().message();
      fs::remove_all(dir, ec);
      fs::create_directories(dir, ec);
      const std::string why = "the host half did not compile apart: " + first_line;
      Result<ProgramBuild> again = compile_program(o, false, front_end);
      if (again) {
        again->whole_because = why;
        again->seconds = seconds_since(start);
        std::ofstream(dir / "whole_because") << why << "\n";  // so the next build goes there first
      }
      return again;
    }
    if (resources && rc && *rc == 0) {
      if (Status held = cap(partial_ptx); !held) rc = held;
      if (rc)
        rc = run_compiler({ptxas_command(), "-v", "-arch=" + o.gpu_arch, partial_ptx, "-o",
                           partial_cubin},
                          capped_report, o.file);
      if (rc && *rc != 0) build.compiler_output += capped_report;
      fs::remove(partial_ptx, ec);
    }
  } else if (gpu) {
    rc = resources ? run_nvcc(cmd, dir, build.compiler_output, o.file, cap, &capped_report)
                   : run_nvcc(cmd, dir, build.compiler_output, o.file);
  } else {
    rc = run_compiler(cmd, build.compiler_output, o.file);
  }
  if (report.joinable()) report.join();
  if (resources && !(std::ofstream(partial + ".resources") << table))
    return Status::error("cannot write " + partial + ".resources");
  if (resources && gpu) {
    build.register_notes =
        capped ? gpu_register_notes(table, capped_report, resource_arch)
               : std::vector<std::string>{
                     "the GPU build's kernels keep the instrumented build's registers: nvcc's "
                     "steps were not of the shape coopviz caps them in"};
  }
  if (!gpu) {
    if (rc && *rc == 0) {
      rc = run_compiler(emulator_link_command({object}, partial, libraries),
                        build.compiler_output, o.file);
    }
    fs::remove(object, ec);
  }
  const bool built = rc && *rc == 0;
  if (built && !gpu) {
    if (Status kept = keep_unhooked_recipe(build.executable, {{*cpp, compile}},
                                           cmake_list(kProgramInstrumentationFlags));
        !kept)
      return kept;
  }
  fs::remove(*cpp, ec);
  if (split) fs::remove(*host_cpp, ec);
  if (!built) fs::remove(partial + ".resources", ec);
  if (!rc) return rc.status();
  if (*rc != 0)
    return Status::error(
        failed_compile_words(as_the_user_wrote_it(build.compiler_output, source, *cpp), *rc));
  if (split) fs::rename(partial_cubin, build.executable + ".cubin", ec);
  if (resources && !ec) fs::rename(partial + ".resources", build.executable + ".resources", ec);
  if (!ec) fs::rename(partial, build.executable, ec);
  if (ec) return Status::error("cannot keep the build: " + ec.message());
  build.front_end_note = lowering.note();
  // Said again by each build this one's cache serves.
  build.not_shown = lowering.not_shown();
  std::ofstream not_shown(dir / "not_shown");
  for (const std::string& line : build.not_shown) not_shown << line << "\n";
  std::ofstream register_notes(dir / "register_notes");
  for (const std::string& line : build.register_notes) register_notes << line << "\n";
  build.seconds = seconds_since(start);
  return build;
}

// Where an emulated program faulted, from the line its fault handler wrote
// (device/emu/fault_report.hpp): " in a kernel at FILE:LINE (thread T)" or " on the host at
// FILE:LINE", the user's innermost line that addr2line finds for the address; "" when nothing was
// written or nothing is known. A program of several files: the innermost line in any of them.
std::string fault_place(const std::string& fault_file, const std::string& executable,
                        const std::vector<std::string>& user_files) {
  std::ifstream in(fault_file);
  std::string address;
  long thread = -1;
  if (!(in >> address >> thread) || !address.starts_with("0x")) return "";
  std::string frames;
  Result<int> rc =
      run_compiler({"addr2line", "-i", "-e", executable, address}, frames, user_files.front());
  if (!rc || *rc != 0) return "";
  // Inlined frames come innermost first: the first in the user's own file is the line to name.
  std::error_code ec;
  std::vector<std::string> users;
  for (const std::string& file : user_files)
    users.push_back(fs::weakly_canonical(file, ec).string());
  std::istringstream lines(frames);
  std::string place;
  for (std::string line; std::getline(lines, line);) {
    line = line.substr(0, line.find(" (discriminator"));
    const size_t colon = line.rfind(':');
    if (colon == std::string::npos || line.compare(0, 2, "??") == 0 ||
        line.compare(colon + 1, std::string::npos, "?") == 0 ||
        line.compare(colon + 1, std::string::npos, "0") == 0)
      continue;
    const std::string file = fs::weakly_canonical(line.substr(0, colon), ec).string();
    if (std::find(users.begin(), users.end(), file) != users.end()) {
      place = fs::path(file).filename().string() + line.substr(colon);
      break;
    }
  }
  if (place.empty()) return "";
  if (thread < 0) return " on the host at " + place;
  return " in a kernel at " + place + " (thread " + std::to_string(thread) + ")";
}

// Why the emulator stopped the program itself, if it did: its runtime wrote "stopped: " and the
// words to the fault file (device/emu/fault_report.hpp); "" otherwise.
std::string emulator_stop(const std::string& fault_file) {
  std::ifstream in(fault_file);
  std::string line;
  if (!std::getline(in, line) || !line.starts_with("stopped: ")) return "";
  return line.substr(9);
}

// Why a program that ran past its time limit was stopped, from what the emulator's launch
// monitor last said of the launch in flight (device/byo/launch_progress.hpp): threads still
// making progress (how far they got: maybe it only needs longer), or none moving (which thread,
// at which line). No launch in flight: the program's own host code was running.
std::string timeout_words(double timeout_seconds, const std::string& progress_file) {
  const std::string limit = std::to_string(int(timeout_seconds));
  std::string said;
  std::ifstream in(progress_file);
  std::getline(in, said);
  const std::string stopped = "the program ran longer than " + limit + " s and was stopped";
  if (said.empty())
    return stopped + " (an endless loop, or a kernel waiting for ever?)";
  const size_t colon = said.find(": ");
  const std::string kernel = said.substr(0, colon);
  const std::string words = colon == std::string::npos ? "" : said.substr(colon + 2);
  if (words.starts_with("no thread moved"))
    return stopped + " in kernel " + kernel + ": " + words;
  return stopped + " in kernel " + kernel + ", " + words +
         " (if it only needs longer, --timeout " + limit + " can be raised)";
}

}  // namespace

Result<ProgramBuild> build_program(const ProgramOptions& o) {
  // COOPVIZ_GPU_BUILD=whole: nvcc builds GPU programs whole (to compare the two ways).
  const char* way = std::getenv("COOPVIZ_GPU_BUILD");
  const bool halves = !(way && std::string(way) == "whole");
  Result<ProgramBuild> build = compile_program(o, halves, true);
  std::error_code ec;
  if (build || !fs::exists(data_dirs().front_end, ec)) return build;
  // A program that compiles lowered line by line is never refused for what the front end made
  // of it (a construct it rewrote in a way the compiler did not take): that build, with a note.
  // A program that fails both ways gets the front end's words, about the user's lines alike.
  Result<ProgramBuild> lined = compile_program(o, halves, false);
  if (!lined) return build;
  // The compiler's first error; else (a compile killed, a build not kept) the last thing said.
  std::string why = first_error_line(build.status().message()), last;
  std::istringstream said(build.status().message());
  for (std::string line; std::getline(said, line);)
    if (!line.empty()) last = line;
  if (why.empty()) why = last;
  lined->front_end_note = "the front end's lowering did not compile, so it was lowered line by "
                          "line" + std::string(o.shown.empty() ? "" : ", its accesses not shown") +
                          ": " + why;
  return lined;
}

uint64_t program_memory_limit(const ProgramOptions& o) {
  if (o.memory_limit > 0) return o.memory_limit;
  const uint64_t free_now = available_memory();
  if (free_now > 0) return free_now / 4 * 3;
  return uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) / 2;
}

uint64_t trace_memory_limit(const ProgramOptions& o) {
  if (o.trace_memory > 0) return o.trace_memory;
  const uint64_t free_now = available_memory();
  if (free_now > 0) return free_now / 4;
  return uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) / 8;
}

Status check_trace_launches(const std::string& which) {
  if (which == "all" || which == "first") return {};
  const bool digits = !which.empty() && which.size() <= 9 &&
                      which.find_first_not_of("0123456789") == std::string::npos;
  if (digits && std::stoul(which) >= 1) return {};
  return Status::error("--trace-launches must be all, first or a count from 1 to 999999999 (the "
                       "first N launches of each kernel and shape): not '" + which + "'");
}

Result<ProgramRun> run_program(const ProgramOptions& o, const ProgramBuild& build) {
  const auto start = Clock::now();
  std::error_code ec;
  // An emulated kernel that faults says where in this file (device/emu/fault_report.hpp).
  static std::atomic<int> runs{0};
  const std::string fault_file =
      (fs::temp_directory_path() /
       ("coopviz-fault-" + std::to_string(getpid()) + "-" + std::to_string(runs++)))
          .string();
  fs::remove(fault_file, ec);
  const std::string progress_file = fault_file + "-progress";
  fs::remove(progress_file, ec);
  const uint64_t memory_limit = program_memory_limit(o);
  const uint64_t trace_memory = trace_memory_limit(o);
  const ChildLimits limits{o.timeout_seconds, 0, 0, memory_limit, kProgramOutputKeep, true};
  const std::string kernel_sources = program_kernel_sources(o);
  Result<ChildEnd> end = run_supervised(
      [&] {
        if (!o.stdout_path.empty()) {
          const int fd = open(o.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
          if (fd >= 0) dup2(fd, 1), close(fd);
        }
        if (!o.stderr_path.empty()) {
          const int fd = open(o.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
          if (fd >= 0) dup2(fd, 2), close(fd);
        }
        if (o.inherit_fd >= 0) fcntl(o.inherit_fd, F_SETFD, 0);
        for (const auto& [name, value] : o.environment) setenv(name.c_str(), value.c_str(), 1);
        setenv("COOPVIZ_SOURCE", fs::absolute(o.file, ec).c_str(), 1);
        if (!kernel_sources.empty()) setenv("COOPVIZ_KERNEL_SOURCES", kernel_sources.c_str(), 1);
        setenv("COOPVIZ_FAULT_OUT", fault_file.c_str(), 1);
        setenv("COOPVIZ_PROGRESS_OUT", progress_file.c_str(), 1);
        if (!o.trace_out.empty()) setenv("COOPVIZ_TRACE_OUT", o.trace_out.c_str(), 1);
        if (!o.arch.empty()) setenv("COOPVIZ_ARCH", o.arch.c_str(), 1);
        setenv("COOPVIZ_SCHEDULE", to_string(o.schedule), 1);
        setenv("COOPVIZ_SEED", std::to_string(o.seed).c_str(), 1);
        setenv("COOPVIZ_TRACE_CAPACITY", std::to_string(o.trace_capacity).c_str(), 1);
        setenv("COOPVIZ_TRACE_LAUNCHES", o.trace_launches.c_str(), 1);
        setenv("COOPVIZ_VARY_REPEATS", o.vary_repeats ? "1" : "0", 1);
        setenv("COOPVIZ_TRACED", o.traced ? "1" : "0", 1);
        setenv("COOPVIZ_TRACE_MEMORY", std::to_string(trace_memory).c_str(), 1);
        if (o.trace_threads_max > 0)
          setenv("COOPVIZ_TRACE_THREADS", std::to_string(o.trace_threads_max).c_str(), 1);
        setenv("COOPVIZ_RECORD_MEMORY", o.record_memory ? "1" : "0", 1);
        setenv("COOPVIZ_CHECK_MEMORY", o.check_memory ? "1" : "0", 1);
        // One launch may run as long as --timeout gives the program: the executor's own bound on
        // a launch would otherwise stop a longer kernel first, saying --timeout gives it more.
        // A bound the caller set (an exercise check's) stays.
        if (o.timeout_seconds > coop::ExecOptions{}.timeout_seconds)
          setenv("COOPVIZ_LAUNCH_TIMEOUT", std::to_string(o.timeout_seconds).c_str(), 0);
        if (!o.launch_overrides.empty())
          setenv("COOPVIZ_LAUNCH_OVERRIDES", join_launch_overrides(o.launch_overrides).c_str(), 1);
        else
          unsetenv("COOPVIZ_LAUNCH_OVERRIDES");
        std::vector<std::string> argv = {o.file};
        argv.insert(argv.end(), o.args.begin(), o.args.end());
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(build.executable.c_str(), args.data());
        std::fprintf(stderr, "coopviz: cannot run the program: %s\n", std::strerror(errno));
        _exit(127);
      },
      limits, o.output, {o.inherit_fd, o.watch});
  if (!end) return end.status();
  ProgramRun run;
  const std::string& stopped = end->stopped;  // the watcher's words, when it ended the program
  run.seconds = seconds_since(start);
  run.timed_out = end->timed_out;
  run.out_of_memory = end->out_of_memory;
  run.exit_code = exit_code_of(end->wait_status);
  run.left_running = end->left_running;
  if (WIFSIGNALED(end->wait_status)) run.signal = WTERMSIG(end->wait_status);
  if (run.out_of_memory) {
    run.what = "the program (with the processes it started) used more than " +
               size_words(memory_limit) +
               " of memory and was stopped (a leak, or an allocation sized by mistake? "
               "--memory-limit sets the limit)";
  } else if (const std::string stop = emulator_stop(fault_file); !stop.empty()) {
    run.what = "the program was stopped: " + stop;
  } else if (run.timed_out) {
    run.what = timeout_words(o.timeout_seconds, progress_file);
  } else if (run.signal == SIGABRT) {
    // The C library aborts too when it finds its heap damaged ("munmap_chunk(): invalid
    // pointer"). Device memory lies apart from the heap (device/emu/device_arena.hpp), but a
    // kernel may write host memory on the emulator (cudaMallocHost, a plain host pointer), and
    // a write past its end lands in the heap.
    run.what = o.check_memory
                   ? "the program aborted (a failed assert, or an uncaught exception)"
                   : "the program aborted (a failed assert, an uncaught exception, or the C "
                     "library finding its heap damaged, as a kernel's write past the end of host "
                     "memory does on the emulator: --check-memory names the first access "
                     "outside an allocation)";
  } else if (run.signal == SIGSEGV || run.signal == SIGBUS) {
    const std::string place = fault_place(fault_file, build.executable, program_files(o));
    run.what =
        std::string("the program crashed: ") + strsignal(run.signal) +
        (place.empty() ? " (an out-of-bounds or invalid memory access, in a kernel or on the host)"
                       : " (an out-of-bounds or invalid memory access)" + place);
  } else if (run.signal != 0) {
    run.what = std::string("the program was ended by a signal: ") + strsignal(run.signal);
  }
  if (!stopped.empty()) run.what = stopped;
  fs::remove(fault_file, ec);
  fs::remove(progress_file, ec);
  return run;
}

}  // namespace coop::app
