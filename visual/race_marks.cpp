#include "visual/race_marks.hpp"

#include <algorithm>

namespace coop::visual {

RaceMark GridRaceMarks::at(uint32_t thread) const {
  return in_range(thread, thread + 1);
}

RaceMark GridRaceMarks::in_range(uint32_t first, uint32_t last) const {
  if (picked && ((picked->first >= first && picked->first < last) ||
                 (picked->second >= first && picked->second < last)))
    return RaceMark::Picked;
  const auto it = std::lower_bound(in_race.begin(), in_race.end(), first);
  return it != in_race.end() && *it < last ? RaceMark::InRace : RaceMark::None;
}

GridRaceMarks grid_race_marks(std::span<const Race> races, int picked) {
  GridRaceMarks marks;
  for (const Race& r : races) {
    marks.in_race.push_back(r.first.thread);
    marks.in_race.push_back(r.second.thread);
  }
  std::sort(marks.in_race.begin(), marks.in_race.end());
  marks.in_race.erase(std::unique(marks.in_race.begin(), marks.in_race.end()), marks.in_race.end());
  if (picked >= 0 && size_t(picked) < races.size())
    marks.picked = {races[size_t(picked)].first.thread, races[size_t(picked)].second.thread};
  return marks;
}

}  // namespace coop::visual
