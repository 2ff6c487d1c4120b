#include "device/launch/schedule.hpp"

#include <iterator>
#include <string>

namespace coop {

const char* to_string(Schedule schedule) {
  const auto i = size_t(schedule);
  return i < std::size(kScheduleNames) ? kScheduleNames[i] : "?";
}

Result<Schedule> parse_schedule(std::string_view text, std::string_view what) {
  for (size_t i = 0; i < std::size(kScheduleNames); ++i)
    if (text == kScheduleNames[i]) return Schedule(i);
  return Status::error(std::string(what) + " '" + std::string(text) +
                       "': choose lockstep, random or its");
}

}  // namespace coop
