// A helper header of the kind sample collections keep in a common include folder, under the name
// their programs include it by: error checks that print the call and stop, a device chooser that
// reads the version macros, integrated/discrete and compute mode, a cores-per-multiprocessor table
// and a host stopwatch. Written for these test programs; found with -I like the original.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if !defined(CUDART_VERSION) || CUDART_VERSION < 11000
#error "these samples need the CUDA 11 runtime or newer"
#endif

// The exit code of a sample that cannot run on this device (and so neither passes nor fails).
#define EXIT_WAIVED 2

template <typename T>
void check(T result, const char* func, const char* file, int line) {
  if (result) {
    std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line,
                 static_cast<unsigned int>(result), cudaGetErrorName(result), func);
    std::exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

inline void lastCudaError(const char* message, const char* file, int line) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s(%d) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line,
                 message, static_cast<int>(err), cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
  }
}
#define getLastCudaError(msg) lastCudaError(msg, __FILE__, __LINE__)

// Cores per multiprocessor by compute capability, as a sample prints in its banner.
inline int coresPerSM(int major, int minor) {
  struct Row {
    int sm, cores;
  };
  static const Row rows[] = {{0x70, 64}, {0x72, 64}, {0x75, 64}, {0x80, 64}, {0x86, 128},
                             {0x87, 128}, {0x89, 128}, {0x90, 128}, {0xa0, 128}, {0xc0, 128}};
  const int sm = (major << 4) + minor;
  for (const Row& r : rows)
    if (r.sm == sm) return r.cores;
  return 128;
}

// The first device open to programs, preferring a discrete one; a "-device=N" argument picks one.
inline int findCudaDevice(int argc, const char** argv) {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  if (count == 0) {
    std::fprintf(stderr, "no CUDA-capable device\n");
    std::exit(EXIT_FAILURE);
  }
  int chosen = -1;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "-device=", 8) == 0) chosen = std::atoi(argv[i] + 8);
  for (int d = 0; chosen < 0 && d < count; ++d) {
    int integrated = 0, mode = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, d));
    checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
    if (!integrated && mode != cudaComputeModeProhibited) chosen = d;
  }
  if (chosen < 0) chosen = 0;
  checkCudaErrors(cudaSetDevice(chosen));
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, chosen));
  std::printf("GPU Device %d: \"%s\" with compute capability %d.%d, %d cores\n", chosen, prop.name,
              prop.major, prop.minor,
              prop.multiProcessorCount * coresPerSM(prop.major, prop.minor));
  return chosen;
}

// A host stopwatch for the parts of a sample that time the CPU.
class StopWatch {
 public:
  void start() { begin_ = std::chrono::steady_clock::now(); }
  void stop() {
    total_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin_)
                  .count();
  }
  double milliseconds() const { return total_; }

 private:
  std::chrono::steady_clock::time_point begin_;
  double total_ = 0;
};
