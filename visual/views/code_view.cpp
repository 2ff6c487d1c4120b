#include "visual/views/code_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "visual/event_text.hpp"
#include "visual/syntax.hpp"
#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

// Lines and the block-comment state at the start of each, recomputed only when the source
// changes (a lesson switch), not every frame.
struct SourceCache {
  const char* data = nullptr;
  size_t size = 0;
  std::vector<std::string_view> lines;
  std::vector<bool> starts_in_comment;
};

const SourceCache& cached(std::string_view source) {
  static SourceCache cache;
  if (cache.data != source.data() || cache.size != source.size()) {
    cache.data = source.data();
    cache.size = source.size();
    cache.lines = split_lines(source);
    cache.starts_in_comment.assign(cache.lines.size(), false);
    bool in_comment = false;
    for (size_t i = 0; i < cache.lines.size(); ++i) {
      cache.starts_in_comment[i] = in_comment;
      tokenize_line(cache.lines[i], in_comment);
    }
  }
  return cache;
}

// The gutter before the code: a count badge of up to four characters ("1024", "405K"), the race
// column when races are shown, the line number and a space.
struct Gutter {
  float char_w, count_w, race_w, number_w, code_x;
  Gutter(const ImFont* mono, bool races) {
    char_w = mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, "0").x;
    count_w = char_w * 6;
    // In the gutter a narrow code column never scrolls race badges out of sight, as it would
    // after a long line.
    race_w = races ? char_w * 6 : 0;
    number_w = char_w * 4;  // "123 "
    code_x = count_w + race_w + number_w + char_w;
  }
};

const ImFont* mono_font() {
  const ViewStyle& st = view_style();
  return st.fonts.mono ? st.fonts.mono : ImGui::GetFont();
}

}  // namespace

float code_view_width(int columns, bool races) {
  const Gutter g(mono_font(), races);
  return g.code_x + float(columns) * g.char_w + ImGui::GetStyle().ScrollbarSize;
}

