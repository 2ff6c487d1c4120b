#include "app/program/program_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "app/program/child_process.hpp"
#include "app/program/host_libraries.hpp"
#include "app/program/kernel_resource_table.hpp"
#include "app/program/program_build.hpp"
#include "app/program/program_lowering.hpp"
#include "app/program/program_paths.hpp"
#include "app/program/unhooked_recipe.hpp"
#include "device/lowering/lowering.hpp"
#include "device/occupancy/resource_report.hpp"
#include "device/paths/data_dirs.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// A GPU build's files share one trace sink (device/gpu/recorder.cuh).
constexpr const char* kLinkedDeviceCode = "-DCOOP_BYO_LINKED_DEVICE_CODE";

// One source file of the program, and its compile.
struct Unit {
  fs::path source;  // absolute
  std::string text;
  bool cuda = false;                 // a .cu file (else host C++: .cpp, .cc, .cxx)
  std::vector<std::string> cmd;      // the compile, with its input and output
  std::vector<std::string> compile;  // the compile up to them (the unhooked copy's recipe)
  fs::path compiled;                 // what the compiler reads: the lowered copy, or the source
  fs::path object;
  std::string output;
  Result<int> rc = 0;
};

// Runs every unit's compile, as many at once as there are cores.
void compile_all(std::vector<Unit>& units) {
  std::atomic<size_t> next{0};
  const size_t workers =
      std::min<size_t>(units.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t w = 0; w < workers; ++w)
    threads.emplace_back([&] {
      for (size_t k; (k = next++) < units.size();)
        units[k].rc = run_compiler(units[k].cmd, units[k].output, units[k].source.string());
    });
  for (std::thread& t : threads) t.join();
}

// The compiler's words about the program's copies (lowered files, objects), told of its files.
std::string as_the_user_wrote_them(std::string output, const std::vector<Unit>& units) {
  for (const Unit& u : units) {
    output = as_the_user_wrote_it(output, u.source, u.compiled);
    output = as_the_user_wrote_it(output, u.source, u.object);
  }
  return output;
}

// The compiler's report of each .cu file among `sources` (kernel_resource_table.hpp), one
// table: a file's PTX alone, as nvcc -rdc=true compiles it. A file it cannot be made for makes
// the whole table say why, naming the file.
std::string files_resource_table(const std::vector<fs::path>& sources, KernelResourceRequest r,
                                 const std::string& tmp) {
  std::vector<ProgramKernelResources> rows;
  for (const fs::path& source : sources) {
    r.source = source.string();
    Result<ProgramResourceTable> table = parse_program_resources(make_kernel_resource_table(r, tmp));
    const std::string why = table ? table->why_not : table.message();
    if (!why.empty()) return format_program_resources({}, source.filename().string() + ": " + why);
    rows.insert(rows.end(), table->rows.begin(), table->rows.end());
  }
  return format_program_resources(rows);
}

// "void ns::reduce<float, 512u>" -> "reduce".
std::string unqualified_kernel(std::string name) {
  name = name.substr(0, name.find('<'));
  name = name.substr(name.rfind(' ') == std::string::npos ? 0 : name.rfind(' ') + 1);
  return name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
}

}  // namespace

