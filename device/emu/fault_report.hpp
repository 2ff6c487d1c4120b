// Where a kernel crashed. A user's program runs in a child process; when one of its threads
// faults (a wild pointer, a null one), the signal handler installed here writes the faulting
// instruction's address, as the executable's line tables count it, and the thread's grid-wide id
// to a file coopviz named. coopviz turns the address into the user's file and line with addr2line
// (app/program/program.cpp). The handler writes and returns; the fault then ends the program as
// before.
#pragma once

namespace coop::emu {

// Installs the handler for SIGSEGV and SIGBUS, writing to `path` (nothing when path is null or
// empty). The file holds one line: "<address in hex> <thread id, or -1 outside a kernel>".
void report_faults_to(const char* path);

// The emulator stopped the program itself (an access outside its allocation, a read of memory
// never written: memory_checks.hpp): the file holds "stopped: " and the message, for coopviz to
// say instead of a crash's place.
void report_stop(const char* message);

}  // namespace coop::emu
