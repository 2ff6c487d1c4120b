// One factory per lesson folder; registry.cpp lists them in teaching order.
#pragma once

#include "lessons/lesson.hpp"

namespace coop::lessons {
namespace block_reduce { LessonDef lesson(); }
namespace reduction_perf { LessonDef lesson(); }
namespace occupancy { LessonDef lesson(); }
namespace block_scheduling { LessonDef lesson(); }
namespace groups_and_ranks { LessonDef lesson(); }
namespace tiled_partitions { LessonDef lesson(); }
namespace labeled_binary_stride { LessonDef lesson(); }
namespace synchronization_hazards { LessonDef lesson(); }
namespace split_barriers { LessonDef lesson(); }
namespace collectives { LessonDef lesson(); }
namespace warp_collectives { LessonDef lesson(); }
namespace divergence_and_coalesced { LessonDef lesson(); }
namespace async_data_movement { LessonDef lesson(); }
namespace atomics_and_races { LessonDef lesson(); }
namespace atomic_scopes { LessonDef lesson(); }
namespace grid_sync { LessonDef lesson(); }
namespace clusters { LessonDef lesson(); }
}  // namespace coop::lessons
