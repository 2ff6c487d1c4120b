#include "visual/views/style.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "visual/syntax.hpp"

namespace coop::visual {
namespace {

ViewStyle& mutable_style() {
  static ViewStyle style = [] {
    ViewStyle s;
    s.colors = dark_colors();
    return s;
  }();
  return style;
}

constexpr ImU32 rgb(uint32_t hex) {
  return IM_COL32((hex >> 16) & 0xff, (hex >> 8) & 0xff, hex & 0xff, 0xff);
}

// Twelve hues that stay apart on a dark background; neighbours in the list differ most.
constexpr uint32_t kPalette[] = {0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0xb07aa1, 0xedc948,
                                 0x76b7b2, 0xff9da7, 0x9c755f, 0x8cd17d, 0xd37295, 0xa0cbe8};

}  // namespace

const ViewStyle& view_style() {
  return mutable_style();
}
void set_view_style(const ViewStyle& style) {
  mutable_style() = style;
}

ViewColors dark_colors() {
  ViewColors c{};
  c.text = rgb(0xe8e8e8);
  c.dim_text = rgb(0x9a9a9a);
  c.background = rgb(0x1c1d21);
  c.panel = rgb(0x25262b);
  c.grid_line = rgb(0x3a3b42);
  c.code_bg = rgb(0x34363d);
  c.code_text = rgb(0xf0c674);
  c.line_current = IM_COL32(80, 160, 255, 70);
  c.line_step = IM_COL32(240, 200, 80, 40);
  c.line_hover = IM_COL32(255, 255, 255, 22);
  c.not_started = rgb(0x2e2f35);
  c.no_group = rgb(0x5a5c66);
  c.not_member = rgb(0x1f2024);  // an empty box: drawn with a no_group outline
  c.selection = rgb(0xffffff);
  c.waiting_mark = rgb(0x101010);
  c.ok = rgb(0x6cc070);
  c.error = rgb(0xff6b6b);
  c.warning = rgb(0xf0b44c);
  c.race = rgb(0xff4fe6);
  c.syntax[int(TokenKind::Text)] = rgb(0xd8d8d8);
  c.syntax[int(TokenKind::Keyword)] = rgb(0xc792ea);
  c.syntax[int(TokenKind::Type)] = rgb(0x82aaff);
  c.syntax[int(TokenKind::Qualifier)] = rgb(0xff9e64);
  c.syntax[int(TokenKind::CoopName)] = rgb(0x7fdbca);
  c.syntax[int(TokenKind::Number)] = rgb(0xf78c6c);
  c.syntax[int(TokenKind::String)] = rgb(0xc3e88d);
  c.syntax[int(TokenKind::Comment)] = rgb(0x7f8796);
  c.syntax[int(TokenKind::Preprocessor)] = rgb(0xffcb6b);
  return c;
}

ViewColors high_contrast_colors() {
  // Projectors wash out dark greys: white text on black, saturated highlights.
  ViewColors c = dark_colors();
  c.text = rgb(0xffffff);
  c.dim_text = rgb(0xa0a0a0);  // still readable, and clearly apart from the white text
  c.background = rgb(0x000000);
  c.panel = rgb(0x0a0a0a);
  c.grid_line = rgb(0x707070);
  c.code_bg = rgb(0x303030);
  c.code_text = rgb(0xffd75f);
  c.line_current = IM_COL32(40, 140, 255, 120);
  c.line_step = IM_COL32(255, 210, 0, 70);
  c.not_started = rgb(0x202020);
  c.no_group = rgb(0x808080);
  c.not_member = rgb(0x000000);
  c.syntax[int(TokenKind::Text)] = rgb(0xffffff);
  c.syntax[int(TokenKind::Comment)] = rgb(0xb0b0b0);
  return c;
}

ImU32 group_color(uint32_t id) {
  return rgb(kPalette[id % (sizeof kPalette / sizeof kPalette[0])]);
}

ImU32 scale_color(ImU32 c, float factor) {
  auto channel = [&](int shift) {
    const float v = float((c >> shift) & 0xff) * factor;
    return ImU32(v > 255 ? 255 : v) << shift;
  };
  return channel(IM_COL32_R_SHIFT) | channel(IM_COL32_G_SHIFT) | channel(IM_COL32_B_SHIFT) |
         (c & IM_COL32_A_MASK);
}

ImU32 text_on(ImU32 background) {
  const float r = float((background >> IM_COL32_R_SHIFT) & 0xff);
  const float g = float((background >> IM_COL32_G_SHIFT) & 0xff);
  const float b = float((background >> IM_COL32_B_SHIFT) & 0xff);
  return 0.299f * r + 0.587f * g + 0.114f * b > 140 ? IM_COL32(0, 0, 0, 255)
                                                    : IM_COL32(255, 255, 255, 255);
}

void push_font(ImFont* font) {
  if (font) ImGui::PushFont(font);
}
void pop_font(ImFont* font) {
  if (font) ImGui::PopFont();
}

void same_line_if_room(float width) {
  ImGui::SameLine();
  // A few pixels of slack: widths measured before drawing round differently from what is drawn.
  if (ImGui::GetContentRegionAvail().x < width + 6) ImGui::NewLine();
}

void same_line_if_room(const char* label) {
  same_line_if_room(ImGui::CalcTextSize(label, nullptr, true).x +
                    ImGui::GetStyle().FramePadding.x * 2);
}

bool rows_in_sight(float top, float bottom) {
  // The draw list's clip rectangle is the window's visible inside, cut by its parents'.
  const ImDrawList* dl = ImGui::GetWindowDrawList();
  const float view_top = dl->GetClipRectMin().y, view_bottom = dl->GetClipRectMax().y;
  top = std::max(top, bottom - (view_bottom - view_top));
  // Three pixels' slack: scrolling goes in whole pixels, and a panel's border may cut the foot of
  // a list scrolled to its end by a pixel or two, below the text's baseline.
  return top >= view_top - 3 && bottom <= view_bottom + 3;
}

float height_in_sight(float top, float bottom) {
  const ImDrawList* dl = ImGui::GetWindowDrawList();
  return std::max(0.0f, std::min(bottom, dl->GetClipRectMax().y) -
                            std::max(top, dl->GetClipRectMin().y));
}

bool bring_into_sight(float top, float bottom, float above) {
  if (rows_in_sight(top, bottom)) return true;
  const ImDrawList* dl = ImGui::GetWindowDrawList();
  const float view_top = dl->GetClipRectMin().y, view_bottom = dl->GetClipRectMax().y;
  const float room = view_bottom - view_top, height = bottom - top;
  const float shift =
      height <= room ? top - view_top - (room - height) * above : bottom - view_bottom;
  const float target = std::max(0.0f, ImGui::GetScrollY() + shift);
  ImGui::SetScrollY(target);
  // (A pixel's slack: a limit computed from the content's size rounds differently.)
  return ImGui::GetScrollMaxY() + 1 >= target;
}

void bring_into_sight_once(const char* id, int what, float top, float bottom, float above) {
  ImGuiStorage* kept = ImGui::GetStateStorage();
  const ImGuiID what_key = ImGui::GetID(id), room_key = what_key + 1;
  const ImDrawList* dl = ImGui::GetWindowDrawList();
  const float room = dl->GetClipRectMax().y - dl->GetClipRectMin().y;
  if (kept->GetInt(what_key, INT32_MIN) == what && kept->GetFloat(room_key, -1) == room) return;
  if (bring_into_sight(top, bottom, above)) {
    kept->SetInt(what_key, what);
    kept->SetFloat(room_key, room);
  }
}

std::string fit_words(const std::string& text, float width, bool words) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  static const std::string kEllipsis = "\xe2\x80\xa6";
  std::string best;
  for (size_t space = words ? text.find(' ') : std::string::npos; space != std::string::npos;
       space = text.find(' ', space + 1)) {
    std::string candidate = text.substr(0, space);
    while (!candidate.empty() && (candidate.back() == ',' || candidate.back() == ':'))
      candidate.pop_back();
    if (ImGui::CalcTextSize((candidate + kEllipsis).c_str()).x > width) break;
    best = candidate;
  }
  if (!best.empty()) return best + kEllipsis;
  std::string cut = text;  // one long word: as many characters as fit
  while (cut.size() > 1 && ImGui::CalcTextSize((cut + kEllipsis).c_str()).x > width) cut.pop_back();
  return cut + kEllipsis;
}

