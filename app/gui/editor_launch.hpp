// Opening a file in the user's own editor from the desktop app: the program the desktop names
// ($VISUAL, then $EDITOR, then xdg-open), started in the background so that no frame waits for
// the editor to start or to close.
#pragma once

#include <string>
#include <vector>

#include "device/launch/result.hpp"

namespace coop::app {

// The command line that opens `file`: $VISUAL, else $EDITOR (either may carry arguments, as in
// "code --wait", split at spaces), else xdg-open; the file is the last argument.
std::vector<std::string> editor_command(const std::string& file);

// Starts `argv` in the background and returns at once; an error names the program when it
// cannot be started (not installed, not executable). The child is reaped by a thread of its own.
Status launch_detached(const std::vector<std::string>& argv);

}  // namespace coop::app
