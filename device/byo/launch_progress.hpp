// Where the emulator's launch monitor (device/emu/launch_monitor.hpp) reports a long launch of a
// user's program: the file coopviz named in COOPVIZ_PROGRESS_OUT holds one line, "KERNEL: still
// making progress: ..." or "KERNEL: no thread moved ...", rewritten as the launch goes on and
// emptied when it ends, so that coopviz, stopping a program that ran past its time limit, can say
// what it was doing (app/program).
#pragma once

#include <functional>
#include <string>

namespace coop::byo {

// The reporter for ExecOptions::progress, or an empty function when coopviz asked for none.
std::function<void(const std::string&)> progress_reporter();

// Names the kernel of the launch about to run; nullptr once it has ended (and a line written for
// it is emptied).
void progress_kernel(const char* name);

}  // namespace coop::byo
