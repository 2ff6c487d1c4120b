// One factory per lesson folder; registry.cpp lists them in teaching order.
#pragma once

#include "lessons/lesson.hpp"

namespace coop::lessons {
namespace block_reduce { LessonDef lesson(); }
namespace atomics_and_races { LessonDef lesson(); }
namespace atomic_scopes { LessonDef lesson(); }
namespace grid_sync { LessonDef lesson(); }
namespace clusters { LessonDef lesson(); }
}  // namespace coop::lessons
