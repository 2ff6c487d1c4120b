// Index
//   [SECTION] Colours and small helpers
//   [SECTION] Controls
//   [SECTION] The SM as four resources
//   [SECTION] Occupancy charts
//   [SECTION] Cooperative grid
//   [SECTION] Block schedule timeline
//   [SECTION] Demo window
#include "visual/occupancy_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "device/occupancy/presets.hpp"

namespace coop::visual {
namespace {

// [SECTION] Colours and small helpers

// Resident blocks alternate between two shades so each block's share is visible.
constexpr ImU32 kBlockA = IM_COL32(86, 156, 214, 255);
constexpr ImU32 kBlockB = IM_COL32(64, 120, 180, 255);
constexpr ImU32 kFree = IM_COL32(60, 60, 66, 255);
constexpr ImU32 kLimiter = IM_COL32(255, 140, 0, 255);
constexpr ImU32 kFrame = IM_COL32(140, 140, 150, 255);
constexpr ImU32 kCurve = IM_COL32(120, 200, 120, 255);
constexpr ImU32 kMarker = IM_COL32(255, 220, 80, 255);
const ImVec4 kErrorText{1.0f, 0.45f, 0.35f, 1.0f};

ImU32 block_colour(uint32_t block) {
  static const ImU32 palette[4] = {IM_COL32(86, 156, 214, 255), IM_COL32(214, 157, 86, 255),
                                   IM_COL32(120, 200, 120, 255), IM_COL32(197, 134, 192, 255)};
  return palette[block % 4];
}

std::string text_of(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// [SECTION] Controls

void draw_controls(const OccupancyPanelInput& input, OccupancyPanelState& s,
                   const OccupancyPanelModel& m) {
  const std::vector<DeviceProps>& presets = device_presets();
  std::string current = s.device_preset < 0
                            ? input.device.name + " (" + input.device.arch_string() + ")"
                            : presets[size_t(s.device_preset)].name;
  if (ImGui::BeginCombo("device", current.c_str())) {
    if (ImGui::Selectable((input.device.name + " (" + input.device.arch_string() + ")").c_str(),
                          s.device_preset < 0))
      s.device_preset = -1;
    for (size_t i = 0; i < presets.size(); ++i) {
      const std::string label = presets[i].name + " (" + presets[i].arch_string() + ")";
      if (ImGui::Selectable(label.c_str(), s.device_preset == int(i))) s.device_preset = int(i);
    }
    ImGui::EndCombo();
  }
  if (!input.kernel_name.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Reset to the kernel")) reset_panel_state(input, s);
  }
  const int max_threads = m.device.max_threads_per_block;
  int block[3] = {s.block_x, s.block_y, s.block_z};
  if (ImGui::SliderInt3("block x, y, z", block, 1, max_threads)) {
    s.block_x = block[0];
    s.block_y = std::min(block[1], max_threads / std::max(block[0], 1));
    s.block_z = std::min(block[2], 64);
  }
  ImGui::SliderInt("registers per thread", &s.regs_per_thread, 0, m.device.max_regs_per_thread);
  ImGui::SliderInt("--maxrregcount (0: none)", &s.max_regs_cap, 0, m.device.max_regs_per_thread);
  const int smem_max = int(max_smem_per_block(m.device));
  ImGui::SliderInt("static shared memory (bytes)", &s.static_smem, 0, smem_max);
  ImGui::SliderInt("dynamic shared memory (bytes)", &s.dynamic_smem, 0, smem_max);
  ImGui::SliderInt("carveout % (-1: default)", &s.carveout_percent, -1, 100);
  const int grid_max = int(std::max<uint64_t>(m.max_cooperative_grid * 2, 64));
  ImGui::SliderInt("grid (blocks)", &s.grid_blocks, 0, grid_max);
}

// [SECTION] The SM as four resources

void draw_resource_bar(const SmResourceBar& b, float width, float height) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::TextUnformatted(b.name.c_str());
  const float label_w = 110;
  const ImVec2 a{p.x + label_w, p.y};
  const ImVec2 z{p.x + label_w + width, p.y + height};
  dl->AddRectFilled(a, z, kFree);
  if (b.capacity > 0) {
    const double scale = width / b.capacity;
    // Blocks narrower than 2 px are drawn as one span (Tracy's rule: never draw what is too small).
    const double block_w = b.per_block * scale;
    if (block_w >= 2) {
      for (int i = 0; i < b.blocks; ++i) {
        const float x0 = a.x + float(i * block_w);
        const float x1 = a.x + float((i + 1) * block_w);
        dl->AddRectFilled({x0, a.y}, {std::min(x1, z.x), z.y}, i % 2 ? kBlockB : kBlockA);
      }
    } else if (b.blocks > 0) {
      dl->AddRectFilled(a, {a.x + float(std::min(b.blocks * block_w, double(width))), z.y},
                        kBlockA);
    }
  }
  dl->AddRect(a, z, b.limiter ? kLimiter : kFrame, 0, 0, b.limiter ? 3.0f : 1.0f);
  ImGui::SetCursorScreenPos({z.x + 8, p.y});
  if (b.limiter)
    ImGui::TextColored(ImVec4(1, 0.55f, 0, 1), "limiter  %s", b.caption.c_str());
  else
    ImGui::TextUnformatted(b.caption.c_str());
  ImGui::SetCursorScreenPos({p.x, z.y + 6});
  ImGui::Dummy({0, 0});
}

void draw_sm(const OccupancyPanelModel& m) {
  ImGui::TextUnformatted(("One SM of " + m.device.name + ": " + m.summary).c_str());
  const float width = std::max(120.0f, ImGui::GetContentRegionAvail().x * 0.45f);
  for (const SmResourceBar& b : m.bars) draw_resource_bar(b, width, 16);
  const OccupancyResult& r = m.result;
  ImGui::Text(
      "allocated per block: %d registers (%d per warp, unit %d), %zu bytes shared "
      "(%zu requested + %zu reserved, unit %d)",
      r.allocated_regs_per_block, r.allocated_regs_per_warp, r.reg_alloc_unit,
      r.allocated_smem_per_block, r.requested_smem_per_block, r.reserved_smem_per_block,
      r.smem_alloc_unit);
  if (r.grid_blocks > 0 && r.max_cooperative_grid > 0)
    ImGui::Text("grid of %llu blocks: %.2f waves (%llu rounds of placement)",
                static_cast<unsigned long long>(r.grid_blocks), r.waves,
                static_cast<unsigned long long>(r.full_waves));
}

// [SECTION] Occupancy charts

// Occupancy (0..1) against the series' x; the current point is marked and a click picks a new x.
// Returns the clicked x, or -1.
int64_t draw_chart(const char* title, const SweepSeries& s, ImVec2 size) {
  ImGui::TextUnformatted(title);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a = ImGui::GetCursorScreenPos();
  const ImVec2 z{a.x + size.x, a.y + size.y};
  ImGui::InvisibleButton(title, size);
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  dl->AddRectFilled(a, z, IM_COL32(30, 30, 34, 255));
  dl->AddRect(a, z, kFrame);
  if (s.samples.empty()) return -1;
  const double x0 = double(s.samples.front().x), x1 = double(s.samples.back().x);
  const double span = std::max(x1 - x0, 1.0);
  auto px = [&](double x) { return a.x + float((x - x0) / span) * size.x; };
  auto py = [&](double occ) { return z.y - float(occ) * size.y; };
  for (double level : {0.25, 0.5, 0.75})
    dl->AddLine({a.x, py(level)}, {z.x, py(level)}, IM_COL32(60, 60, 66, 255));
  // A step curve: occupancy holds until the next sample.
  std::vector<ImVec2> pts;
  pts.reserve(s.samples.size() * 2);
  for (size_t i = 0; i < s.samples.size(); ++i) {
    const float x = px(double(s.samples[i].x));
    if (i > 0) pts.push_back({x, pts.back().y});
    pts.push_back({x, py(s.samples[i].occupancy)});
  }
  dl->AddPolyline(pts.data(), int(pts.size()), kCurve, 0, 2.0f);
  if (s.current_index >= 0) {
    const SweepSample& c = s.samples[size_t(s.current_index)];
    const ImVec2 m{px(double(c.x)), py(c.occupancy)};
    dl->AddLine({m.x, a.y}, {m.x, z.y}, kMarker);
    dl->AddCircleFilled(m, 4.5f, kMarker);
    const std::string here = std::to_string(c.x) + ": " + text_of("%.0f %%", c.occupancy * 100);
    const float w = ImGui::CalcTextSize(here.c_str()).x;
    dl->AddText({std::min(m.x + 6, z.x - w - 2), z.y - 18}, kMarker, here.c_str());
  }
  // Axis ends: the x range below the chart, 100 % at the top left.
  dl->AddText({a.x + 2, a.y + 2}, kFrame, "100 %");
  const std::string lo = std::to_string(s.samples.front().x);
  const std::string hi = std::to_string(s.samples.back().x);
  ImGui::TextUnformatted(lo.c_str());
  ImGui::SameLine(size.x - ImGui::CalcTextSize(hi.c_str()).x);
  ImGui::TextUnformatted(hi.c_str());
  if (!hovered) return -1;
  const double mouse_x = x0 + double(ImGui::GetIO().MousePos.x - a.x) / size.x * span;
  const auto near =
      std::min_element(s.samples.begin(), s.samples.end(), [&](const auto& p, const auto& q) {
        return std::abs(double(p.x) - mouse_x) < std::abs(double(q.x) - mouse_x);
      });
  ImGui::BeginTooltip();
  ImGui::Text("%s = %lld: %d blocks/SM, %.0f %%", axis_label(s.axis),
              static_cast<long long>(near->x), near->active_blocks, near->occupancy * 100);
  std::string limiting;
  for (const std::string& n : limiter_names(near->limiting))
    limiting += (limiting.empty() ? "" : ", ") + n;
  if (!limiting.empty()) ImGui::Text("limited by %s", limiting.c_str());
  ImGui::EndTooltip();
  return clicked ? near->x : -1;
}

void draw_charts(const OccupancyPanelModel& m, OccupancyPanelState& s) {
  const float w = std::max(150.0f, (ImGui::GetContentRegionAvail().x - 16) / 3);
  const ImVec2 size{w, 110};
  ImGui::BeginGroup();
  if (int64_t x = draw_chart("occupancy vs threads per block", m.by_block, size); x > 0) {
    s.block_x = int(x);
    s.block_y = s.block_z = 1;
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  if (int64_t x = draw_chart("occupancy vs registers per thread", m.by_regs, size); x >= 0) {
    s.regs_per_thread = int(x);
    s.max_regs_cap = 0;
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  if (int64_t x = draw_chart("occupancy vs shared memory per block", m.by_smem, size); x >= 0)
    s.dynamic_smem = int(x) - s.static_smem;
  ImGui::EndGroup();
}

// [SECTION] Cooperative grid

void draw_cooperative(const OccupancyPanelModel& m) {
  if (!m.cooperative) return;
  ImGui::Separator();
  ImGui::Text("Cooperative launch: the largest legal grid is %llu blocks (%d per SM x %d SMs)",
              static_cast<unsigned long long>(m.max_cooperative_grid),
              m.result.active_blocks_per_sm, m.device.sm_count);
  if (!m.launch_error.empty())
    ImGui::TextColored(kErrorText, "%s", m.launch_error.c_str());
  else
    ImGui::TextUnformatted(
        "This grid fits: every block is resident at once, so grid.sync() is legal.");
}

}  // namespace

void draw_occupancy_panel(const OccupancyPanelInput& input, OccupancyPanelState& state) {
  if (panel_state_is_stale(input, state)) reset_panel_state(input, state);
  const OccupancyPanelModel m = build_occupancy_panel_model(input, state);
  ImGui::PushID("occupancy_panel");
  if (!input.kernel_name.empty()) ImGui::Text("kernel %s", input.kernel_name.c_str());
  draw_controls(input, state, m);
  if (!m.error.empty()) {
    ImGui::TextColored(kErrorText, "%s", m.error.c_str());
    ImGui::PopID();
    return;
  }
  ImGui::Separator();
  draw_sm(m);
  ImGui::Separator();
  draw_charts(m, state);
  draw_cooperative(m);
  ImGui::PopID();
}

// [SECTION] Block schedule timeline

void draw_block_schedule(const BlockSchedule& s, BlockScheduleViewState& state) {
  if (s.modelled && s.blocks_per_sm > 0)
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1),
                       "Modelled schedule (occupancy model, %d blocks per SM): not a measurement",
                       s.blocks_per_sm);
  else if (s.modelled)  // read back from a trace, which does not say how many fit
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1),
                       "Modelled schedule (occupancy model): not a measurement");
  else
    ImGui::Text("Measured: %%smid and %%globaltimer of every block (%s)", s.unit.c_str());
  ImGui::SliderFloat("row height", &state.lane_height, 2, 24, "%.0f px");
  // Each SM gets one row per block it held at once, so concurrent blocks do not hide each other.
  const std::vector<uint32_t> slot = slots_of_blocks(s);
  const std::vector<int> peak = peak_resident_per_sm(s);
  std::vector<float> lane_top(s.sm_count + 1, 0);
  const float row = state.lane_height, gap = 3;
  for (uint32_t sm = 0; sm < s.sm_count; ++sm)
    lane_top[sm + 1] =
        lane_top[sm] + row * float(std::max(sm < peak.size() ? peak[sm] : 0, 1)) + gap;
  const double makespan = std::max(s.makespan(), 1e-9);
  const float label_w = 48;
  const float width = std::max(100.0f, ImGui::GetContentRegionAvail().x - label_w - 16);
  ImGui::BeginChild("schedule_lanes", {0, std::min(lane_top.back() + 8, 420.0f)}, true);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy({width + label_w, lane_top.back()});
  // Only what lies inside the child window's visible rectangle is drawn.
  const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowSize().y;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const ScheduledBlock* hovered = nullptr;
  for (size_t i = 0; i < s.blocks.size(); ++i) {
    const ScheduledBlock& b = s.blocks[i];
    if (b.sm >= s.sm_count) continue;
    const float y = origin.y + lane_top[b.sm] + row * float(slot[i]);
    if (y + row < top || y > bottom) continue;
    const float x0 = origin.x + label_w + float(b.start / makespan) * width;
    const float x1 = std::max(x0 + 1, origin.x + label_w + float(b.end / makespan) * width);
    dl->AddRectFilled({x0, y}, {x1 - 1, y + row - 1}, block_colour(b.block));
    if (mouse.x >= x0 && mouse.x < x1 && mouse.y >= y && mouse.y < y + row) hovered = &b;
  }
  float last_label = -1e9f;
  for (uint32_t sm = 0; sm < s.sm_count; ++sm) {
    const float y = origin.y + lane_top[sm];
    if (y + row < top || y > bottom || y - last_label < 14) continue;
    dl->AddText({origin.x, y}, kFrame, ("SM " + std::to_string(sm)).c_str());
    last_label = y;
  }
  if (hovered && ImGui::IsWindowHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("block %u on SM %u", hovered->block, hovered->sm);
    ImGui::Text("%s .. %s %s", text_of("%.0f", hovered->start).c_str(),
                text_of("%.0f", hovered->end).c_str(), s.unit.c_str());
    ImGui::EndTooltip();
  }
  ImGui::EndChild();
}

// [SECTION] Demo window

void show_occupancy_demo_window(bool* open) {
  static OccupancyPanelState panel;
  static BlockScheduleViewState timeline;
  static const OccupancyPanelInput input = demo_occupancy_input();
  if (!ImGui::Begin("Occupancy (demo data)", open)) {
    ImGui::End();
    return;
  }
  draw_occupancy_panel(input, panel);
  if (ImGui::CollapsingHeader("Block schedule (modelled)")) {
    const OccupancyPanelModel m = build_occupancy_panel_model(input, panel);
    const int per_sm = m.result.active_blocks_per_sm;
    std::vector<double> durations(size_t(std::max(panel.grid_blocks, 0)));
    for (size_t b = 0; b < durations.size(); ++b) durations[b] = double(1 + b % 4);
    const BlockSchedule s = model_block_schedule(uint32_t(m.device.sm_count), per_sm, durations);
    draw_block_schedule(s, timeline);
  }
  ImGui::End();
}

}  // namespace coop::visual
