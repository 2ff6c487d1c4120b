// The parts of a program's build (program.cpp) that a program of several files
// (program_files.cpp) builds with too.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/program/program.hpp"
#include "app/program/program_lowering.hpp"
#include "device/lowering/lowering.hpp"
#include "device/paths/data_dirs.hpp"

namespace coop::app {

// A GPU program's error calls pass through byo/gpu_last_error.cpp, which adds the error of a
// launch coopviz refused before it reached CUDA.
inline constexpr const char* kLastErrorWraps[] = {"--wrap=cudaGetLastError",
                                                  "--wrap=cudaPeekAtLastError"};

// FNV-1a over everything that decides the build: the source, its options, and this coopviz.
uint64_t hash_of(const std::vector<std::string>& parts);

// hash_of(parts) as 16 hex digits: the name a kept build (folder or file) goes by.
std::string hash_name(const std::vector<std::string>& parts);

// `file` and when it was last changed, added to a build's key (nothing when it is not there).
void stamp_file(std::vector<std::string>& key, const std::string& file);

// This coopviz's headers a program is compiled with (the traced Cooperative Groups, the runtime
// shims), stamped into a build's key: a changed one makes earlier builds stale.
void stamp_program_headers(std::vector<std::string>& key, const DataDirs& dirs);

// The compute capability the emulator imitates as __CUDA_ARCH__ (900 for sm_90).
int emulated_arch_number(const std::string& arch);

// The words of a CMake list ("a;b;c").
std::vector<std::string> cmake_list(const char* list);

// CUDA's header folders, each followed by its cccl/ where the toolkit keeps Thrust, CUB and
// libcu++ apart.
std::vector<std::string> cuda_include_dirs();

// What the program links, in order: coopviz's own libraries (bare names in the list) from where
// this coopviz keeps them, then the system's.
std::vector<std::string> link_libraries(bool gpu, const DataDirs& dirs);

// Held while a program is built into its cache folder `dir` (made here when missing): a second
// coopviz asking for the same build (two tests at once, the window's watcher and the command line)
// waits for the first and then takes its build, rather than compiling the same program beside
// it. Released when it goes out of scope, or when its process ends however it ends.
class BuildFolderLock {
 public:
  explicit BuildFolderLock(const std::filesystem::path& dir);
  ~BuildFolderLock();
  BuildFolderLock(const BuildFolderLock&) = delete;
  BuildFolderLock& operator=(const BuildFolderLock&) = delete;

 private:
  int fd_ = -1;
};

// The compile of the program's file `source` up to its input and output: nvcc for the GPU
// (options.gpu_arch), else the host compiler against the emulator's runtime, instrumented.
std::vector<std::string> compile_command(const ProgramOptions& options,
                                         const std::filesystem::path& source,
                                         const std::string& headers);

// The link of an emulator program's `objects` into `out` with `libraries`. (Not gold: under the
// program's 2 GiB address-space limit it cannot open a GCC 13 toolchain's libstdc++.so.)
std::vector<std::string> emulator_link_command(const std::vector<std::string>& objects,
                                               const std::string& out,
                                               const std::vector<std::string>& libraries);

// Adds to an nvcc link what a GPU program links: the runtime's wrapped calls, then `libraries`.
void add_gpu_link(std::vector<std::string>& cmd, const std::vector<std::string>& libraries);

// The first line of a compiler's output that names an error ("" when none does).
std::string first_error_line(const std::string& output);

// A failed compile's words, for the user: the compiler's own, and where it named no error (it was
// killed, say), the status it ended with.
std::string failed_compile_words(std::string output, int status);

// The program's own headers lowered as `kind` beside the lowered `program` in `to` (program.cpp
// says where each goes); returns the -I options that find them.
Result<std::vector<std::string>> lower_headers(const std::filesystem::path& source,
                                               const std::string& text,
                                               const std::vector<std::string>& includes,
                                               SourceKind kind, const std::filesystem::path& to,
                                               ProgramLowering& lowering, std::string& program);

// The program's own files: itself, the headers beside it and in its -I folders, and the .cu
// files it includes.
std::vector<std::filesystem::path> own_files(const std::filesystem::path& source,
                                             const std::string& text,
                                             const std::vector<std::string>& includes);

// The compiler's words about the lowered copy `compiled`, told of the user's `source`: its name
// in place of the copy's, and no columns (lowering keeps the lines, not the columns).
std::string as_the_user_wrote_it(const std::string& output, const std::filesystem::path& source,
                                 const std::filesystem::path& compiled);

}  // namespace coop::app
