// The top bar: the lesson picker, the window-wide switches (Presentation, Export PNG, Help) and
// the lines the whole window needs to see (the emulator banner, a replay, the last notice).
#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"
#include "visual/views/text_field.hpp"

namespace coop::app {
namespace {

// The lesson picker, `width` pixels wide: every lesson's whole title, in teaching order.
void lesson_picker(GuiApp& app, double now, float width) {
  const auto& all = lessons::registry();
  const lessons::LessonDef* shown = app.lesson_def();
  const std::string current = app.program_shown() ? "your program: " + app.program.file
                              : shown                ? shown->title
                              : app.replay           ? "a saved trace"
                                                     : "Pick a lesson";
  ImGui::SetNextItemWidth(width);
  const std::string preview = visual::fit_words(
      current, width - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2);
  const bool open = ImGui::BeginCombo("##lesson", preview.c_str(), ImGuiComboFlags_HeightLarge);
  if (preview != current && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", current.c_str());
  if (open) {
    // The program opened with the window stays one pick away while lessons are shown.
    if (!app.program.file.empty()) {
      if (ImGui::Selectable(("Your program: " + app.program.file).c_str(), app.program_shown()))
        app.show_program();
      ImGui::Separator();
    }
    for (size_t i = 0; i < all.size(); ++i) {
      const lessons::LessonDef& l = all[i];
      ImGui::PushID(int(i));
      const std::string label = std::to_string(i + 1) + ". " + l.title;
      if (ImGui::Selectable(label.c_str(), app.lesson == int(i) && !app.replay))
        app.select_lesson(int(i), now);
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::Text("%s  (%s)", l.id.c_str(), lessons::to_string(l.level));
        std::string concepts;
        for (const std::string& c : l.concepts) concepts += (concepts.empty() ? "" : ", ") + c;
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextDisabled("%s", concepts.c_str());
        ImGui::PopTextWrapPos();
        if (!l.runs_on_gpu) ImGui::TextDisabled("runs on the emulator only");
        ImGui::EndTooltip();
      }
      ImGui::PopID();
    }
    ImGui::Separator();
    // A teacher's class: the lessons, exercises and questions of a pack file, in order.
    if (ImGui::Selectable("Open a class pack...")) app.pack.show_open = true;
    ImGui::EndCombo();
  }
}

}  // namespace

void draw_top_bar(GuiApp& app, double now) {
  const visual::ViewStyle& st = visual::view_style();
  visual::push_font(st.fonts.bold);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("coopviz");
  visual::pop_font(st.fonts.bold);
  ImGui::SameLine(0, ImGui::GetFontSize());
  // Right-aligned: run state and the window-wide switches.
  const char* state = app.running() ? "running..." : "";
  const ImGuiStyle& style = ImGui::GetStyle();
  const std::string score = app.questions.session_asked > 0
                                ? std::to_string(app.questions.session_right) + "/" +
                                      std::to_string(app.questions.session_asked) + " right"
                                : "";
  const float switches_w = ImGui::CalcTextSize("Questions").x + ImGui::GetFrameHeight() +
                           ImGui::CalcTextSize(score.c_str()).x + style.ItemSpacing.x * 2 +
                           style.ItemInnerSpacing.x + ImGui::CalcTextSize("Presentation").x +
                           ImGui::GetFrameHeight() + ImGui::CalcTextSize("Export PNG").x +
                           ImGui::CalcTextSize("Help").x + style.FramePadding.x * 6 +
                           style.ItemSpacing.x * 4 + ImGui::CalcTextSize(state).x;
  // The lesson picker: every lesson's whole title, in teaching order. In a narrow window (a
  // projector in presentation mode) the switches go to a line of their own.
  const float picker_w = ImGui::GetContentRegionAvail().x - switches_w - ImGui::GetFontSize();
  const bool one_line = picker_w >= ImGui::GetFontSize() * 12;
  lesson_picker(app, now, one_line ? picker_w : ImGui::GetContentRegionAvail().x);
  if (one_line)
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + style.ItemSpacing.x,
                             ImGui::GetWindowContentRegionMax().x - switches_w));
  if (app.running()) {
    ImGui::TextColored(ImColor(st.colors.warning), "%s", state);
    ImGui::SameLine();
  }
  draw_question_switch(app);
  ImGui::SameLine();
  if (ImGui::Checkbox("Presentation", &app.presentation)) app.say("");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Large fonts and high contrast (F11: full screen)");
  ImGui::SameLine();
  if (ImGui::Button("Export PNG")) ImGui::OpenPopup("export");
  if (ImGui::BeginPopup("export")) {
    // The folder is chosen here and remembered; the file is named after the lesson and time.
    ImGui::TextUnformatted("Save a picture of the window in the folder");
    static visual::FieldText folder;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
    visual::text_field("##folder", folder, app.export_folder(), [&](std::string_view text) {
      if (text.empty()) return Status::error("give a folder (it is made if it does not exist)");
      app.export_dir = std::string(text);
      return Status();
    });
    if (ImGui::Button("Save picture")) {
      app.export_requested = 2;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Help")) ImGui::OpenPopup("help");
  if (ImGui::BeginPopup("help")) {
    ImGui::TextDisabled("Keys");
    ImGui::TextUnformatted("Space: play / pause    Left, Right: one event");
    ImGui::TextUnformatted("Shift+Left, Shift+Right (Up, Down): one barrier phase");
    ImGui::TextUnformatted("Home, End: start and end    F11: full screen");
    ImGui::Separator();
    ImGui::TextDisabled("For developers");
    ImGui::MenuItem("Every view on synthetic data", nullptr, &app.show_demo);
    ImGui::EndPopup();
  }
  draw_pack_bar(app, now);
  // The emulator banner: students must know when they are not looking at a real GPU.
  if (app.outcome && !app.outcome->banner.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.warning));
    visual::text_wrapped(app.outcome->banner);
    ImGui::PopStyleColor();
  }
  if (app.replay) {
    if (!app.program_shown())
      ImGui::TextDisabled("Replaying %s: nothing runs while it is shown.", app.trace_path.c_str());
    else if (!app.model())
      visual::text_dim_wrapped(app.program.file +
                               " has not run yet: save it in any editor to build and run it.");
    else
      visual::text_dim_wrapped("The launches of " + app.program.file + ", run on the " +
                               (app.model() && app.model()->trace().header.backend == Backend::Gpu
                                    ? "GPU"
                                    : "emulator") +
                               ": save it in any editor to run it again.");
  }
  if (!app.notice.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, app.notice_is_error
                                             ? ImGui::ColorConvertU32ToFloat4(st.colors.error)
                                             : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    visual::text_wrapped(app.notice);
    ImGui::PopStyleColor();
  }
}

}  // namespace coop::app
