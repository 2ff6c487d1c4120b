// Fonts (DejaVu Sans, JetBrains Mono from Debian's font packages; ImGui's own font if they are
// missing) and the ImGui style, for a HiDPI scale and the classroom presentation mode.
#include "app/gui/theme.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <imgui.h>

#include "device/paths/data_dirs.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// Latin-1, punctuation (· – — …), arrows, the minus sign and the geometric shapes (▶ ◀ ●).
const ImWchar kGlyphs[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF,
                           0x2212, 0x2212, 0x25A0, 0x25FF, 0};

ImFont* load(const char* relative, float size, const char* fallback = nullptr) {
  ImGuiIO& io = ImGui::GetIO();
  const std::filesystem::path fonts = data_dirs().fonts;
  for (const char* name : {relative, fallback}) {
    if (!name) continue;
    const std::string path = (fonts / name).string();
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
      ImFontConfig config;
      config.OversampleH = 2;
      config.OversampleV = 1;
      if (ImFont* f = io.Fonts->AddFontFromFileTTF(path.c_str(), size, &config, kGlyphs)) return f;
    }
  }
  return nullptr;
}

}  // namespace

float presentation_font_px(int width, int height) {
  // 23 px from 1920x1080 up; 19 px at 1024x768 and 18 px at 1280x720, where the line height
  // decides; never under 16 px, more than the normal mode's 15.
  return std::clamp(std::round(std::min(float(width) / 53.0f, float(height) / 40.0f)), 16.0f, 23.0f);
}

void build_theme(float scale, bool presentation, float presentation_px) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  visual::ViewStyle vs;
  vs.scale = scale;
  vs.high_contrast = presentation;
  vs.colors = presentation ? visual::high_contrast_colors() : visual::dark_colors();
  // Presentation mode is for the back row of a classroom: larger, as far as the display allows
  // (presentation_px is in the display's pixels, already scaled).
  const float base = presentation ? presentation_px : 15.0f * scale;
  vs.fonts.text = load("dejavu/DejaVuSans.ttf", base);
  vs.fonts.bold = load("dejavu/DejaVuSans-Bold.ttf", base);
  vs.fonts.italic = load("dejavu/DejaVuSans-Oblique.ttf", base);
  vs.fonts.heading = load("dejavu/DejaVuSans-Bold.ttf", base * 1.4f);
  // Presenting, the code is a little smaller than the text, so that 60 columns of a kernel fit
  // beside the threads; the numbers in thread cells get a larger font than the text, whose digits
  // (a font's size includes its ascent and descent) still come out about 14 px tall.
  vs.fonts.mono = load("jetbrains-mono/JetBrainsMono-Regular.ttf",
                       base * (presentation ? 0.8f : 0.95f), "dejavu/DejaVuSansMono.ttf");
  vs.fonts.small = load("jetbrains-mono/JetBrainsMono-Bold.ttf", base * (presentation ? 1.3f : 0.8f),
                        "dejavu/DejaVuSansMono-Bold.ttf");
  if (!vs.fonts.text) {
    ImFontConfig config;
    config.SizePixels = 13.0f * scale * (presentation ? 1.5f : 1.0f);
    vs.fonts.text = io.Fonts->AddFontDefault(&config);
  }
  io.FontDefault = vs.fonts.text;
  visual::set_view_style(vs);

  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowPadding = ImVec2(8, 8);
  style.FramePadding = ImVec2(6, 3);
  style.ItemSpacing = ImVec2(7, 5);
  style.FrameRounding = 3;
  style.ChildRounding = 4;
  style.GrabRounding = 3;
  // A slider's value is written over its grab: a narrow, translucent grab keeps it readable.
  style.GrabMinSize = 5;
  style.ScrollbarSize = 12;
  style.ChildBorderSize = 1;
  const visual::ViewColors& c = vs.colors;
  ImVec4* col = style.Colors;
  col[ImGuiCol_WindowBg] = ImGui::ColorConvertU32ToFloat4(c.background);
  col[ImGuiCol_ChildBg] = ImGui::ColorConvertU32ToFloat4(c.panel);
  col[ImGuiCol_Border] = ImGui::ColorConvertU32ToFloat4(c.grid_line);
  col[ImGuiCol_Text] = ImGui::ColorConvertU32ToFloat4(c.text);
  col[ImGuiCol_TextDisabled] = ImGui::ColorConvertU32ToFloat4(c.dim_text);
  col[ImGuiCol_Header] = ImVec4(0.24f, 0.45f, 0.75f, 0.55f);
  col[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.50f, 0.85f, 0.65f);
  col[ImGuiCol_Separator] = ImGui::ColorConvertU32ToFloat4(c.grid_line);
  col[ImGuiCol_SliderGrab] = ImVec4(0.45f, 0.65f, 1.0f, 0.45f);
  col[ImGuiCol_SliderGrabActive] = ImVec4(0.55f, 0.75f, 1.0f, 0.7f);
  if (presentation) {
    col[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
    col[ImGuiCol_Button] = ImVec4(0.10f, 0.35f, 0.80f, 1);
    col[ImGuiCol_Header] = ImVec4(0.10f, 0.40f, 0.90f, 0.9f);
    style.ChildBorderSize = 2;
  }
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

}  // namespace coop::app
