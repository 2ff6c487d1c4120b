#include "visual/thread_colors.hpp"

#include <algorithm>

namespace coop::visual {

ColorBy drawn_color_by(ColorBy by, GroupKind kind, const ThreadSnapshot& snap) {
  if (by != ColorBy::Group) return by;
  const std::vector<GroupKind>& kinds = snap.group_kinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end() ? by : ColorBy::HardwareBlock;
}

CellColour classify_cell(const ThreadSnapshot& snap, ColorBy by, GroupKind kind,
                         uint32_t block_threads, uint32_t t) {
  CellColour c;
  if (snap.activity(t) == ThreadActivity::NotStarted) return c;
  const uint32_t bt = std::max(1u, block_threads);
  c.cls = CellClass::Coloured;
  if (by == ColorBy::HardwareBlock) {
    c.index = t / bt;
    c.rank = t % bt;
  } else if (by == ColorBy::HardwareWarp) {
    c.index = t % bt / 32;
    c.rank = t % 32;
  } else if (const GroupMembership m = snap.membership(t, kind); m.member()) {
    c.index = m.id;
    c.rank = m.rank;
  } else if (const TimelineModel* model = snap.model(); model && !model->ever_joins(t, kind)) {
    c.cls = CellClass::NotMember;
  } else {
    c.cls = CellClass::NoGroup;
  }
  return c;
}

double ColourCensus::grey_fraction() const {
  const uint32_t started = threads - not_started;
  return started ? double(no_group) / double(started) : 0.0;
}

double ColourCensus::not_member_fraction() const {
  const uint32_t started = threads - not_started;
  return started ? double(not_member) / double(started) : 0.0;
}

double ColourCensus::not_started_fraction() const {
  return threads ? double(not_started) / double(threads) : 0.0;
}

ColourCensus colour_census(const ThreadSnapshot& snap, ColorBy by, GroupKind kind,
                           uint32_t block_threads) {
  ColourCensus c;
  c.threads = snap.thread_count();
  for (uint32_t t = 0; t < c.threads; ++t) {
    const CellClass cls = classify_cell(snap, by, kind, block_threads, t).cls;
    c.not_started += cls == CellClass::NotStarted;
    c.no_group += cls == CellClass::NoGroup;
    c.not_member += cls == CellClass::NotMember;
  }
  return c;
}

GroupKind default_color_group(const TimelineModel& model) {
  ThreadSnapshot end;
  end.update(model, model.size());
  const std::vector<GroupKind>& kinds = end.group_kinds();
  if (kinds.empty()) return GroupKind::None;
  // Partitions are finer than blocks and grids: the finest one most threads belong to.
  for (GroupKind k : {GroupKind::Coalesced, GroupKind::Labeled, GroupKind::Binary,
                      GroupKind::Stride, GroupKind::Tile, GroupKind::Cluster, GroupKind::Block}) {
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) continue;
    uint32_t members = 0;
    for (uint32_t t = 0; t < end.thread_count(); ++t) members += end.membership(t, k).member();
    if (2 * members >= end.thread_count()) return k;
  }
  return std::find(kinds.begin(), kinds.end(), GroupKind::Block) != kinds.end() ? GroupKind::Block
                                                                               : kinds.front();
}

}  // namespace coop::visual
