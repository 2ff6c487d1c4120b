#include "visual/views/text_field.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include "visual/views/style.hpp"

namespace coop::visual {

bool text_field(const char* id, FieldText& field, const std::string& shown,
                const std::function<Status(std::string_view)>& commit) {
  const ViewStyle& st = view_style();
  // Not being typed into and not refused: the field shows the value.
  if (!field.editing && field.error.empty()) field.typed = shown;
  const bool refused = !field.error.empty();
  if (refused) {
    ImGui::PushStyleColor(ImGuiCol_Border, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 2.0f);
  }
  // A click selects what the field holds, so that the value typed replaces it: typed after it, a
  // valid "16" became "abc16" and the refusal of 'abc' came back.
  ImGui::InputText(id, &field.typed, ImGuiInputTextFlags_AutoSelectAll);
  if (refused) {
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
  }
  field.editing = ImGui::IsItemActive();
  bool taken = false;
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    const Status s = commit(field.typed);
    field.error = s ? "" : s.message();
    taken = s.ok();
  }
  if (!field.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(field.error.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  return taken;
}

}  // namespace coop::visual
