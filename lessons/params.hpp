// A lesson's integer parameters: their definitions with legal ranges, and a set of values.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace coop::lessons {

// An integer parameter a student may change, with its legal range.
struct ParamDef {
  std::string name;
  int64_t default_value = 0;
  int64_t min = 0, max = 0;
  std::string help;
  bool power_of_two = false;
};

using Params = std::map<std::string, int64_t>;

}  // namespace coop::lessons
