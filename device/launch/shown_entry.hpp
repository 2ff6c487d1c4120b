// One entry of a list of shown buffers (lesson.json's "shown_stores" and "shown_loads",
// --show-stores, --show-loads): a buffer's name, which shows its every plain access, or a name
// limited to the lines that hold a text, "total on the line with total = total +", which shows
// only the accesses written on such a line. A kernel that resets or reads a counter plainly
// around the one read-add-write a lesson shows keeps those accesses plain. Header-only: the C++
// front end (tools/frontend) reads entries with it too.
#pragma once

#include <string_view>

#include "device/launch/trim.hpp"

namespace coop {

inline constexpr std::string_view kShownOnTheLineWith = " on the line with ";

struct ShownEntry {
  std::string_view name;
  std::string_view line_text;  // empty: every line
};

inline ShownEntry split_shown_entry(std::string_view entry) {
  entry = trim(entry);
  const size_t at = entry.find(kShownOnTheLineWith);
  if (at == std::string_view::npos) return {entry, {}};
  return {trim(entry.substr(0, at)), trim(entry.substr(at + kShownOnTheLineWith.size()))};
}

}  // namespace coop
