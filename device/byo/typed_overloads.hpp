// The C++ overloads of CUDA's runtime that take a kernel or a __device__/__constant__ variable
// itself (cudaFuncGetAttributes(&a, kernel), cudaMemcpyToSymbol(symbol, ...)). CUDA's
// cuda_runtime.h defines them only for nvcc (under __CUDACC__), so a host compiler reading it
// for the emulator gets them here instead, declared before cuda_runtime.h's own templates (its
// occupancy calculator calls cudaFuncGetAttributes on the kernel) and forwarding to the C
// functions with the address, as CUDA's do. Included by byo/include/cuda_runtime.h.
#pragma once

// NOLINTBEGIN: CUDA's names and signatures
template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, T* entry) {
  return ::cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(entry));
}
template <class T>
inline cudaError_t cudaFuncSetAttribute(T* entry, cudaFuncAttribute attribute, int value) {
  return ::cudaFuncSetAttribute(reinterpret_cast<const void*>(entry), attribute, value);
}
template <class T>
inline cudaError_t cudaFuncSetCacheConfig(T* entry, cudaFuncCache config) {
  return ::cudaFuncSetCacheConfig(reinterpret_cast<const void*>(entry), config);
}
// Deprecated as CUDA's is: a program calling it is warned, not every program including this.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
template <class T>
[[deprecated]] inline cudaError_t cudaFuncSetSharedMemConfig(T* entry, cudaSharedMemConfig config) {
  return ::cudaFuncSetSharedMemConfig(reinterpret_cast<const void*>(entry), config);
}
#pragma GCC diagnostic pop
template <class T>
inline cudaError_t cudaFuncGetName(const char** name, T* entry) {
  return ::cudaFuncGetName(name, reinterpret_cast<const void*>(entry));
}
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                      size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol(static_cast<const void*>(&symbol), src, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count,
                                        size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count,
                                           size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                           cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync(static_cast<const void*>(&symbol), src, count, offset, kind,
                                   stream);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count,
                                             size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                             cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, static_cast<const void*>(&symbol), count, offset, kind,
                                     stream);
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) {
  return ::cudaGetSymbolAddress(address, static_cast<const void*>(&symbol));
}
template <class T>
inline cudaError_t cudaGetSymbolSize(size_t* size, const T& symbol) {
  *size = sizeof(T);
  return cudaSuccess;
}
// NOLINTEND
