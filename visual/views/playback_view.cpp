#include "visual/views/playback_view.hpp"

#include <algorithm>
#include <string>

#include <imgui.h>

#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

bool button(const char* label, const char* tip) {
  const bool pressed = ImGui::Button(label);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  return pressed;
}

}  // namespace

bool draw_playback_bar(const TimelineModel& model, PlaybackState& p) {
  const size_t before = p.cursor;
  ImGui::PushID("playback");
  const ImGuiStyle& style = ImGui::GetStyle();
  const std::string status = playback_status(model, p);
  // Speed and Loop, at the right: measured, so a large font never pushes Loop out.
  const float right_w = ImGui::GetFontSize() * 4.5f + style.ItemSpacing.x * 2 +
                        ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                        ImGui::CalcTextSize("Loop").x;
  // U+25C0 / U+25B6 are left / right triangles (DejaVu Sans has them). Where the bar is narrow
  // (a projector in presentation mode) the buttons keep only their arrows; tooltips name them.
  const char* full[] = {"|\xe2\x97\x80", "\xe2\x97\x80\xe2\x97\x80 phase", "\xe2\x97\x80 event",
                        "\xe2\x97\x80 Pause", "event \xe2\x96\xb6", "phase \xe2\x96\xb6\xe2\x96\xb6",
                        "\xe2\x96\xb6|"};
  float buttons_w = 0;
  for (const char* label : full)
    buttons_w += ImGui::CalcTextSize(label).x + style.FramePadding.x * 2 + style.ItemSpacing.x;
  const bool compact = ImGui::GetContentRegionAvail().x <
                       buttons_w + ImGui::GetFontSize() * 8 + ImGui::CalcTextSize(status.c_str()).x +
                           right_w + style.ItemSpacing.x * 3;
  if (button("|\xe2\x97\x80", "Start (Home)")) seek(p, model, 0);
  ImGui::SameLine();
  if (button(compact ? "\xe2\x97\x80\xe2\x97\x80" : "\xe2\x97\x80\xe2\x97\x80 phase",
             "Previous barrier phase (Shift+Left or Down)"))
    step_phases(p, model, -1);
  ImGui::SameLine();
  if (button(compact ? "\xe2\x97\x80" : "\xe2\x97\x80 event", "Previous event (Left)"))
    step_events(p, model, -1);
  ImGui::SameLine();
  const float play_w =
      ImGui::CalcTextSize(compact ? "Pause" : "\xe2\x97\x80 Pause").x + style.FramePadding.x * 2;
  if (ImGui::Button(p.playing ? "Pause" : compact ? "Play" : "\xe2\x96\xb6 Play", ImVec2(play_w, 0))) {
    p.playing = !p.playing;
    if (p.playing && p.cursor >= model.size()) seek(p, model, 0);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play / pause (Space)");
  ImGui::SameLine();
  if (button(compact ? "\xe2\x96\xb6" : "event \xe2\x96\xb6", "Next event (Right)"))
    step_events(p, model, 1);
  ImGui::SameLine();
  if (button(compact ? "\xe2\x96\xb6\xe2\x96\xb6" : "phase \xe2\x96\xb6\xe2\x96\xb6",
             "Next barrier phase (Shift+Right or Up)"))
    step_phases(p, model, 1);
  ImGui::SameLine();
  if (button("\xe2\x96\xb6|", "End (End)")) seek(p, model, model.size());
  ImGui::SameLine();
  // The scrubber keeps at least 8 characters' width: a narrow bar drops the status's last parts
  // ("t=...", then the phase) rather than squeezing it to nothing.
  std::string shown = status;
  const float room = ImGui::GetContentRegionAvail().x - right_w - style.ItemSpacing.x * 3 -
                     ImGui::GetFontSize() * 8;
  for (size_t cut; ImGui::CalcTextSize(shown.c_str()).x > room &&
                   (cut = shown.rfind("  \xc2\xb7")) != std::string::npos;)
    shown.resize(cut);
  const float status_w = ImGui::CalcTextSize(shown.c_str()).x;
  ImGui::SetNextItemWidth(std::max(40.0f, ImGui::GetContentRegionAvail().x - right_w - status_w -
                                              style.ItemSpacing.x * 3));
  int cursor = int(std::min<size_t>(p.cursor, size_t(INT32_MAX)));
  if (ImGui::SliderInt("##scrub", &cursor, 0, int(std::min<size_t>(model.size(), INT32_MAX)), "",
                       ImGuiSliderFlags_NoInput | ImGuiSliderFlags_AlwaysClamp))
    seek(p, model, size_t(cursor));
  ImGui::SameLine();
  ImGui::TextUnformatted(shown.c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\nevent: events played so far, of all this launch recorded\n"
                      "phase: barrier phases completed so far, counting every block's and "
                      "group's barriers in the launch (the phase buttons step between them)",
                      status.c_str());
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4.5f);
  ImGui::SliderFloat("##speed", &p.speed, 0.1f, 20.0f, "%.1fx",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_NoInput |
                         ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Playing speed");
  ImGui::SameLine();
  ImGui::Checkbox("Loop", &p.loop);
  ImGui::PopID();
  return p.cursor != before;
}

bool handle_playback_keys(const TimelineModel& model, PlaybackState& p) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return false;
  const size_t before = p.cursor;
  auto pressed = [](ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); };
  if (pressed(ImGuiKey_Space)) {
    p.playing = !p.playing;
    if (p.playing && p.cursor >= model.size()) seek(p, model, 0);
  }
  if (pressed(ImGuiKey_RightArrow)) {
    if (io.KeyShift)
      step_phases(p, model, 1);
    else
      step_events(p, model, 1);
  }
  if (pressed(ImGuiKey_LeftArrow)) {
    if (io.KeyShift)
      step_phases(p, model, -1);
    else
      step_events(p, model, -1);
  }
  if (pressed(ImGuiKey_UpArrow)) step_phases(p, model, 1);
  if (pressed(ImGuiKey_DownArrow)) step_phases(p, model, -1);
  if (pressed(ImGuiKey_Home)) seek(p, model, 0);
  if (pressed(ImGuiKey_End)) seek(p, model, model.size());
  return p.cursor != before;
}

}  // namespace coop::visual
