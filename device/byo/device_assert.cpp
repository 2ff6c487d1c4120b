// assert() in a kernel, as CUDA has it: the failing thread says where it failed, in CUDA's words,
// the launch stops there, and the program's next calls return cudaErrorAssert (runtime.cpp).
// On the emulator a kernel is host code, so the C library's __assert_fail would abort the whole
// program; this definition, in the program itself, takes its calls first and sends the host's own
// failed asserts on to the C library.
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "device/byo/runtime.hpp"
#include "device/emu/emu_api.hpp"

namespace {

std::atomic<bool> g_device_assert{false};

}  // namespace

extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file,
                                           unsigned int line, const char* function) noexcept {
  if (!coop::emu::in_emulated_thread()) {
    using AssertFail = void (*)(const char*, const char*, unsigned int, const char*);
    if (auto next = reinterpret_cast<AssertFail>(dlsym(RTLD_NEXT, "__assert_fail")))
      next(assertion, file, line, function);
    std::abort();
  }
  const coop::emu::ThreadInfo& t = coop::emu::this_thread();
  std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
               file, line, function, t.block_idx.x, t.block_idx.y, t.block_idx.z,
               t.thread_idx.x, t.thread_idx.y, t.thread_idx.z, assertion);
  g_device_assert = true;
  coop::emu::fault("assertion `" + std::string(assertion) + "` failed", uint16_t(line));
}

bool coop::byo::take_device_assert() { return g_device_assert.exchange(false); }
