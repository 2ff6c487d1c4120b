// What the user's program printed, in the panel a lesson's text has: a desktop user has no
// terminal to read it in. Labelled as the program's own words: "FAILED" there is the program's
// verdict on itself, not coopviz's.
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

void draw_program_output(GuiApp& app) {
  const visual::ViewStyle& st = visual::view_style();
  const ProgramView& p = app.program;
  panel_title(("What " + p.file + " printed").c_str());
  visual::text_dim_wrapped(
      "Its own standard output and error, as it wrote them: what it says of "
      "its results is its own check, not coopviz's.");
  if (!p.build_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    visual::text_wrapped("The saved version does not compile; its errors are marked in the code:");
    for (const CompileError& e : p.errors) visual::text_wrapped(e.text);
    if (p.errors.empty()) visual::text_wrapped(p.build_error.substr(0, 2000));
    ImGui::PopStyleColor();
    if (p.output_known) visual::text_dim_wrapped("Below: what the last version that ran printed.");
  }
  ImGui::Separator();
  ImGui::BeginChild("program_output", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  if (!p.output_known)
    ImGui::TextDisabled("It has not run yet.");
  else if (p.output.empty())
    ImGui::TextDisabled("It printed nothing.");
  else {
    visual::push_font(st.fonts.mono);
    ImGui::TextUnformatted(p.output.data(), p.output.data() + p.output.size());
    visual::pop_font(st.fonts.mono);
  }
  ImGui::EndChild();
}

}  // namespace coop::app
