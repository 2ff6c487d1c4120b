// Which threads of the grid a data race marks (device/trace/race_detector.hpp finds the races):
// the two threads of the race picked in the Checks tab strongly, every thread of any race the
// launch reported lightly. Pure data, so the rule is tested without drawing it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "device/trace/race_detector.hpp"

namespace coop::visual {

// How strongly the grid marks a thread (or a folded warp or block holding it).
enum class RaceMark : uint8_t {
  None,
  InRace,  // one side of some race reported in the launch
  Picked,  // one side of the race picked in the race list
};

struct GridRaceMarks {
  std::vector<uint32_t> in_race;  // grid-wide thread ids, sorted, each once
  // The picked race's first and second access, when one is picked.
  std::optional<std::pair<uint32_t, uint32_t>> picked;

  bool empty() const { return in_race.empty(); }
  RaceMark at(uint32_t thread) const;
  // The strongest mark of threads [first, last): a warp stripe or block square drawn folded
  // carries the mark of any thread in it.
  RaceMark in_range(uint32_t first, uint32_t last) const;
};

// The marks for `races` of one launch, with races[picked] picked (-1, or an index past the end:
// none picked).
GridRaceMarks grid_race_marks(std::span<const Race> races, int picked);

}  // namespace coop::visual
