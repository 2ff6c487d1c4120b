// The class pack's navigator (a line under the top bar: Previous, the items with the current one
// marked, Next, the summary, the teacher's notes), the window that opens a pack and the
// classroom summary window. What they change is in pack_navigator.cpp.
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/views/style.hpp"
#include "visual/views/text_field.hpp"

namespace coop::app {
namespace {

// "3 of 9: lesson tiled-partitions, step 2".
std::string item_line(const Pack& pack, int index) {
  return std::to_string(index + 1) + " of " + std::to_string(pack.items.size()) + ": " +
         pack.items[size_t(index)].label();
}

// Every item in order, the current one marked; choosing one opens it.
void item_picker(GuiApp& app, double now, float width) {
  PackNavigator& nav = app.pack;
  const std::string shown =
      nav.item() ? item_line(*nav.pack, nav.current) : std::string("choose an item");
  ImGui::SetNextItemWidth(width);
  const std::string preview = visual::fit_words(
      shown, width - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2);
  if (!ImGui::BeginCombo("##pack_item", preview.c_str(), ImGuiComboFlags_HeightLarge)) return;
  for (size_t i = 0; i < nav.pack->items.size(); ++i) {
    const PackItem& item = nav.pack->items[i];
    ImGui::PushID(int(i));
    const bool current = int(i) == nav.current;
    const std::string label = (current ? "> " : "  ") + std::to_string(i + 1) + ". " + item.label();
    if (ImGui::Selectable(label.c_str(), current)) go_to_pack_item(app, int(i), now);
    if (!item.notes.empty() && ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(item.notes.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::PopID();
  }
  ImGui::EndCombo();
}

// Begins a window sized to its content (so that presentation mode's larger font never cuts it
// off), centred across the app with its top at `top` of the app's height.
bool begin_fitted_window(const char* title, bool* open, float top) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * top),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0));
  return ImGui::Begin(title, open,
                      ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
}

void open_window(GuiApp& app, double now) {
  PackNavigator& nav = app.pack;
  if (begin_fitted_window("Open a class pack", &nav.show_open, 0.2f)) {
    ImGui::TextUnformatted("A pack file lists a class's lessons, exercises and questions.");
    ImGui::TextDisabled("Its format: lessons/README.md, \"Class packs\".");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    visual::text_field("##pack_path", nav.path_field, nav.path, [&](std::string_view text) {
      if (text.empty()) return Status::error("give the pack file's path");
      if (Status s = open_pack(app, std::string(text), 0, true, now); !s) return s;
      nav.show_open = false;
      return Status();
    });
    ImGui::TextDisabled("Type the path and press Enter.");
  }
  ImGui::End();
}

void summary_window(GuiApp& app) {
  if (begin_fitted_window("Classroom summary", &app.pack.show_summary, 0.1f)) {
    // Read each frame it is shown: a check in a terminal beside the window counts at once.
    Result<PackSummary> s = open_pack_summary(app);
    if (!s) {
      visual::text_wrapped(s.message());
    } else {
      panel_title(s->title.c_str());
      ImGui::Text("Exercises: %d of %zu solved on this machine, %d attempted", s->solved,
                  s->exercises.size(), s->attempted);
      const std::string from =
          app.pack.progress_path.empty() ? default_progress_path() : app.pack.progress_path;
      ImGui::TextDisabled("From %s", from.empty() ? "no progress file" : from.c_str());
      const ImGuiTableFlags flags =
          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
      if (!s->exercises.empty() && ImGui::BeginTable("exercises", 4, flags)) {
        for (const char* head : {"Exercise", "Lesson", "Solved", "Attempts"})
          ImGui::TableSetupColumn(head);
        ImGui::TableHeadersRow();
        for (const PackSummary::ExerciseRow& e : s->exercises) {
          ImGui::TableNextColumn();
          ImGui::Text("%s: %s", e.id.c_str(), e.title.c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(e.lesson.c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(e.solved ? "solved" : e.attempts > 0 ? "not yet" : "-");
          ImGui::TableNextColumn();
          ImGui::Text("%d", e.attempts);
        }
        ImGui::EndTable();
      }
      ImGui::Spacing();
      ImGui::TextDisabled("Lessons, in order");
      for (size_t i = 0; i < s->lessons.size(); ++i)
        ImGui::Text("%zu. %s, step %d", i + 1, s->lessons[i].id.c_str(), s->lessons[i].step + 1);
      ImGui::Spacing();
      ImGui::TextDisabled("Questions, in order");
      for (size_t i = 0; i < s->questions.size(); ++i)
        ImGui::Text("%zu. %s/%s", i + 1, s->questions[i].lesson.c_str(),
                    s->questions[i].id.c_str());
    }
  }
  ImGui::End();
}

}  // namespace

void draw_pack_bar(GuiApp& app, double now) {
  PackNavigator& nav = app.pack;
  if (!nav.pack) return;
  const float font = ImGui::GetFontSize();
  ImGui::BeginDisabled(nav.current <= 0);
  if (ImGui::ArrowButton("##pack_prev", ImGuiDir_Left)) step_pack(app, -1, now);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Previous item of the pack");
  ImGui::SameLine();
  ImGui::BeginDisabled(nav.current + 1 >= int(nav.pack->items.size()));
  if (ImGui::ArrowButton("##pack_next", ImGuiDir_Right)) step_pack(app, 1, now);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Next item of the pack");
  ImGui::SameLine();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons_w = ImGui::CalcTextSize("Summary").x + ImGui::CalcTextSize("Close").x +
                          style.FramePadding.x * 4 + style.ItemSpacing.x * 3;
  const std::string title = visual::fit_words(nav.pack->title, font * 16);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(title.c_str());
  if (title != nav.pack->title && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", nav.pack->title.c_str());
  ImGui::SameLine();
  item_picker(app, now, std::max(font * 8, ImGui::GetContentRegionAvail().x - buttons_w));
  ImGui::SameLine();
  if (ImGui::Button("Summary")) nav.show_summary = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The pack's exercises solved on this machine, its lessons and questions");
  ImGui::SameLine();
  if (ImGui::Button("Close")) return close_pack(app);
  // The notes are the teacher's: not shown to the room in presentation mode.
  if (const PackItem* item = nav.item(); item && !item->notes.empty() && !app.presentation)
    visual::text_dim_wrapped("Notes: " + item->notes);
}

void draw_pack_windows(GuiApp& app, double now) {
  if (app.pack.show_open) open_window(app, now);
  if (app.pack.show_summary && app.pack.pack) summary_window(app);
}

}  // namespace coop::app
