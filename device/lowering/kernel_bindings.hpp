// Kernel bindings generated from a kernel file: the `__global__` functions of a lesson's (or a
// test's) .cuh, read at build time, become a struct of Kernel<...> handles with both backends
// bound, so no one restates a kernel's name and signature by hand.
//
// From `namespace coop::lessons::block_reduce { __global__ void reduce_block(const float* input,
// float* block_sums, float* total) {...} }` come three files:
//   kernels.hpp      struct Kernels { Kernel<const float*, float*, float*> reduce_block{...}; };
//                    const Kernels& kernels();  (what lesson code includes)
//   kernels.cu       nvcc: the GPU entries (COOP_GPU_ENTRY) of the kernel file's __global__s
//   kernels_emu.cpp  host compiler: the same kernels lowered for the emulator (<name>.emu.cuh)
#pragma once

#include <string>
#include <vector>

#include "device/launch/result.hpp"

namespace coop {

struct KernelParam {
  std::string type;  // as the host writes it: "const float*", "unsigned long long*", "size_t"
  std::string name;  // "" when the parameter is unnamed
};

struct KernelSignature {
  std::string name;
  std::vector<KernelParam> params;
  int line = 0;  // of its __global__, 1-based
};

// The kernels a kernel file defines, in file order, and the namespace that holds them.
struct KernelFile {
  std::string name_space;  // "coop::lessons::block_reduce"
  std::vector<KernelSignature> kernels;
};

// Reads the `__global__` definitions of `text` (read from `path`), or an error
// "path:line: error: message" for what a binding cannot express (templates, parameter types the
// host does not know, references, arrays, a file without kernels or outside coop::lessons::).
Result<KernelFile> read_kernels(const std::string& text, const std::string& path);

struct KernelBindingFiles {
  std::string header;      // kernels.hpp
  std::string gpu_source;  // kernels.cu
  std::string emu_source;  // kernels_emu.cpp
};

// The three binding files of `file`. `folder` is the kernel file's folder as included
// ("lessons/block_reduce"; the header is included as folder/kernels.hpp), `kernel_file` its name
// ("block_reduce.cuh"; lowered as block_reduce.emu.cuh beside the generated files).
KernelBindingFiles write_kernel_bindings(const KernelFile& file, const std::string& folder,
                                         const std::string& kernel_file);

}  // namespace coop
