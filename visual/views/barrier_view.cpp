#include "visual/views/barrier_view.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "visual/event_text.hpp"
#include "visual/grid_layout.hpp"
#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

std::string lane_name(const TimelineModel& m, BarrierLanes lanes, uint32_t lane) {
  if (lanes == BarrierLanes::Blocks) return "block " + std::to_string(lane);
  const uint32_t w = std::max(1u, m.warps_per_block());
  return "b" + std::to_string(lane / w) + " w" + std::to_string(lane % w);
}

}  // namespace

BarrierViewResult draw_barrier_view(const char* id, const TimelineModel& model,
                                    const BarrierTimeline& tl, size_t cursor,
                                    BarrierViewSettings& s) {
  BarrierViewResult result;
  const ViewStyle& st = view_style();
  ImGui::PushID(id);
  int lanes = s.lanes == BarrierLanes::Warps ? 0 : 1;
  ImGui::TextUnformatted("Rows:");
  ImGui::SameLine();
  result.lanes_changed |= ImGui::RadioButton("warps", &lanes, 0);
  ImGui::SameLine();
  result.lanes_changed |= ImGui::RadioButton("blocks", &lanes, 1);
  s.lanes = lanes == 0 ? BarrierLanes::Warps : BarrierLanes::Blocks;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::SliderFloat("##zoom", &s.zoom, 1.0f, 256.0f, "time x%.0f",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_NoInput);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Time zoom (Ctrl + mouse wheel over the rows)");
  text_dim_wrapped("A bar runs from a barrier's first arrival to its release and is numbered "
                     "by phase; faded: not reached yet.");
  if (tl.span_count() == 0) {
    ImGui::TextDisabled("No barriers in this trace.");
    ImGui::PopID();
    return result;
  }
  const uint64_t now = cursor > 0 ? model.at(cursor - 1).time : tl.begin_time();
  // A lane is never lower than its name: large fonts (presentation) get taller rows.
  const float row = std::max({kMinCellPixels + 1, s.row_height * st.scale, ImGui::GetFontSize() + 2});
  const float label_w = ImGui::CalcTextSize("b0000 w00").x + 8;
  ImGui::BeginChild("rows", ImVec2(0, 0), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoBackground);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float view_w = std::max(50.0f, ImGui::GetContentRegionAvail().x - label_w);
  const double t0 = double(tl.begin_time());
  const double span = std::max(1.0, double(tl.end_time()) - t0);
  if (s.zoom <= 0) {
    // Zoom so a typical bar (the median over a sample) is about 16 px wide.
    std::vector<uint64_t> lengths;
    for (uint32_t lane = 0; lane < tl.lane_count() && lengths.size() < 512; ++lane)
      for (const BarrierSpan& b : tl.lane(lane)) lengths.push_back(b.depart - b.first_arrive + 1);
    std::nth_element(lengths.begin(), lengths.begin() + ptrdiff_t(lengths.size() / 2),
                     lengths.end());
    const double median_px = double(lengths[lengths.size() / 2]) / span * view_w;
    s.zoom = float(std::clamp(16.0 * st.scale / std::max(median_px, 1e-6), 1.0, 256.0));
  }
  const float width = view_w * std::max(1.0f, s.zoom);
  const float x0 = origin.x + label_w;
  auto x_of = [&](uint64_t t) { return x0 + float((double(t) - t0) / span) * width; };
  auto t_of = [&](float x) { return uint64_t(std::max(0.0, t0 + double(x - x0) / width * span)); };
  // Keep the playback time in view when playback moves it.
  if (s.followed_cursor != cursor) {
    s.followed_cursor = cursor;
    const float xn = x_of(now) - origin.x, left = ImGui::GetScrollX();
    if (xn < left + label_w || xn > left + label_w + view_w)
      ImGui::SetScrollX(std::max(0.0f, xn - label_w - view_w * 0.3f));
  }
  const float scroll = ImGui::GetScrollY();
  const float win_left = ImGui::GetWindowPos().x;
  const uint64_t t_left = t_of(win_left + label_w), t_right = t_of(win_left + label_w + view_w) + 1;
  const uint32_t first = uint32_t(std::max(0.0f, scroll / row));
  const uint32_t last =
      std::min(tl.lane_count(), uint32_t((scroll + ImGui::GetWindowHeight()) / row) + 1);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered = ImGui::IsWindowHovered();
  ImFont* small = st.fonts.small ? st.fonts.small : ImGui::GetFont();
  const float fs = std::min(small->FontSize, row - 2);
  for (uint32_t lane = first; lane < last; ++lane) {
    const float y = origin.y + float(lane) * row;
    if (lane % 2)
      dl->AddRectFilled(ImVec2(x0, y), ImVec2(x0 + width, y + row), IM_COL32(255, 255, 255, 8));
    // Fold bars narrower than 3 px into one mark per 3 px of time.
    float fold_a = -1, fold_b = -1;
    auto flush = [&] {
      if (fold_a < 0) return;
      dl->AddRectFilled(ImVec2(fold_a, y + 2),
                        ImVec2(std::max(fold_b, fold_a + kMinCellPixels), y + row - 2),
                        st.colors.no_group);
      ++result.drawn;
      fold_a = fold_b = -1;
    };
    for (const BarrierSpan& b : tl.lane_between(lane, t_left, t_right)) {
      const float xa = x_of(b.first_arrive), xl = x_of(b.last_arrive), xd = x_of(b.depart);
      if (xd - xa < kMinCellPixels) {
        if (fold_a >= 0 && xa > fold_b + 1) flush();
        if (fold_a < 0) fold_a = xa;
        fold_b = std::max(fold_b, xd);
        if (fold_b - fold_a >= kMinCellPixels) flush();
        continue;
      }
      flush();
      const bool reached = b.first_arrive <= now;
      const bool open = reached && now < b.depart;
      ImU32 c = group_color(b.phase);
      if (!reached) c = (c & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 60);
      // Lighter from first to last arrival (threads still coming), darker while all wait.
      dl->AddRectFilled(ImVec2(xa, y + 2), ImVec2(std::max(xl, xa + 1), y + row - 2), c, 2);
      dl->AddRectFilled(ImVec2(xl, y + 3), ImVec2(xd, y + row - 3), scale_color(c, 0.6f), 2);
      dl->AddLine(ImVec2(xd, y + 1), ImVec2(xd, y + row - 1), reached ? st.colors.text : c, 1.5f);
      if (open) dl->AddRect(ImVec2(xa, y + 1), ImVec2(xd, y + row - 1), st.colors.selection, 2);
      ++result.drawn;
      char num[16];
      std::snprintf(num, sizeof num, "%u", b.phase);
      const ImVec2 ts = small->CalcTextSizeA(fs, 1e9f, 0, num);
      if (xd - xa > ts.x + 4 && fs >= 7)
        dl->AddText(small, fs, ImVec2(xa + 2, y + (row - ts.y) * 0.5f),
                    reached ? text_on(scale_color(c, 0.6f)) : st.colors.dim_text, num);
      if (hovered && mouse.y >= y && mouse.y < y + row && mouse.x >= xa && mouse.x <= xd + 1) {
        ImGui::BeginTooltip();
        ImGui::Text("%s: %s, phase %u", lane_name(model, tl.lanes(), lane).c_str(),
                    group_label(b.group_kind, b.group_id).c_str(), b.phase);
        ImGui::Text("%u threads arrive t=%llu..%llu, released t=%llu (line %u)", b.threads,
                    (unsigned long long)(b.first_arrive - model.origin()),
                    (unsigned long long)(b.last_arrive - model.origin()),
                    (unsigned long long)(b.depart - model.origin()), unsigned(b.line));
        ImGui::TextDisabled("click: play to the last arrival");
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(0)) result.seek = int64_t(b.last_position) + 1;
      }
    }
    flush();
    // Lane names stay pinned at the left edge while the time axis scrolls.
    dl->AddRectFilled(ImVec2(win_left, y), ImVec2(win_left + label_w - 2, y + row),
                      st.colors.panel);
    dl->AddText(ImVec2(win_left + 2, y + (row - ImGui::GetFontSize()) * 0.5f), st.colors.dim_text,
                lane_name(model, tl.lanes(), lane).c_str());
  }
  if (hovered && ImGui::GetIO().KeyCtrl && ImGui::GetIO().MouseWheel != 0)
    s.zoom = std::clamp(s.zoom * (1.0f + 0.2f * ImGui::GetIO().MouseWheel), 1.0f, 256.0f);
  // The playback time.
  const float xn = x_of(now);
  const float top = origin.y + float(first) * row, bottom = origin.y + float(last) * row;
  dl->AddLine(ImVec2(xn, top), ImVec2(xn, bottom), IM_COL32(255, 90, 90, 220), 2.0f);
  ImGui::Dummy(ImVec2(label_w + width, float(tl.lane_count()) * row));
  ImGui::EndChild();
  ImGui::PopID();
  return result;
}

}  // namespace coop::visual
