// One factory per lesson folder; registry.cpp lists them in teaching order.
#pragma once

#include "lessons/lesson.hpp"

namespace coop::lessons {
namespace block_reduce { LessonDef lesson(); }
namespace collectives { LessonDef lesson(); }
namespace warp_collectives { LessonDef lesson(); }
namespace divergence_and_coalesced { LessonDef lesson(); }
namespace async_data_movement { LessonDef lesson(); }
}  // namespace coop::lessons
