#include "visual/views/bench_chart_view.hpp"

#include <algorithm>
#include <string>
#include <vector>

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

// Where a bar's numbers ("494 GB/s · 16.4% of copy · 0.161× CUB") go: after the bar's end, else
// inside it, with as many of their parts as fit; empty when not even the first part fits.
struct PlacedNumbers {
  std::string text;
  float x = 0;
  bool inside = false;
};

PlacedNumbers place_numbers(std::string text, float end, float left, float right, float pad) {
  for (;;) {
    const float w = text_width(text);
    if (end + pad + w <= right) return {text, end + pad, false};
    if (end - pad - w >= left) return {text, end - pad - w, true};
    const size_t cut = text.rfind(" \xc2\xb7 ");
    if (cut == std::string::npos) return {};
    text.resize(cut);
  }
}

}  // namespace

void draw_bandwidth_chart(const char* id, const BandwidthChartInput& in,
                          const BandwidthChart& chart) {
  const ViewStyle& st = view_style();
  ImGui::PushID(id);
  const float font = ImGui::GetFontSize();
  const float line_h = font * 1.45f, pad = font * 0.4f;
  float label_w = 0;
  for (const BandwidthBar& b : in.bars) label_w = std::max(label_w, text_width(b.label));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(font * 16, ImGui::GetContentRegionAvail().x);
  const float x0 = origin.x + label_w + pad * 2, x1 = origin.x + width - pad;
  auto at = [&](double fraction) { return x0 + float(fraction) * (x1 - x0); };
  // A bar's numbers follow it, or sit inside its end. In a narrow panel they lose their last
  // parts first (the tooltip keeps them all); where even the bandwidth alone has no room beside
  // a bar, every bar's numbers go on a line of their own under it, so none runs over another
  // bar or out of the panel.
  std::vector<PlacedNumbers> numbers(in.bars.size());
  bool numbers_below = false;
  for (size_t i = 0; i < in.bars.size(); ++i)
    if (in.bars[i].error.empty()) {
      numbers[i] = place_numbers(chart.values[i], at(chart.length[i]), x0 + pad, x1, pad);
      numbers_below = numbers_below || numbers[i].text.empty();
    }
  const float row_h = numbers_below ? line_h + font * 1.1f : line_h;
  const float bar_h = numbers_below ? line_h * 0.6f : line_h * 0.7f;
  const float top = origin.y + line_h;  // a line for the copy bandwidth's label
  const float bottom = top + row_h * float(in.bars.size());
  ImDrawList* dl = ImGui::GetWindowDrawList();

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
    const float text_y = y + (line_h - font) * 0.5f;
    dl->AddText(ImVec2(origin.x + pad, text_y), b.reference ? st.colors.dim_text : st.colors.text,
                b.label.c_str());
    const std::string& value = chart.values[i];
    if (!b.error.empty()) {
      dl->AddText(ImVec2(x0 + pad, text_y), st.colors.error, value.c_str());
    } else {
      const ImU32 color = b.reference ? kReference : i == chart.best ? st.colors.ok : kBar;
      const float end = at(chart.length[i]);
      const float bar_top = y + (line_h - bar_h) * 0.5f;
      dl->AddRectFilled(ImVec2(x0, bar_top), ImVec2(end, bar_top + bar_h), color, 2.0f * st.scale);
      if (numbers_below)
        dl->AddText(ImVec2(origin.x + pad + font, y + line_h), st.colors.text, value.c_str());
      else
        dl->AddText(ImVec2(numbers[i].x, text_y),
                    numbers[i].inside ? text_on(color) : st.colors.text, numbers[i].text.c_str());
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
    dl->AddText(ImVec2(std::clamp(x - w * 0.5f, x0, x1 - w), origin.y + (line_h - font) * 0.5f),
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
