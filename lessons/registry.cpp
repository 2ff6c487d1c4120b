#include <algorithm>

#include "lessons/lesson.hpp"
#include "lessons/registry_entries.hpp"

namespace coop::lessons {

const std::vector<LessonDef>& registry() {
  static const std::vector<LessonDef> lessons = [] {
    std::vector<LessonDef> v = {
        block_reduce::lesson(),
        reduction_perf::lesson(),
        occupancy::lesson(),
        block_scheduling::lesson(),
        groups_and_ranks::lesson(),
        tiled_partitions::lesson(),
        labeled_binary_stride::lesson(),
        synchronization_hazards::lesson(),
        split_barriers::lesson(),
        collectives::lesson(),
        warp_collectives::lesson(),
        divergence_and_coalesced::lesson(),
        async_data_movement::lesson(),
        atomics_and_races::lesson(),
        atomic_scopes::lesson(),
        grid_sync::lesson(),
        clusters::lesson(),
    };
    std::sort(v.begin(), v.end(),
              [](const LessonDef& a, const LessonDef& b) { return a.order < b.order; });
    return v;
  }();
  return lessons;
}

}  // namespace coop::lessons
