// AddressSanitizer and the emulator's fibers. Boost.Context switches stacks behind the compiler's
// back, and ASan keeps shadow state per stack; so in sanitizer builds every switch is announced
// (start before leaving a stack, finish on arrival) and a recycled fiber stack is cleared of the
// poisoned redzones its last fiber left behind (a fiber's outermost frames never return). In
// other builds these compile to nothing.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define COOP_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COOP_ASAN_FIBERS 1
#endif
#endif
#if defined(COOP_ASAN_FIBERS)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace coop::emu {

// Leaving the current stack for [low, low + size). `save` keeps ASan's record of the frames left
// behind until the stack is entered again; null means the current fiber is ending.
inline void switching_to([[maybe_unused]] void** save, [[maybe_unused]] const void* low,
                         [[maybe_unused]] size_t size) {
#if defined(COOP_ASAN_FIBERS)
  __sanitizer_start_switch_fiber(save, low, size);
#endif
}

// Arrived on a stack; `saved` is what switching_to saved when it was left (null for a new fiber).
// The stack just left is reported through `from_low` and `from_size` when they are not null.
inline void switched([[maybe_unused]] void* saved, [[maybe_unused]] const void** from_low,
                     [[maybe_unused]] size_t* from_size) {
#if defined(COOP_ASAN_FIBERS)
  __sanitizer_finish_switch_fiber(saved, from_low, from_size);
#endif
}

// Marks a stack that no fiber runs on as plain memory again, before it is handed out anew.
inline void forget_stack_frames([[maybe_unused]] void* low, [[maybe_unused]] size_t size) {
#if defined(COOP_ASAN_FIBERS)
  __asan_unpoison_memory_region(low, size);
#endif
}

}  // namespace coop::emu
