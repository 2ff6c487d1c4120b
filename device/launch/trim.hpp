// Text with the white space at both of its ends left off: what every reader of a hand-written
// file (a lesson's markdown, an exercise, a class pack, a launch override) does to a line.
#pragma once

#include <string_view>

namespace coop {

inline std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n\v\f";
  const size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

}  // namespace coop
