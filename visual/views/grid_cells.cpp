#include "visual/views/grid_cells.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include "visual/event_text.hpp"

namespace coop::visual {

ImU32 Colorer::thread(uint32_t t) const {
  const CellColour cell = classify_cell(snap, by, kind, block_threads, t);
  if (cell.cls == CellClass::NotStarted) return colors.not_started;
  if (cell.cls == CellClass::NotMember) return colors.not_member;
  const ImU32 c = cell.cls == CellClass::NoGroup ? colors.no_group : group_color(cell.index);
  // Waiting at a barrier: the same hue, darker, so membership stays readable.
  const ThreadActivity act = snap.activity(t);
  if (act == ThreadActivity::Waiting || act == ThreadActivity::Stuck)
    return scale_color(c, kWaitingShade);
  if (act == ThreadActivity::Done) return scale_color(c, 0.25f);
  return c;
}

ImU32 Colorer::majority(uint32_t first, uint32_t last, uint32_t stride) const {
  std::array<ImU32, 64> seen;
  size_t n = 0;
  for (uint32_t t = first; t < last && n < seen.size(); t += stride) seen[n++] = thread(t);
  std::sort(seen.begin(), seen.begin() + ptrdiff_t(n));
  ImU32 best = n ? seen[0] : colors.not_started;
  size_t best_run = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && seen[j] == seen[i]) ++j;
    if (j - i > best_run) best_run = j - i, best = seen[i];
    i = j;
  }
  return best;
}

float digit_height(const ImFont* font, float size) {
  const ImFontGlyph* g = font->FindGlyphNoFallback('0');
  if (!g || font->FontSize <= 0) return size * 0.73f;  // a typical digit height
  return (g->Y1 - g->Y0) * size / font->FontSize;
}

float draw_lane_cell(ImDrawList* dl, ImVec2 a, float cell, uint32_t t, const Colorer& color,
                     const TimelineModel& model, const CellText& text) {
  const ViewStyle& st = view_style();
  const ImU32 c = color.thread(t);
  const ImVec2 z(a.x + cell - 1, a.y + cell - 1);
  const float round = cell >= 12 ? 2.0f : 0.0f;
  dl->AddRectFilled(a, z, c, round);
  const ThreadActivity act = color.snap.activity(t);
  if (c == st.colors.not_member)  // outside every group of the kind: an empty box
    dl->AddRect(a, z, st.colors.no_group, round);
  if (act == ThreadActivity::Waiting || act == ThreadActivity::Stuck) {
    // Waiting threads are hollow: a dark cell framed in their group's own colour, which reads
    // without relying on the shade alone; threads stuck for ever in the error colour.
    dl->AddRect(ImVec2(a.x + 0.5f, a.y + 0.5f), ImVec2(z.x - 0.5f, z.y - 0.5f),
                act == ThreadActivity::Stuck ? st.colors.error : scale_color(c, 1.0f / kWaitingShade),
                round, 0, cell >= 12 ? 2.0f : 1.0f);
  }
  if (!text.ranks) return 0;
  const CellColour cls = classify_cell(color.snap, color.by, color.kind, color.block_threads, t);
  if (cls.cls != CellClass::Coloured) return 0;
  ImFont* small = st.fonts.small ? st.fonts.small : ImGui::GetFont();
  char rank[16];
  const int digits = std::snprintf(rank, sizeof rank, "%u", cls.rank);
  // Big cells also show the value the thread holds (its last collective's output, the value it
  // loaded, ...), under the rank.
  uint64_t bits = 0;
  const int64_t last_pos = text.values ? color.snap.last_position(t) : -1;
  const bool value = last_pos >= 0 && event_value(model.at(size_t(last_pos)), bits);
  const float line_y = value ? 0.3f : 0.5f;
  // As large as fits: half the cell, narrowed for long numbers; too small is left out.
  const float fs =
      std::min({cell * 0.62f, small->FontSize * 1.2f, (cell - 1.5f) / (0.6f * float(digits))});
  const float ink = digit_height(small, fs);
  if (fs < 6.5f || ink < text.min_digit_px) return 0;
  const ImVec2 ts = small->CalcTextSizeA(fs, 1e9f, 0, rank);
  dl->AddText(small, fs,
              ImVec2(a.x + (cell - 1 - ts.x) * 0.5f, a.y + (cell - 1) * line_y - ts.y * 0.5f),
              text_on(c), rank);
  float smallest = ink;
  if (value) {
    const std::string v = format_value(bits, model.at(size_t(last_pos)).value_type);
    const float vs = std::min(fs * 0.85f, (cell - 3) / (0.62f * float(v.size())));
    const float v_ink = digit_height(small, vs);
    if (vs >= 6.5f && v_ink >= text.min_digit_px) {
      const ImVec2 vsz = small->CalcTextSizeA(vs, 1e9f, 0, v.c_str());
      dl->AddText(small, vs,
                  ImVec2(a.x + (cell - 1 - vsz.x) * 0.5f, a.y + (cell - 1) * 0.72f - vsz.y * 0.5f),
                  (text_on(c) & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 200), v.c_str());
      smallest = std::min(smallest, v_ink);
    }
  }
  return smallest;
}

RaceFrame race_frame(RaceMark mark, float side, float scale) {
  const bool picked = mark == RaceMark::Picked;
  const float width = picked ? std::max(2.0f, 2.5f * scale) : std::max(1.0f, scale);
  const float smallest = (picked ? 14.0f : 9.0f) * scale;
  return {width, std::max(width * 0.5f + 1, (smallest - side) * 0.5f)};
}

void race_mark(ImDrawList* dl, ImVec2 a, ImVec2 z, RaceMark mark, float scale) {
  if (mark == RaceMark::None) return;
  const ImU32 c = view_style().colors.race;
  const float side = std::min(z.x - a.x, z.y - a.y);
  if (side >= 6) {
    const float corner = side * 0.45f;
    dl->AddTriangleFilled(a, ImVec2(a.x + corner, a.y), ImVec2(a.x, a.y + corner), c);
  }
  const RaceFrame f = race_frame(mark, side, scale);
  dl->AddRect(ImVec2(a.x - f.out, a.y - f.out), ImVec2(z.x + f.out, z.y + f.out), c, 0, 0, f.width);
}

}  // namespace coop::visual
