// A lesson's integer parameters: their definitions with legal ranges, and a set of values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace coop::lessons {

using Params = std::map<std::string, int64_t>;

// A value another parameter decides, and which one decides it (shown beside the field).
struct ImposedValue {
  int64_t value = 0;
  std::string by;
};

// An integer parameter a student may change, with its legal range.
struct ParamDef {
  std::string name;
  int64_t default_value = 0;
  int64_t min = 0, max = 0;
  std::string help;
  bool power_of_two = false;
  // Set where another parameter can decide this one's value (an example that stands for a whole
  // launch): the value that runs instead of the typed one, or nothing when the typed one runs.
  std::function<std::optional<ImposedValue>(const Params&)> imposed = {};
};

}  // namespace coop::lessons
