#include "visual/views/bench_chart_view.hpp"

#include <algorithm>
#include <string>

#include <imgui.h>

#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

// Bar colours: our variants, the fastest of them, and the library reference.
constexpr ImU32 kBar = IM_COL32(78, 121, 167, 255);
constexpr ImU32 kReference = IM_COL32(150, 150, 160, 255);
constexpr ImU32 kOccupancy = IM_COL32(242, 142, 43, 255);

float text_width(const std::string& s) {
  return ImGui::CalcTextSize(s.c_str()).x;
}

}  // namespace

void draw_bandwidth_chart(const char* id, const BandwidthChartInput& in,
                          const BandwidthChart& chart) {
  const ViewStyle& st = view_style();
  ImGui::PushID(id);
  const float font = ImGui::GetFontSize();
  const float row_h = font * 1.45f, pad = font * 0.4f;
  float label_w = 0;
  for (const BandwidthBar& b : in.bars) label_w = std::max(label_w, text_width(b.label));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(font * 16, ImGui::GetContentRegionAvail().x);
  const float x0 = origin.x + label_w + pad * 2, x1 = origin.x + width - pad;
  const float top = origin.y + row_h;  // a line for the copy bandwidth's label
  const float bottom = top + row_h * float(in.bars.size());
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto at = [&](double fraction) { return x0 + float(fraction) * (x1 - x0); };

  // Ticks and their vertical rules under the bars.
  for (int t = 0; t <= chart.axis.ticks; ++t) {
    const float x = at(double(t) / chart.axis.ticks);
    dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), st.colors.grid_line);
    const std::string label =
        format_rate(chart.axis.step * t) + (t == chart.axis.ticks ? " GB/s" : "");
    const float w = text_width(label);
    dl->AddText(ImVec2(std::min(x - w * 0.5f, x1 - w), bottom + 2), st.colors.dim_text,
                label.c_str());
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered_panel = ImGui::IsWindowHovered();
  for (size_t i = 0; i < in.bars.size(); ++i) {
    const BandwidthBar& b = in.bars[i];
    const float y = top + row_h * float(i);
    dl->AddText(ImVec2(origin.x + pad, y + (row_h - font) * 0.5f),
                b.reference ? st.colors.dim_text : st.colors.text, b.label.c_str());
    const std::string& value = chart.values[i];
    if (!b.error.empty()) {
      dl->AddText(ImVec2(x0 + pad, y + (row_h - font) * 0.5f), st.colors.error, value.c_str());
    } else {
      const ImU32 color = b.reference ? kReference : i == chart.best ? st.colors.ok : kBar;
      const float end = at(chart.length[i]);
      dl->AddRectFilled(ImVec2(x0, y + row_h * 0.15f), ImVec2(end, y + row_h * 0.85f), color,
                        2.0f * st.scale);
      // The numbers follow the bar, or sit inside its end when there is no room after it.
      const float w = text_width(value);
      const bool after = end + pad + w <= x1;
      const float tx = after ? end + pad : std::max(x0 + pad, end - pad - w);
      dl->AddText(ImVec2(tx, y + (row_h - font) * 0.5f), after ? st.colors.text : text_on(color),
                  value.c_str());
    }
    if (hovered_panel && mouse.y >= y && mouse.y < y + row_h && mouse.x >= origin.x &&
        mouse.x < origin.x + width) {
      dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(origin.x + width, y + row_h),
                        st.colors.line_hover);
      ImGui::BeginTooltip();
      ImGui::TextUnformatted(b.title.empty() ? b.label.c_str() : b.title.c_str());
      ImGui::TextDisabled("%s", value.c_str());
      if (i == chart.best) ImGui::TextUnformatted("The fastest of the lesson's kernels.");
      ImGui::EndTooltip();
    }
  }
  if (chart.copy_at >= 0) {
    // The practical ceiling: a device-to-device copy reads and writes every byte once.
    const float x = at(chart.copy_at);
    dl->AddLine(ImVec2(x, top - 2), ImVec2(x, bottom), st.colors.warning, 2.0f * st.scale);
    const std::string label = "copy " + format_rate(in.copy_gbs) + " GB/s";
    const float w = text_width(label);
    dl->AddText(ImVec2(std::clamp(x - w * 0.5f, x0, x1 - w), origin.y + (row_h - font) * 0.5f),
                st.colors.warning, label.c_str());
  }
  ImGui::Dummy(ImVec2(width, bottom - origin.y + font + 4));
  ImGui::PopID();
}

