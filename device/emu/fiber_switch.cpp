#include "device/emu/fiber_switch.hpp"

#if defined(COOP_EMU_OWN_SWITCH)
// Boost.Context's x86-64 System V frame, 0x40 bytes below the saved stack pointer's top: MXCSR
// and the x87 control word at 0x0 and 0x4, r12-r15, rbx and rbp at 0x8-0x30, the return address
// at 0x38. A fresh fiber's frame returns into Boost's trampoline, which starts the fiber as it
// does after Boost's own jump (the stack pointer ends 0x40 above the context either way).
asm(R"(
  .text
  .globl coop_emu_jump_fcontext
  .type coop_emu_jump_fcontext, @function
  .align 16
coop_emu_jump_fcontext:
  leaq -0x38(%rsp), %rsp
  stmxcsr (%rsp)
  fnstcw 0x4(%rsp)
  movq %r12, 0x8(%rsp)
  movq %r13, 0x10(%rsp)
  movq %r14, 0x18(%rsp)
  movq %r15, 0x20(%rsp)
  movq %rbx, 0x28(%rsp)
  movq %rbp, 0x30(%rsp)
  movq %rsp, %rax
  movq %rdi, %rsp
  movq 0x8(%rsp), %r12
  movq 0x10(%rsp), %r13
  movq 0x18(%rsp), %r14
  movq 0x20(%rsp), %r15
  movq 0x28(%rsp), %rbx
  movq 0x30(%rsp), %rbp
  leaq 0x38(%rsp), %rsp
  movq %rsi, %rdx
  movq %rax, %rdi
  ret
  .size coop_emu_jump_fcontext, .-coop_emu_jump_fcontext
  .section .note.GNU-stack, "", @progbits
  .text
)");
#endif
