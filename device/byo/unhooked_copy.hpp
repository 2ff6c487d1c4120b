// A user program's kernels compiled a second time, without the memory hooks (memory_record.hpp),
// into a shared object beside the program (app/program/unhooked_recipe.hpp). A launch that
// records and checks no access (an untraced repeat under lockstep) calls no hook that does
// anything, yet the instrumented kernel pays for a call at every load and store; the copy runs
// the same source as plain compiled code. The copy is built in the background once the program
// has spent a while in such launches, and found at once by its next runs.
#pragma once

namespace coop::byo {

// The copy of the kernel at `function`, found by its symbol, or null while there is none.
const void* unhooked_kernel(const void* function);  // (declared for launches in runtime.hpp)

// The program has spent `seconds` in launches the copy could run: past a few, the copy's recipe
// runs in the background (its output in program.unhooked.log). The program waits for it to end
// before it exits, so that the copy is whole for the next run.
void note_untraced_seconds(double seconds);

}  // namespace coop::byo
