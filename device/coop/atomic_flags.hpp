// Event::flags for an atomic_ref operation, from its thread scope and memory order, shared by
// both backends. The numbers are libcu++'s: cuda::thread_scope (system 0, device 1, block 2,
// thread 10) and cuda::std::memory_order (relaxed 0 .. seq_cst 5).
#pragma once

#include <cstdint>

#include "device/trace/event.hpp"

namespace coop {

COOP_HD constexpr uint16_t scope_flags(int scope) {
  // Device scope is the default and has no flag.
  return uint16_t(scope == 0 ? unsigned(kFlagScopeSystem)
                  : scope == 2 ? unsigned(kFlagScopeBlock)
                  : scope == 10 ? unsigned(kFlagScopeThread)
                                : 0u);
}

COOP_HD constexpr uint16_t order_flags(int order) {
  // consume is treated as acquire.
  return uint16_t(order == 0 ? unsigned(kFlagOrderRelaxed)
                  : order == 1 || order == 2 ? unsigned(kFlagOrderAcquire)
                  : order == 3 ? unsigned(kFlagOrderRelease)
                  : order == 4 ? unsigned(kFlagOrderAcquire | kFlagOrderRelease)
                               : unsigned(kFlagOrderSeqCst));
}

}  // namespace coop
