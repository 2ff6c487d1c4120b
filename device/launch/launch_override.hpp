// A launch override: the grid and block a user asks a program's kernel to run with instead of
// the ones its source launches it with, for experimenting without editing the program
// (`coopviz run FILE.cu --launch KERNEL=GRID/BLOCK`, or the Launch panel of `coopviz gui FILE.cu`).
// Applied by both backends' runtimes to every launch of that kernel.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/launch_config.hpp"
#include "device/launch/result.hpp"

namespace coop {

struct LaunchOverride {
  std::string kernel;               // as the program names it: "scale", "reduce<256>" or "reduce"
  std::optional<Dim3> grid, block;  // unset: as the program launches it
};

// Parses "KERNEL=GRID/BLOCK", where GRID and BLOCK are X, X,Y or X,Y,Z, or * for the program's
// own ("scale=*/128"). The message of a bad one says the form and what is wrong.
Result<LaunchOverride> parse_launch_override(std::string_view text);
// The form parse_launch_override reads.
std::string to_string(const LaunchOverride& o);

// Several, as the environment hands them to a program: joined by ';'.
std::string join_launch_overrides(const std::vector<LaunchOverride>& list);
Result<std::vector<LaunchOverride>> parse_launch_overrides(std::string_view joined);

// Whether the override is for a launch of `launched` (the name at the launch, "reduce<256>"):
// the same name, or the same name without template arguments and namespaces.
bool overrides_kernel(const LaunchOverride& o, std::string_view launched);
// The override that applies to a launch of `launched`, or null.
const LaunchOverride* find_launch_override(const std::vector<LaunchOverride>& list,
                                           std::string_view launched);
LaunchConfig apply(const LaunchOverride& o, LaunchConfig config);

// The checks that need no kernel: the block and grid limits of `device`, named in the message
// with the override ("scale=*/2048: block of 2048 threads (2048) exceeds ...").
Status check_launch_override(const LaunchOverride& o, const DeviceProps& device);

}  // namespace coop