std::string break_at_spaces(const std::string& text, float width) {
  std::string out;
  out.reserve(text.size());
  const float space = ImGui::CalcTextSize(" ").x;
  float line = 0;  // width of the current output line
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\n') {
      out += '\n';
      line = 0;
      ++i;
      continue;
    }
    // A run of spaces, then a word.
    size_t spaces = 0;
    while (i + spaces < text.size() && text[i + spaces] == ' ') ++spaces;
    size_t end = i + spaces;
    while (end < text.size() && text[end] != ' ' && text[end] != '\n') ++end;
    const char* word = text.data() + i + spaces;
    const float w = ImGui::CalcTextSize(word, text.data() + end).x;
    if (line > 0 && line + float(spaces) * space + w > width) {
      out += '\n';
      line = 0;
    } else {
      out.append(spaces, ' ');
      line += float(spaces) * space;
    }
    out.append(word, text.data() + end);
    line += w;
    i = end;
  }
  return out;
}

void text_wrapped(const std::string& text) {
  const std::string lines = break_at_spaces(text, ImGui::GetContentRegionAvail().x);
  ImGui::PushTextWrapPos(0.0f);  // a word wider than the panel still wraps somewhere
  ImGui::TextUnformatted(lines.c_str(), lines.c_str() + lines.size());
  ImGui::PopTextWrapPos();
}

void text_wrappedf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  char buf[1024];
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  text_wrapped(buf);
}

void text_dim_wrapped(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped(text);
  ImGui::PopStyleColor();
}

}  // namespace coop::visual
