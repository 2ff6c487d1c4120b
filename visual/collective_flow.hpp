// One collective call seen whole: every member's input and output, and for shuffles which
// rank each member read from. The data-flow view draws it as lanes with arrows (shuffles) or as
// a combining tree (reduce), values written in.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "visual/timeline_model.hpp"

namespace coop::visual {

struct CollectiveMember {
  uint32_t thread = 0;
  uint64_t in = 0, out = 0;  // Event::a and Event::b
  int64_t source = -1;       // shuffles: the rank whose value this member received; -1 if none
  size_t position = 0;
  bool present = false;  // false: this rank's event was not recorded (or it did not take part)
};

struct CollectiveCall {
  Op op = Op::None;
  GroupKind group_kind = GroupKind::None;
  uint32_t group_id = 0;
  uint32_t block = 0;
  uint16_t line = 0;
  uint32_t extra = 0;  // delta / source lane / reduce operator, as recorded
  ValueType type = ValueType::None;
  std::vector<CollectiveMember> members;  // by rank
};

// The rank a shuffle member of `rank` reads from in a group of `size` (the CUDA rules: out of
// range reads return the caller's own value); -1 for ops that are not shuffles.
int64_t shuffle_source(Op op, uint32_t rank, uint32_t size, uint32_t arg);

// The collective call whose event is the latest one before `cursor` (optionally only on
// `line`), gathered across its group; nullopt if none happened yet.
std::optional<CollectiveCall> collective_before(const TimelineModel& model, size_t cursor,
                                                int line = 0);

// Pairwise combining levels of a reduce: level 0 are the inputs, each next level combines
// neighbours (r, r + 1) of the level before with `op` (Op::Plus, Less, ...), down to one value.
std::vector<std::vector<uint64_t>> reduce_tree(const std::vector<uint64_t>& inputs, Op op,
                                               ValueType type);

}  // namespace coop::visual
