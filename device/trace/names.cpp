#include "device/trace/names.hpp"

#include <array>
#include <utility>

namespace coop {
namespace {

constexpr std::array<std::string_view, size_t(EventKind::Count)> kEventKinds = {
    "none",         "group_create", "barrier", "barrier_arrive", "barrier_wait", "collective",
    "invoke_one",   "atomic",       "load",    "store",          "copy_issue",   "copy_wait",
    "thread_begin", "thread_end",   "note",    "fault",          "fence"};

constexpr std::array<std::string_view, size_t(GroupKind::Count)> kGroupKinds = {
    "none",      "thread",  "block",  "grid",   "cluster", "tile",
    "coalesced", "labeled", "binary", "stride", "warp",    "cuda_barrier"};

constexpr std::array<std::string_view, 9> kValueTypes = {"none", "i32", "u32", "i64", "u64",
                                                         "f32", "f64", "bool", "mask"};

constexpr std::pair<Op, std::string_view> kOps[] = {
    {Op::None, "none"},          {Op::Plus, "plus"},
    {Op::Less, "less"},          {Op::Greater, "greater"},
    {Op::BitAnd, "bit_and"},     {Op::BitOr, "bit_or"},
    {Op::BitXor, "bit_xor"},     {Op::Reduce, "reduce"},
    {Op::InclusiveScan, "inclusive_scan"}, {Op::ExclusiveScan, "exclusive_scan"},
    {Op::Shfl, "shfl"},          {Op::ShflUp, "shfl_up"},
    {Op::ShflDown, "shfl_down"}, {Op::ShflXor, "shfl_xor"},
    {Op::Any, "any"},            {Op::All, "all"},
    {Op::Ballot, "ballot"},      {Op::MatchAny, "match_any"},
    {Op::MatchAll, "match_all"}, {Op::AtomicAdd, "atomic_add"},
    {Op::AtomicSub, "atomic_sub"}, {Op::AtomicMin, "atomic_min"},
    {Op::AtomicMax, "atomic_max"}, {Op::AtomicExch, "atomic_exch"},
    {Op::AtomicCas, "atomic_cas"}, {Op::AtomicAnd, "atomic_and"},
    {Op::AtomicOr, "atomic_or"}, {Op::AtomicXor, "atomic_xor"},
    {Op::AtomicInc, "atomic_inc"}, {Op::AtomicDec, "atomic_dec"},
    {Op::AtomicLoad, "atomic_load"}, {Op::AtomicStore, "atomic_store"},
};

template <class Enum, size_t N>
std::optional<Enum> find_named(const std::array<std::string_view, N>& names, std::string_view n) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == n) return Enum(i);
  return std::nullopt;
}

}  // namespace

std::string_view name_of(EventKind k) {
  return size_t(k) < kEventKinds.size() ? kEventKinds[size_t(k)] : "unknown";
}
std::string_view name_of(GroupKind k) {
  return size_t(k) < kGroupKinds.size() ? kGroupKinds[size_t(k)] : "unknown";
}
std::string_view name_of(ValueType t) {
  return size_t(t) < kValueTypes.size() ? kValueTypes[size_t(t)] : "unknown";
}
std::string_view name_of(Op op) {
  for (const auto& [o, n] : kOps)
    if (o == op) return n;
  return "unknown";
}

std::optional<EventKind> event_kind_named(std::string_view n) {
  return find_named<EventKind>(kEventKinds, n);
}
std::optional<GroupKind> group_kind_named(std::string_view n) {
  return find_named<GroupKind>(kGroupKinds, n);
}
std::optional<ValueType> value_type_named(std::string_view n) {
  return find_named<ValueType>(kValueTypes, n);
}
std::optional<Op> op_named(std::string_view n) {
  for (const auto& [o, name] : kOps)
    if (name == n) return o;
  return std::nullopt;
}

bool is_known_op(uint8_t op) {
  for (const auto& [o, n] : kOps)
    if (uint8_t(o) == op) return true;
  return false;
}

}  // namespace coop
