// How the thread grid colours a thread: by a kind of group it belongs to (tile, label, ...), by
// its hardware block or by its warp, and whether it has started or has such a group yet. Pure
// data: the grid view draws from it, and `coopviz steps` measures with it what the window shows.
#pragma once

#include <cstdint>

#include "visual/thread_snapshot.hpp"

namespace coop::visual {

enum class ColorBy : uint8_t {
  Group,          // a GroupKind, from GroupCreate events
  HardwareBlock,  // blockIdx, whether or not the kernel made a block group
  HardwareWarp,   // warp within the block
};

// What one thread's cell shows.
enum class CellClass : uint8_t {
  NotStarted,  // no event of the thread yet
  NoGroup,     // colouring by a group kind the thread will create but has not yet: drawn grey
  NotMember,   // the thread never creates a group of that kind in this launch (it took another
               // branch): drawn as an empty cell
  Coloured,    // colour `index` of the palette
};

struct CellColour {
  CellClass cls = CellClass::NotStarted;
  uint32_t index = 0;  // palette index (group id, block or warp) when Coloured
  uint32_t rank = 0;   // the number a cell shows: rank in the group, in the block or lane
};

// The colouring drawn for a choice: by group falls back to blockIdx when the launch creates no
// group of `kind` (every cell would be grey).
ColorBy drawn_color_by(ColorBy by, GroupKind kind, const ThreadSnapshot& snapshot);

// The cell of thread `t` at the snapshot's cursor, coloured by `by` (and `kind` for groups).
CellColour classify_cell(const ThreadSnapshot& snapshot, ColorBy by, GroupKind kind,
                         uint32_t block_threads, uint32_t t);

// Shares of the launch's threads as the grid draws them at the snapshot's cursor.
struct ColourCensus {
  uint32_t threads = 0;      // threads of the launch
  uint32_t not_started = 0;  // no event yet
  uint32_t no_group = 0;     // started, but drawn as "no group yet"
  uint32_t not_member = 0;   // started, and never in a group of the kind coloured by
  // Of the started threads, the share drawn grey (0 when none has started).
  double grey_fraction() const;
  double not_member_fraction() const;  // of the started threads
  double not_started_fraction() const;
};
ColourCensus colour_census(const ThreadSnapshot& snapshot, ColorBy by, GroupKind kind,
                           uint32_t block_threads);

// The group kind to colour by when none is chosen: the finest kind the launch creates that most
// of its threads belong to by its end, or Block; None when the launch creates no groups.
GroupKind default_color_group(const TimelineModel& model);

}  // namespace coop::visual
