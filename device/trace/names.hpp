// Names of the event enums, as written in JSON traces and shown in the views.
#pragma once

#include <optional>
#include <string_view>

#include "device/trace/event.hpp"

namespace coop {

std::string_view name_of(EventKind k);
std::string_view name_of(GroupKind k);
std::string_view name_of(Op op);
std::string_view name_of(ValueType t);

std::optional<EventKind> event_kind_named(std::string_view name);
std::optional<GroupKind> group_kind_named(std::string_view name);
std::optional<Op> op_named(std::string_view name);
std::optional<ValueType> value_type_named(std::string_view name);

// True if `op` is one of the values Op defines (loaded files may hold anything).
bool is_known_op(uint8_t op);

}  // namespace coop