std::vector<ProgramKernelResourceRow> program_kernel_resources(const ProgramOptions& o,
                                                               const std::string& executable) {
  Result<std::string> text = read_user_file(executable + ".resources", kSourceFileLimit);
  if (!text) return {};
  Result<ProgramResourceTable> table = parse_program_resources(*text);
  if (!table) return {};
  std::map<std::string, std::string> files;  // kernel -> its file
  std::istringstream lines(program_kernel_sources(o));
  for (std::string line; std::getline(lines, line);)
    if (const size_t tab = line.find('\t'); tab != std::string::npos)
      files[line.substr(0, tab)] = line.substr(tab + 1);
  std::error_code ec;
  std::vector<ProgramKernelResourceRow> rows;
  for (const ProgramKernelResources& k : table->rows) {
    ProgramKernelResourceRow row{unqualified_kernel(demangled_name(k.mangled)), "", k};
    const auto own = files.find(row.kernel);
    row.file = own != files.end() ? own->second : fs::absolute(o.file, ec).string();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> program_files(const ProgramOptions& o) {
  std::vector<std::string> files = {o.file};
  files.insert(files.end(), o.other_files.begin(), o.other_files.end());
  return files;
}

Status check_program_files(const std::vector<std::string>& files) {
  std::set<fs::path> seen;
  for (const std::string& file : files) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
      return Status::error(fs::exists(file, ec) ? read_user_file(file, kSourceFileLimit).message()
                                                : "no program file '" + file + "'");
    if (is_header_path(file))
      return Status::error(file +
                           " is a header: a program's headers are included by its source "
                           "files, not compiled on their own (name the .cu and .cpp files)");
    if (!seen.insert(fs::weakly_canonical(file, ec)).second)
      return Status::error(file + " is named twice: each file is compiled once");
  }
  return {};
}

std::string program_kernel_sources(const ProgramOptions& o) {
  if (o.other_files.empty()) return "";
  std::string lines;
  std::error_code ec;
  for (const std::string& file : program_files(o)) {
    if (!file.ends_with(".cu")) continue;
    Result<std::string> text = read_user_file(file, kSourceFileLimit);
    if (!text) continue;
    const std::string path = fs::absolute(file, ec).string();
    for (const std::string& kernel : defined_kernels(*text)) lines += kernel + "\t" + path + "\n";
  }
  return lines;
}

Result<ProgramBuild> compile_program_files(const ProgramOptions& o, bool front_end) {
  const auto start = Clock::now();
  std::error_code ec;
  if (Status s = check_program_files(program_files(o)); !s) return s;
  const bool gpu = !o.gpu_arch.empty();
  const DataDirs dirs = data_dirs();
  const std::string headers = dirs.headers.string();
  std::vector<Unit> units;
  for (const std::string& file : program_files(o)) {
    Unit u;
    u.source = fs::absolute(file, ec);
    Result<std::string> text = read_user_file(u.source.string(), kSourceFileLimit);
    if (!text) return text.status();
    u.text = *text;
    u.cuda = file.ends_with(".cu");
    units.push_back(std::move(u));
  }

  // Each file's compile up to its input: as the program of one file is compiled (program.cpp),
  // and on the GPU with relocatable device code.
  const std::vector<std::string> libraries = link_libraries(gpu, dirs);
  std::vector<std::string> key = {gpu ? "several files, relocatable device code 1"
                                      : "several files 1"};
  for (Unit& u : units) {
    u.cmd = compile_command(o, u.source, headers);
    for (const std::string& d : o.defines) u.cmd.push_back("-D" + d);
    if (gpu) u.cmd.push_back(kLinkedDeviceCode);
    key.insert(key.end(), u.cmd.begin(), u.cmd.end());
    key.push_back(u.source.string());
    // The file, its headers and the .cu files it includes are part of the build.
    key.push_back(u.text);
    for (const fs::path& f : own_files(u.source, u.text, o.includes))
      if (f != u.source)
        if (Result<std::string> t = read_user_file(f.string(), kSourceFileLimit)) key.push_back(*t);
  }
  for (const std::string& i : o.includes) key.push_back("-I" + fs::absolute(i, ec).string());
  // A program that asks for its kernels' resources gets the compiler's report beside its build,
  // as a program of one file does (program.cpp): on the emulator, whose runtime answers from it,
  // made a .cu file at a time.
  std::vector<std::string> texts;
  std::vector<fs::path> kernel_files;
  for (const Unit& u : units) {
    texts.push_back(u.text);
    if (u.cuda) kernel_files.push_back(u.source);
  }
  const bool resources = !gpu && needs_kernel_resources(texts);
  if (resources) {
    key.push_back("kernel resource table 1, a file at a time");
    for (const std::string& tool : kernel_resource_tools()) stamp_file(key, tool);
  }
  for (const std::string& lib : libraries) stamp_file(key, lib);
  if (front_end)
    stamp_file(key, dirs.front_end.string());
  else
    key.push_back("lowered line by line");
  key.push_back("shown stores " + join_shown_buffers(o.shown.stores) + "; shown loads " +
                join_shown_buffers(o.shown.loads) + (o.shown.blocks ? "; block records" : ""));
  // The headers are walked once, for the build's key and the trace sink's.
  std::vector<std::string> header_stamps;
  stamp_program_headers(header_stamps, dirs);
  key.insert(key.end(), header_stamps.begin(), header_stamps.end());
  const fs::path dir = fs::path(program_cache_root()) / "programs" / hash_name(key);
  ProgramBuild build;
  build.executable = (dir / "program").string();
  if (gpu) build.whole_because = "a program of several files: relocatable device code, linked";
  const BuildFolderLock building(dir);
  if (fs::exists(build.executable, ec)) {
    build.cached = true;
    std::ifstream kept(dir / "not_shown");
    for (std::string line; std::getline(kept, line);) build.not_shown.push_back(line);
    build.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return build;
  }
  fs::create_directories(dir, ec);
  if (ec) return Status::error("cannot create " + dir.string() + ": " + ec.message());

  // Each file lowered into a folder of its own, with its headers (two files of the program may
  // have headers of one name in their folders); names of this process's own, as program.cpp's.
  const std::string mine = std::to_string(getpid());
  std::vector<std::string> clang_options;
  for (const std::string& i : o.includes)
    clang_options.push_back("-I" + fs::absolute(i, ec).string());
  for (const std::string& d : o.defines) clang_options.push_back("-D" + d);
  ProgramLowering lowering(clang_options, o.shown, front_end);
  std::vector<std::string> objects;
  for (size_t k = 0; k < units.size(); ++k) {
    Unit& u = units[k];
    const fs::path folder = dir / ("file" + std::to_string(k));
    fs::create_directories(folder, ec);
    u.object = folder / (u.source.stem().string() + "." + mine + ".o");
    // A host file goes to nvcc as written: nvcc hands it to the host compiler, CUDA's runtime
    // answering its calls.
    if (gpu && !u.cuda) {
      u.compiled = u.source;
    } else {
      const SourceKind kind = gpu ? SourceKind::GpuProgram : SourceKind::Program;
      Result<std::string> lowered = lowering.lower(u.text, u.source.string(), kind);
      if (!lowered) return lowered.status();
      Result<std::vector<std::string>> include_options =
          lower_headers(u.source, u.text, o.includes, kind, folder, lowering, *lowered);
      if (!include_options) return include_options.status();
      u.cmd.insert(u.cmd.end(), include_options->begin(), include_options->end());
      u.compiled = folder / (u.source.stem().string() + "." + mine + (gpu ? ".cu" : ".cpp"));
      std::ofstream out(u.compiled);
      out << program_prelude(kind);
      const std::vector<fs::path> files = own_files(u.source, u.text, o.includes);
      out << (gpu ? gpu_library_prelude(files) : host_library_prelude(files)) << *lowered;
      if (!out) return Status::error("cannot write " + u.compiled.string());
    }
    for (const std::string& i : o.includes) u.cmd.push_back("-I" + fs::absolute(i, ec).string());
    u.compile = u.cmd;
    if (gpu)
      u.cmd.insert(u.cmd.end(), {"-dc", u.compiled.string(), "-o", u.object.string()});
    else
      u.cmd.insert(u.cmd.end(), {"-c", "-x", "c++", u.compiled.string(), "-o", u.object.string()});
    objects.push_back(u.object.string());
  }
  // The one trace sink of every file's device code and the state beside it, defined where
  // every other file declares them (device/gpu/recorder.cuh): what a program's file includes
  // first, in a unit of its own. It holds nothing of the program's, so it is compiled once for
  // every program built alike and kept beside the builds.
  const fs::path sinks = fs::path(program_cache_root()) / "trace_sinks";
  fs::path sink_kept, sink_made, sink_source;
  if (gpu) {
    Unit sink;
    sink.cmd = compile_command(o, sinks / "trace_sink.cu", headers);
    sink.cmd.push_back(kLinkedDeviceCode);
    std::vector<std::string> sink_key = sink.cmd;
    sink_key.insert(sink_key.end(), header_stamps.begin(), header_stamps.end());
    sink_kept = sinks / (hash_name(sink_key) + ".o");
    objects.push_back(sink_kept.string());
    if (!fs::exists(sink_kept, ec)) {
      fs::create_directories(sinks, ec);
      sink.source = sink.compiled = sink_source = sinks / ("trace_sink." + mine + ".cu");
      sink.object = sink_made = sinks / ("trace_sink." + mine + ".o");
      std::ofstream(sink.source) << "#define COOP_BYO_TRACE_SINK_UNIT 1\n"
                                 << program_prelude(SourceKind::GpuProgram);
      sink.cmd.insert(sink.cmd.end(),
                      {"-dc", sink.source.string(), "-o", sink.object.string()});
      units.push_back(std::move(sink));
    }
  }
  // The report is made beside the compiles (joined on every return).
  std::string table;
  std::jthread report;
  if (resources) {
    KernelResourceRequest request;
    request.arch = emulated_arch_number(o.arch) / 10;
    request.relocatable = true;
    for (const std::string& i : o.includes)
      request.options.push_back("-I" + fs::absolute(i, ec).string());
    for (const std::string& d : o.defines) request.options.push_back("-D" + d);
    report = std::jthread([&table, kernel_files, request, tmp = (dir / ("resources." + mine)).string()] {
      table = files_resource_table(kernel_files, request, tmp);
    });
  }
  compile_all(units);
  if (!sink_made.empty()) {
    fs::remove(sink_source, ec);
    if (units.back().rc && *units.back().rc == 0) fs::rename(sink_made, sink_kept, ec);
  }
  const auto clean = [&] {
    for (const Unit& u : units) {
      fs::remove(u.object, ec);
      if (u.compiled.string().starts_with(dir.string())) fs::remove(u.compiled, ec);
    }
  };
  std::string said;
  for (const Unit& u : units) {
    if (!u.rc) return clean(), u.rc.status();
    if (*u.rc != 0) said += u.output;
  }
  if (!said.empty()) return clean(), Status::error(as_the_user_wrote_them(said, units));

  // The link: the emulator's as program.cpp's; nvcc's links the device code of every file too.
  const std::string partial = build.executable + ".partial." + mine;
  std::vector<std::string> link;
  if (gpu) {
    link = {nvcc_command(), "-arch=" + o.gpu_arch};
    link.insert(link.end(), objects.begin(), objects.end());
    link.insert(link.end(), {"-o", partial});
    add_gpu_link(link, libraries);
  } else {
    link = emulator_link_command(objects, partial, libraries);
  }
  Result<int> rc = run_compiler(link, build.compiler_output, o.file);
  if (rc && *rc != 0) build.compiler_output = as_the_user_wrote_them(build.compiler_output, units);
  // The emulator's build keeps its lowered files for the unhooked copy (unhooked_recipe.hpp).
  if (rc && *rc == 0 && !gpu) {
    std::vector<UnhookedSource> sources;
    for (const Unit& u : units) sources.push_back({u.compiled, u.compile});
    if (Status kept = keep_unhooked_recipe(build.executable, sources,
                                           cmake_list(kProgramInstrumentationFlags));
        !kept)
      return clean(), kept;
  }
  clean();
  if (!rc) return rc.status();
  if (*rc != 0) return Status::error(failed_compile_words(build.compiler_output, *rc));
  if (report.joinable()) report.join();
  if (resources && !(std::ofstream(build.executable + ".resources") << table))
    return Status::error("cannot write " + build.executable + ".resources");
  fs::rename(partial, build.executable, ec);
  if (ec) return Status::error("cannot keep the build: " + ec.message());
  build.front_end_note = lowering.note();
  build.not_shown = lowering.not_shown();
  std::ofstream not_shown(dir / "not_shown");
  for (const std::string& line : build.not_shown) not_shown << line << "\n";
  build.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return build;
}

}  // namespace coop::app
