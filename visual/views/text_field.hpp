// A one-line field for a value typed as text (a number, a dim3 such as "8,4,2"), drawn with ImGui
// from visual/field_text.hpp's FieldText.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "visual/field_text.hpp"

namespace coop::visual {

// Shows `shown` (the current value) until the user edits it and keeps their text while they
// type (a click into the field selects it all, so that what they type replaces it); when they
// finish (Enter, or leaving the field) calls `commit` with the text. A refusal
// keeps the text, frames the field in the error colour and shows the message under it. Returns
// true when a value was taken. The width is the next item width (ImGui::SetNextItemWidth).
bool text_field(const char* id, FieldText& field, const std::string& shown,
                const std::function<Status(std::string_view)>& commit);

}  // namespace coop::visual
