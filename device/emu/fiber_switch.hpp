// The switch between the emulator's fibers. Boost.Context's jump_fcontext ends by jumping to the
// resumed fiber's saved address rather than returning to it, so every return on the resumed
// stack that follows misses the processor's return predictor, and it reloads the floating-point
// control words each time (slow, serialising instructions). With a barrier a resume per thread,
// those were about a fifth of an untraced launch. On x86-64 the emulator's own switch saves the
// same frame (a context either switch saved, the other resumes) and ends with a return.
#pragma once

#include <boost/context/fiber.hpp>

#include <cstring>

#if defined(__x86_64__) && defined(__linux__)
#define COOP_EMU_OWN_SWITCH 1
// Saves the caller's context (Boost.Context's frame: control words, callee-saved registers and
// the return address) on its stack, resumes `to`, and returns `to`'s saved context with `data`.
// The control words are saved, for a Boost switch that resumes this context, but not restored:
// every fiber of a worker runs with the worker's floating-point environment.
extern "C" boost::context::detail::transfer_t coop_emu_jump_fcontext(
    boost::context::detail::fcontext_t to, void* data);
#endif

namespace coop::emu::detail {

static_assert(sizeof(boost::context::fiber) == sizeof(boost::context::detail::fcontext_t),
              "boost::context::fiber is expected to hold only its context pointer");

// Resumes the suspended fiber `to` (left empty) and returns the context of the fiber that hands
// the OS thread back, as boost::context::fiber::resume does.
inline boost::context::fiber resume_fiber(boost::context::fiber&& to) {
#if defined(COOP_EMU_OWN_SWITCH)
  // A fiber is its context pointer (asserted above).
  boost::context::detail::fcontext_t ctx = nullptr, none = nullptr;
  std::memcpy(&ctx, static_cast<const void*>(&to), sizeof ctx);
  std::memcpy(static_cast<void*>(&to), &none, sizeof none);
  const boost::context::detail::transfer_t back = coop_emu_jump_fcontext(ctx, nullptr);
  boost::context::fiber from;
  std::memcpy(static_cast<void*>(&from), &back.fctx, sizeof back.fctx);
  return from;
#else
  return std::move(to).resume();
#endif
}

}  // namespace coop::emu::detail
