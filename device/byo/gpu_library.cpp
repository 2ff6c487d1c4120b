// The device code of a user's program compiled apart (nvcc -cubin, see gpu_host_runtime.hpp),
// loaded as a CUDA library, and the program's host stubs and device variables matched to what is
// in it by their symbols.
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "device/byo/gpu_launch.hpp"

namespace coop::byo {
namespace {

// The symbols of this executable's own symbol table, by their address in this process. The
// program is built unstripped, so functions and variables of internal linkage are there too.
std::map<const void*, std::string> own_symbols() {
  std::map<const void*, std::string> out;
  uintptr_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* b) {
        *static_cast<uintptr_t*>(b) = info->dlpi_addr;  // the first one is the executable
        return 1;
      },
      &bias);
  std::ifstream in("/proc/self/exe", std::ios::binary);
  const std::vector<char> elf((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
  if (elf.size() < sizeof(Elf64_Ehdr)) return out;
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(elf.data());
  if (header->e_shoff + size_t(header->e_shnum) * sizeof(Elf64_Shdr) > elf.size()) return out;
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(elf.data() + header->e_shoff);
  for (int s = 0; s < header->e_shnum; ++s) {
    const Elf64_Shdr& table = sections[s];
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= header->e_shnum) continue;
    const Elf64_Shdr& names = sections[table.sh_link];
    if (table.sh_offset + table.sh_size > elf.size() ||
        names.sh_offset + names.sh_size > elf.size())
      continue;
    const auto* symbols = reinterpret_cast<const Elf64_Sym*>(elf.data() + table.sh_offset);
    for (size_t k = 0; k < table.sh_size / sizeof(Elf64_Sym); ++k) {
      const Elf64_Sym& sym = symbols[k];
      const int type = ELF64_ST_TYPE(sym.st_info);
      if ((type != STT_FUNC && type != STT_OBJECT) || sym.st_value == 0 ||
          sym.st_name >= names.sh_size)
        continue;
      out.emplace(reinterpret_cast<const void*>(sym.st_value + bias),
                  elf.data() + names.sh_offset + sym.st_name);
    }
  }
  return out;
}

// A mangled name as a reader sees it: the host compiler marks names of internal linkage
// (_ZL6hiddenPi) where nvcc's device code does not (_Z6hiddenPi); demangled, both are
// hidden(int*).
std::string demangled(const char* name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(
      abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(name);
}

class Library {
 public:
  static Library& get() {
    static Library library;
    return library;
  }

  // The kernel whose host stub is at `stub`, as a handle CUDA's runtime takes in place of the
  // stub, or nullptr (said once on stderr).
  const void* kernel(const void* stub) {
    std::lock_guard lock(mutex_);
    if (!load()) return nullptr;
    if (auto it = kernels_.find(stub); it != kernels_.end()) return it->second;
    const void* found = nullptr;
    auto symbol = symbols_.find(stub);
    if (symbol != symbols_.end()) {
      if (auto k = by_name_.find(demangled(symbol->second.c_str())); k != by_name_.end())
        found = k->second;
    }
    if (!found)
      std::fprintf(stderr, "coopviz: the kernel %s is not in the program's device code\n",
                   symbol == symbols_.end() ? "at this address" : symbol->second.c_str());
    return kernels_[stub] = found;
  }

  // The device address and size of the __device__ or __constant__ variable whose host twin is at
  // `host`, or an error.
  cudaError_t global(const void* host, void** device, size_t* bytes) {
    std::lock_guard lock(mutex_);
    if (!load()) return cudaErrorInvalidDeviceFunction;
    auto symbol = symbols_.find(host);
    if (symbol == symbols_.end()) return cudaErrorInvalidSymbol;
    return cudaLibraryGetGlobal(device, bytes, library_, symbol->second.c_str());
  }

  // Points the program's traced Cooperative Groups at a sink (the recorder's __constant__).
  cudaError_t set_sink(const TraceSink& sink, cudaStream_t stream) {
    std::lock_guard lock(mutex_);
    if (!load()) return cudaErrorInvalidDeviceFunction;
    void* at = nullptr;
    size_t bytes = 0;
    if (cudaError_t e = cudaLibraryGetGlobal(&at, &bytes, library_, "_ZN4coop3gpu12g_trace_sinkE");
        e != cudaSuccess)
      return e;
    if (bytes != sizeof sink) return cudaErrorInvalidSymbol;
    return cudaMemcpyAsync(at, &sink, sizeof sink, cudaMemcpyHostToDevice, stream);
  }

 private:
  // The device code beside the executable (<program>.cubin), loaded on first use.
  bool load() {
    if (library_ || failed_) return library_ != nullptr;
    failed_ = true;
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return false;
    // Another coopviz that built the same program at once may have renamed its executable over
    // this one's since it started: the kernel then names it "... (deleted)", and the device code
    // that goes with it is the new one's, built from the same source.
    std::string exe(self, size_t(n));
    if (constexpr std::string_view gone = " (deleted)"; exe.ends_with(gone))
      exe.resize(exe.size() - gone.size());
    const std::string path = exe + ".cubin";
    if (cudaError_t e = cudaLibraryLoadFromFile(&library_, path.c_str(), nullptr, nullptr, 0,
                                                nullptr, nullptr, 0);
        e != cudaSuccess) {
      std::fprintf(stderr, "coopviz: cannot load the program's device code %s: %s\n", path.c_str(),
                   cudaGetErrorString(e));
      library_ = nullptr;
      return false;
    }
    unsigned count = 0;
    cudaLibraryGetKernelCount(&count, library_);
    std::vector<cudaKernel_t> kernels(count);
    if (count) cudaLibraryEnumerateKernels(kernels.data(), count, library_);
    for (cudaKernel_t k : kernels) {
      const char* name = nullptr;
      if (cudaFuncGetName(&name, reinterpret_cast<const void*>(k)) == cudaSuccess && name)
        by_name_.emplace(demangled(name), reinterpret_cast<const void*>(k));
    }
    symbols_ = own_symbols();
    failed_ = false;
    return true;
  }

  std::mutex mutex_;
  cudaLibrary_t library_ = nullptr;
  bool failed_ = false;
  std::unordered_map<std::string, const void*> by_name_;
  std::map<const void*, std::string> symbols_;
  std::unordered_map<const void*, const void*> kernels_;
};

int set_library_sink(const TraceSink& sink, void* stream) {
  return int(Library::get().set_sink(sink, static_cast<cudaStream_t>(stream)));
}

}  // namespace

const void* library_kernel(const void* stub) {
  return Library::get().kernel(stub);
}

GpuKernelEntry library_entry(const void* stub) {
  return {library_kernel(stub), &set_library_sink};
}

cudaError_t library_global(const void* host, void** device, size_t* bytes) {
  return Library::get().global(host, device, bytes);
}

cudaError_t copy_symbol(const void* host, bool to_device, void* other, size_t count,
                        size_t offset, cudaMemcpyKind kind, cudaStream_t stream, bool async) {
  void* device = nullptr;
  size_t bytes = 0;
  if (cudaError_t e = library_global(host, &device, &bytes); e != cudaSuccess) return e;
  if (offset + count > bytes) return cudaErrorInvalidValue;
  char* at = static_cast<char*>(device) + offset;
  void* dst = to_device ? at : other;
  const void* src = to_device ? static_cast<const void*>(other) : at;
  return async ? cudaMemcpyAsync(dst, src, count, kind, stream) : cudaMemcpy(dst, src, count, kind);
}

}  // namespace coop::byo