void draw_sweep_chart(const char* id, const std::vector<SweepSample>& samples,
                      const SweepChart& chart, float height) {
  const ViewStyle& st = view_style();
  ImGui::PushID(id);
  const float font = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(font * 16, ImGui::GetContentRegionAvail().x);
  if (height <= 0) height = std::clamp(width * 0.45f, font * 10, font * 18);
  // Plot area: GB/s labels left, occupancy labels right, a legend above, block sizes below.
  const float left = origin.x + text_width("00000") + font * 0.5f;
  const float right = origin.x + width - text_width("100 %") - font * 0.5f;
  const float top = origin.y + font * 1.6f, bottom = origin.y + height - font * 2.6f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto x_at = [&](double f) { return left + float(f) * (right - left); };
  auto y_at = [&](double f) { return bottom - float(f) * (bottom - top); };

  // Legend.
  const float lx = left, ly = origin.y + font * 0.2f;
  dl->AddRectFilled(ImVec2(lx, ly + font * 0.2f), ImVec2(lx + font * 0.8f, ly + font), kBar);
  const std::string bars = chart.measured ? "measured GB/s (left)" : "measured GB/s: not yet";
  dl->AddText(ImVec2(lx + font, ly), st.colors.text, bars.c_str());
  const float ox = lx + font * 1.6f + text_width(bars);
  dl->AddCircleFilled(ImVec2(ox + font * 0.4f, ly + font * 0.6f), font * 0.3f, kOccupancy);
  dl->AddText(ImVec2(ox + font, ly), st.colors.text, "predicted occupancy (right)");

  // Horizontal rules at the occupancy quarters; GB/s labels at the left axis's ticks.
  for (int q = 0; q <= 4; ++q) {
    const float y = y_at(q / 4.0);
    dl->AddLine(ImVec2(left, y), ImVec2(right, y), st.colors.grid_line);
    const std::string label = std::to_string(q * 25) + " %";
    dl->AddText(ImVec2(right + font * 0.3f, y - font * 0.5f), kOccupancy, label.c_str());
  }
  if (chart.measured)
    for (int t = 0; t <= chart.gbs_axis.ticks; ++t) {
      const float y = y_at(double(t) / chart.gbs_axis.ticks);
      const std::string label = format_rate(chart.gbs_axis.step * t);
      dl->AddText(ImVec2(left - font * 0.3f - text_width(label), y - font * 0.5f),
                  st.colors.dim_text, label.c_str());
    }
  dl->AddText(ImVec2(left, bottom + font * 1.3f), st.colors.dim_text, "threads per block");

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered_panel = ImGui::IsWindowHovered();
  ImVec2 previous(0, 0);
  bool have_previous = false;
  for (size_t i = 0; i < samples.size(); ++i) {
    const float cx = x_at(chart.x[i]), half = float(chart.slot) * (right - left) * 0.5f;
    const std::string block = std::to_string(samples[i].block);
    dl->AddText(ImVec2(cx - text_width(block) * 0.5f, bottom + 2),
                samples[i].error.empty() ? st.colors.text : st.colors.error, block.c_str());
    if (chart.bandwidth[i] >= 0)
      dl->AddRectFilled(ImVec2(cx - half * 0.6f, y_at(chart.bandwidth[i])),
                        ImVec2(cx + half * 0.6f, bottom), i == chart.fastest ? st.colors.ok : kBar);
    if (chart.occupancy[i] >= 0) {
      const ImVec2 p(cx, y_at(chart.occupancy[i]));
      if (have_previous) dl->AddLine(previous, p, kOccupancy, 2.0f * st.scale);
      const bool full =
          std::find(chart.fullest.begin(), chart.fullest.end(), i) != chart.fullest.end();
      dl->AddCircleFilled(p, font * (full ? 0.32f : 0.22f), kOccupancy);
      previous = p;
      have_previous = true;
    } else {
      have_previous = false;  // a block size that cannot run breaks the line
    }
    if (hovered_panel && mouse.x >= cx - half && mouse.x < cx + half && mouse.y >= top &&
        mouse.y < bottom + font * 1.3f) {
      dl->AddRectFilled(ImVec2(cx - half, top), ImVec2(cx + half, bottom), st.colors.line_hover);
      const SweepSample& s = samples[i];
      ImGui::BeginTooltip();
      ImGui::Text("%u threads per block", s.block);
      if (!s.error.empty()) {
        ImGui::TextColored(ImColor(st.colors.error), "%s", s.error.c_str());
      } else {
        ImGui::Text("predicted occupancy %s %%", format_rate(s.occupancy * 100).c_str());
        if (!s.detail.empty()) ImGui::TextDisabled("%s", s.detail.c_str());
        if (chart.bandwidth[i] >= 0) ImGui::Text("measured %s GB/s", format_rate(s.gbs).c_str());
      }
      ImGui::EndTooltip();
    }
  }
  dl->AddRect(ImVec2(left, top), ImVec2(right, bottom), st.colors.grid_line);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::PopID();
}

}  // namespace coop::visual
