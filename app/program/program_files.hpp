// A program of several source files, as nvcc takes them: `coopviz run main.cpp kernels.cu` for
// `nvcc main.cpp kernels.cu`, and for separate compilation (`nvcc -rdc=true a.cu b.cu`) alike.
// Each file is lowered with its own headers and compiled apart, then all are linked: on the
// emulator an ordinary link, where a kernel, a __device__ function or a __constant__ variable
// defined in one file and declared extern in another is one symbol; on the GPU every file is
// compiled with relocatable device code (nvcc -dc) and nvcc links the device code too. Compile
// errors name the user's file and line in whichever file they are, and each launch's trace
// carries its kernel's own file (program_kernel_sources).
#pragma once

#include <string>
#include <vector>

#include "app/program/program.hpp"
#include "device/launch/result.hpp"
#include "device/occupancy/program_resources.hpp"

namespace coop::app {

// Every source file of the program: options.file, then options.other_files.
std::vector<std::string> program_files(const ProgramOptions& options);

// What keeps `files` from being one program's source files, or ok: a file that is not there or
// is a folder (or cannot be read as one), a header named as a source (it is included, not
// compiled), one named twice.
Status check_program_files(const std::vector<std::string>& files);

// Lowers, compiles and links a program of several files (or reuses the build of identical
// inputs); `front_end` false lowers them line by line alone. A compile error is an error status
// whose message is the compiler's output about the user's files.
Result<ProgramBuild> compile_program_files(const ProgramOptions& options, bool front_end);

// For a program of several files, a line "kernel<TAB>file" (the file absolute) for each kernel a
// .cu file defines (device/lowering: defined_kernels), which the program's runtime reads
// (COOPVIZ_KERNEL_SOURCES) to give each launch's trace its kernel's own file; "" for one file.
std::string program_kernel_sources(const ProgramOptions& options);

// A row of the compiler's report of the program's kernels beside its build `executable`
// (kernel_resource_table.hpp; made for a program that asks for its kernels' resources, of one file
// or, on the emulator, of several, a .cu file at a time): the kernel's name, unqualified, and its
// own file (absolute), the program's file where only one has kernels or none is found.
struct ProgramKernelResourceRow {
  std::string kernel;
  std::string file;
  ProgramKernelResources resources;
};

// Every row of that report; none where there is no report or it could not be made.
std::vector<ProgramKernelResourceRow> program_kernel_resources(const ProgramOptions& options,
                                                               const std::string& executable);

}  // namespace coop::app