int draw_code_view(const char* id, const CodeViewInput& in, CodeViewSettings& settings,
                   const float height) {
  const ViewStyle& st = view_style();
  const SourceCache& src = cached(in.source);
  int clicked = 0;
  ImGui::BeginChild(id, ImVec2(0, height), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoBackground);
  ImFont* mono = const_cast<ImFont*>(mono_font());
  ImGui::PushFont(mono);
  const float line_h = ImGui::GetTextLineHeight() + 2.0f * st.scale;
  // Race badges and compile errors share the gutter's marks column.
  const Gutter gutter(mono, in.races != nullptr || in.errors != nullptr);
  const float char_w = gutter.char_w, count_w = gutter.count_w, race_w = gutter.race_w;
  const float code_x = gutter.code_x;

  const float visible = ImGui::GetWindowHeight();
  const ImVec2 room = ImGui::GetContentRegionAvail();  // inside any scrollbar
  settings.visible_chars = std::max(0, int((room.x - code_x) / char_w));
  settings.visible_lines = std::max(0, int(room.y / line_h));
  if (settings.scroll_to_line > 0) {
    settings.focus_line = settings.scroll_to_line;
    settings.focus_first = settings.range_first;
    settings.focus_last = settings.range_last;
  }
  const bool resized = settings.focus_line > 0 && settings.shown_height > 0 &&
                       std::fabs(visible - settings.shown_height) > line_h;
  settings.shown_height = visible;
  if (settings.scroll_to_line > 0 || resized) {
    // The range around the line, centred, where it fits; else the line itself, a third down.
    const int line = settings.focus_line;
    const int first = std::min(line, settings.focus_first > 0 ? settings.focus_first : INT32_MAX);
    const int last = std::max(line, settings.focus_last);
    const float span = float(last - first + 1) * line_h;
    ImGui::SetScrollY(std::max(
        0.0f, span <= visible * 0.9f ? float(first - 1) * line_h - (visible - span) * 0.5f
                                     : float(line - 1) * line_h - visible * 0.3f));
    settings.scroll_to_line = settings.range_first = settings.range_last = 0;
    settings.followed_line = in.last_event_line;
  }
  // Follow the line that just ran, if it left the visible part.
  if (settings.follow && in.last_event_line > 0 && in.last_event_line != settings.followed_line) {
    const float y = float(in.last_event_line - 1) * line_h;
    const float top = ImGui::GetScrollY();
    if (y < top || y + line_h > top + visible)
      ImGui::SetScrollY(std::max(0.0f, y - visible * 0.35f));
    settings.followed_line = in.last_event_line;
    // From now on a resize keeps this line in view.
    settings.focus_line = in.last_event_line;
    settings.focus_first = settings.focus_last = 0;
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float full_w = std::max(ImGui::GetContentRegionAvail().x, code_x + char_w * 100);
  const bool hovered = ImGui::IsWindowHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  // Only the visible lines are drawn (the content height is set by the Dummy below).
  const float scroll = ImGui::GetScrollY();
  const int first = std::max(0, int(scroll / line_h));
  const int last =
      std::min(int(src.lines.size()), int((scroll + ImGui::GetWindowHeight()) / line_h) + 1);
  {
    for (int i = first; i < last; ++i) {
      const int line = i + 1;
      const float y = origin.y + float(i) * line_h;
      const ImVec2 row_min(origin.x, y), row_max(origin.x + full_w, y + line_h);
      const uint32_t count =
          in.line_counts && size_t(line) < in.line_counts->size() ? (*in.line_counts)[line] : 0;
      const bool step =
          std::find(in.step_lines.begin(), in.step_lines.end(), line) != in.step_lines.end();
      const bool row_hovered = hovered && mouse.y >= y && mouse.y < y + line_h;
      if (step) {
        dl->AddRectFilled(row_min, row_max, st.colors.line_step);
        dl->AddRectFilled(row_min, ImVec2(row_min.x + 3 * st.scale, row_max.y), st.colors.warning);
      }
      if (count > 0)
        dl->AddRectFilled(ImVec2(origin.x + count_w, y), row_max, st.colors.line_current);
      if (line == in.last_event_line)
        dl->AddRect(ImVec2(origin.x + count_w, y), row_max, st.colors.line_current, 0, 0,
                    1.5f * st.scale);
      if (row_hovered) dl->AddRectFilled(row_min, row_max, st.colors.line_hover);
      char buf[32];
      if (count > 0) {
        // A pill with the number of threads at this line, abbreviated to fit (the tooltip has
        // the exact count).
        std::snprintf(buf, sizeof buf, "%s", short_count(count).c_str());
        const float w = mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, buf).x + char_w;
        const ImVec2 a(origin.x + count_w - w - char_w * 0.5f, y + 1);
        dl->AddRectFilled(a, ImVec2(a.x + w, y + line_h - 1), IM_COL32(60, 130, 230, 255),
                          line_h * 0.5f);
        dl->AddText(ImVec2(a.x + char_w * 0.5f, y + 1 * st.scale), IM_COL32(255, 255, 255, 255),
                    buf);
      }
      const std::string* race =
          in.races && size_t(line) < in.races->size() && !(*in.races)[line].empty()
              ? &(*in.races)[line]
              : nullptr;
      const std::string* error =
          in.errors && size_t(line) < in.errors->size() && !(*in.errors)[line].empty()
              ? &(*in.errors)[line]
              : nullptr;
      if (error) dl->AddRectFilled(row_min, row_max, (st.colors.error & 0x00FFFFFF) | 0x40000000);
      if (race || error) {
        // A line in a data race (race_detector.hpp) or one the compiler refused: its badge in
        // the gutter's column for them.
        const char* text = error ? "error" : "race";
        const ImU32 colour = error ? st.colors.error : st.colors.race;
        const float w = mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, text).x + char_w;
        const ImVec2 a(origin.x + count_w + (race_w - w) * 0.5f, y + 1);
        dl->AddRectFilled(a, ImVec2(a.x + w, y + line_h - 1), colour, line_h * 0.5f);
        dl->AddText(ImVec2(a.x + char_w * 0.5f, y + 1 * st.scale), text_on(colour), text);
      }
      std::snprintf(buf, sizeof buf, "%3d", line);
      dl->AddText(ImVec2(origin.x + count_w + race_w, y + 1 * st.scale), st.colors.dim_text, buf);
      bool in_comment = src.starts_in_comment[size_t(i)];
      const std::string_view text = src.lines[size_t(i)];
      float x = origin.x + code_x;
      for (const Token& t : tokenize_line(text, in_comment)) {
        const char* b = text.data() + t.begin;
        const char* e = text.data() + t.end;
        dl->AddText(ImVec2(x, y + 1 * st.scale), st.colors.syntax[int(t.kind)], b, e);
        x += mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, b, e).x;
      }
      const MemoryBadge* badge =
          in.memory && size_t(line) < in.memory->size() && !(*in.memory)[line].text.empty()
              ? &(*in.memory)[line]
              : nullptr;
      if (badge) {
        // After the code, so it never hides any: red when the line wastes sectors or conflicts.
        const float w =
            mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, badge->text.c_str()).x + char_w;
        const ImVec2 a(x + char_w * 2, y + 1);
        dl->AddRectFilled(a, ImVec2(a.x + w, y + line_h - 1),
                          badge->poor ? st.colors.error : IM_COL32(70, 150, 90, 255),
                          line_h * 0.5f);
        dl->AddText(ImVec2(a.x + char_w * 0.5f, y + 1 * st.scale), IM_COL32(255, 255, 255, 255),
                    badge->text.c_str());
      }
      if (error) {
        // Its first error after the code, as an editor shows it; every one on hover.
        const std::string_view first(error->data(), std::min(error->find('\n'), error->size()));
        dl->AddText(ImVec2(x + char_w * 2, y + 1 * st.scale), st.colors.error, first.data(),
                    first.data() + first.size());
      }
      if (row_hovered) {
        if (ImGui::IsMouseClicked(0)) clicked = line;
        if (count > 0 || step || badge || race || error) {
          ImGui::BeginTooltip();
          if (count > 0)
            ImGui::Text("%u of %u threads are at line %d", count, in.thread_count, line);
          if (step) ImGui::TextUnformatted("This line is part of the current step.");
          if (badge) ImGui::TextUnformatted(badge->details.c_str());
          if (race) ImGui::TextUnformatted(race->c_str());
          if (error) ImGui::TextUnformatted(error->c_str());
          ImGui::TextUnformatted("Click: jump to the next event on this line.");
          ImGui::EndTooltip();
        }
      }
    }
  }
  ImGui::Dummy(ImVec2(full_w, float(src.lines.size()) * line_h));
  ImGui::PopFont();
  ImGui::EndChild();
  return clicked;
}

}  // namespace coop::visual
