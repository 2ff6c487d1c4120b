// Numbers as the user types them: a field keeps the typed text, and only a parse that names what
// is wrong and the limits turns it into a value. Nothing downstream ever sees a wrapped, clamped
// or stale number (a refused field leaves the value as it was and says why at the field).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "device/launch/dims.hpp"
#include "device/launch/result.hpp"

namespace coop::visual {

// What a text field holds between frames: the text being typed (while `editing`) or refused,
// and why it was refused.
struct FieldText {
  std::string typed;
  std::string error;  // "" unless the last text the user finished typing was refused
  bool editing = false;
};

// A whole number in [min, max]: "abc", "-1" for a count, "1e3", overflow and out-of-range values
// are refused with a message naming `what` and the range.
Result<int64_t> parse_whole(std::string_view text, std::string_view what, int64_t min,
                            int64_t max);

// "X", "X,Y" or "X,Y,Z" (spaces allowed), each dimension in [1, max.x|y|z], and at most
// `max_product` in all (0: no such limit).
Result<Dim3> parse_dims(std::string_view text, std::string_view what, const Dim3& max,
                        uint64_t max_product = 0);

// "8,4,2", or "256" when y and z are 1: how a dim3 is shown in a field.
std::string dims_text(const Dim3& d);

}  // namespace coop::visual
