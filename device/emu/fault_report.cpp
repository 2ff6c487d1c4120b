#include "device/emu/fault_report.hpp"

#include <fcntl.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "device/emu/memory_record.hpp"
#include "device/emu/scheduler_state.hpp"

namespace coop::emu {
namespace {

char g_path[4096];
uintptr_t g_load_bias = 0;  // what the loader added to the executable's link-time addresses

// Appends `v` in hex (or in decimal) to `out`: no library call that could allocate.
char* put_number(char* out, uint64_t v, unsigned base) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v != 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

void on_fault(int, siginfo_t*, void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  const auto pc = uintptr_t(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  const auto pc = uintptr_t(uc->uc_mcontext.pc);
#else
  const uintptr_t pc = 0;
  (void)uc;
#endif
  char line[64];
  char* p = line;
  *p++ = '0';
  *p++ = 'x';
  p = put_number(p, pc - g_load_bias, 16);
  *p++ = ' ';
  const detail::Worker* w = detail::t_worker;
  if (w != nullptr && w->current != nullptr) {
    p = put_number(p, w->current->info.global_id, 10);
  } else {
    *p++ = '-';
    *p++ = '1';
  }
  *p++ = '\n';
  const int fd = open(g_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    (void)!write(fd, line, size_t(p - line));
    close(fd);
  }
  // SA_RESETHAND restored the default action: the faulting instruction runs again and ends the
  // program with the same signal.
}

}  // namespace

void report_faults_to(const char* path) {
  if (path == nullptr || *path == '\0' || std::strlen(path) >= sizeof g_path) return;
  std::strcpy(g_path, path);
  g_load_bias = detail::executable_load_bias();
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
  sigaction(SIGBUS, &action, nullptr);
}

void report_stop(const char* message) {
  if (g_path[0] == '\0') return;
  const int fd = open(g_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  (void)!write(fd, "stopped: ", 9);
  (void)!write(fd, message, std::strlen(message));
  (void)!write(fd, "\n", 1);
  close(fd);
}

}  // namespace coop::emu
