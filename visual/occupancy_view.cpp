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
#include "visual/field_text.hpp"
#include "visual/views/style.hpp"
#include "visual/views/text_field.hpp"

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

void wrapped_colored(const ImVec4& colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

void wrapped_error(const std::string& text) { wrapped_colored(kErrorText, text); }

std::string text_of(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// A round step (1, 2 or 5 times a power of ten) that cuts `span` into about `ticks` parts.
double nice_step(double span, int ticks) {
  const double raw = span / std::max(ticks, 1);
  const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-12))));
  for (double m : {1.0, 2.0, 5.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

// [SECTION] Controls

// A label and its field: side by side where the panel has room for both, the field under its
// label where it has not, so neither is ever cut.
void field_row(const char* label, float label_w) {
  const float full = ImGui::GetContentRegionAvail().x;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (full - label_w >= ImGui::GetFontSize() * 7) ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-1);
}

// One typed number of the panel: refused with its limits at the field, else taken into `value`.
void whole_field(const char* label, float label_w, OccupancyPanelState& s, int& value,
                 int64_t min, int64_t max, const char* what) {
  field_row(label, label_w);
  text_field((std::string("##") + label).c_str(), s.fields[label], std::to_string(value),
             [&](std::string_view text) -> Status {
               Result<int64_t> v = parse_whole(text, what, min, max);
               if (!v) return Status::error(v.message());
               value = int(*v);
               return {};
             });
}

void draw_controls(const OccupancyPanelInput& input, OccupancyPanelState& s,
                   const OccupancyPanelModel& m) {
  const std::vector<DeviceProps>& presets = device_presets();
  std::string current = s.device_preset < 0
                            ? input.device.name + " (" + input.device.arch_string() + ")"
                            : presets[size_t(s.device_preset)].name;
  const char* labels[] = {"device", "block", "registers per thread", "--maxrregcount",
                          "static shared (bytes)", "dynamic shared (bytes)", "carveout %",
                          "grid (blocks)"};
  float label_w = 0;
  for (const char* l : labels) label_w = std::max(label_w, ImGui::CalcTextSize(l).x);
  label_w += ImGui::GetStyle().ItemSpacing.x * 2;
  field_row("device", label_w);
  if (ImGui::BeginCombo("##device", current.c_str())) {
    if (ImGui::Selectable((input.device.name + " (" + input.device.arch_string() + ")").c_str(),
                          s.device_preset < 0))
      s.device_preset = -1;
    for (size_t i = 0; i < presets.size(); ++i) {
      const std::string label = presets[i].name + " (" + presets[i].arch_string() + ")";
      if (ImGui::Selectable(label.c_str(), s.device_preset == int(i))) s.device_preset = int(i);
    }
    ImGui::EndCombo();
  }
  const DeviceProps& d = m.device;
  field_row("block", label_w);
  text_field("##block", s.fields["block"], dims_text({uint32_t(s.block_x), uint32_t(s.block_y),
                                                      uint32_t(s.block_z)}),
             [&](std::string_view text) -> Status {
               Result<Dim3> b = parse_dims(
                   text, "block",
                   d.max_block_dims, uint64_t(d.max_threads_per_block));
               if (!b) return Status::error(b.message());
               s.block_x = int(b->x), s.block_y = int(b->y), s.block_z = int(b->z);
               return {};
             });
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Threads per block: X, X,Y or X,Y,Z");
  whole_field("registers per thread", label_w, s, s.regs_per_thread, 1, d.max_regs_per_thread,
              "registers per thread");
  whole_field("--maxrregcount", label_w, s, s.max_regs_cap, 0, d.max_regs_per_thread,
              "--maxrregcount (0: no cap)");
  const int64_t smem_max = int64_t(max_smem_per_block(d));
  whole_field("static shared (bytes)", label_w, s, s.static_smem, 0, smem_max,
              "static shared memory per block (bytes)");
  whole_field("dynamic shared (bytes)", label_w, s, s.dynamic_smem, 0, smem_max,
              "dynamic shared memory per block (bytes)");
  whole_field("carveout %", label_w, s, s.carveout_percent, -1, 100,
              "shared memory carveout in % (-1: the driver's default)");
  whole_field("grid (blocks)", label_w, s, s.grid_blocks, 0, int64_t(d.max_grid_dims.x),
              "grid size in blocks (0: no grid)");
  if (!input.kernel_name.empty()) {
    if (ImGui::Button("Reset to the kernel")) reset_panel_state(input, s);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Back to %s's registers and shared memory and the launch that ran",
                        input.kernel_name.c_str());
  }
}

// [SECTION] The SM as four resources

void draw_resource_bar(const SmResourceBar& b, float label_w, float width, float height) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::TextUnformatted(b.name.c_str());
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
  // The caption goes beside the bar where it fits, else under it (indented to the bar).
  const std::string caption = (b.limiter ? "limiter: " : "") + b.caption;
  const float caption_w = ImGui::CalcTextSize(caption.c_str()).x;
  const bool beside = z.x + 8 + caption_w <= right;
  ImGui::SetCursorScreenPos(beside ? ImVec2{z.x + 8, p.y} : ImVec2{a.x, z.y + 2});
  ImGui::PushTextWrapPos(0);
  if (b.limiter)
    ImGui::TextColored(ImVec4(1, 0.55f, 0, 1), "%s", caption.c_str());
  else
    ImGui::TextUnformatted(caption.c_str());
  ImGui::PopTextWrapPos();
  const float below = beside ? z.y + 6 : ImGui::GetCursorScreenPos().y + 2;
  ImGui::SetCursorScreenPos({p.x, std::max(below, z.y + 6)});
  ImGui::Dummy({0, 0});
}

void draw_sm(const OccupancyPanelModel& m) {
  text_wrappedf("One SM of %s: %s", m.device.name.c_str(), m.summary.c_str());
  float label_w = 0;
  for (const SmResourceBar& b : m.bars)
    label_w = std::max(label_w, ImGui::CalcTextSize(b.name.c_str()).x);
  label_w += ImGui::GetStyle().ItemSpacing.x * 2;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float width = std::max(80.0f, std::min(avail - label_w, avail * 0.45f));
  for (const SmResourceBar& b : m.bars)
    draw_resource_bar(b, label_w, width, ImGui::GetFontSize() * 0.9f);
  const OccupancyResult& r = m.result;
  text_wrappedf(
      "allocated per block: %d registers (%d per warp, unit %d), %zu bytes shared "
      "(%zu requested + %zu reserved, unit %d)",
      r.allocated_regs_per_block, r.allocated_regs_per_warp, r.reg_alloc_unit,
      r.allocated_smem_per_block, r.requested_smem_per_block, r.reserved_smem_per_block,
      r.smem_alloc_unit);
  if (const std::string waves = waves_text(r); !waves.empty())
    text_wrappedf("grid: %s", waves.c_str());
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
  // Three charts side by side where they get at least 12 characters' width each, else fewer
  // per row.
  const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
  const float min_w = std::max(ImGui::GetFontSize() * 12,
                               ImGui::CalcTextSize("occupancy vs shared memory per block").x);
  const int per_row = std::clamp(int((avail + gap) / (min_w + gap)), 1, 3);
  const float w = std::max(60.0f, (avail - gap * float(per_row - 1)) / float(per_row));
  const ImVec2 size{w, ImGui::GetFontSize() * 7};
  int drawn = 0;
  auto next = [&] {
    ImGui::EndGroup();
    if (++drawn % per_row != 0) ImGui::SameLine();
    ImGui::BeginGroup();
  };
  ImGui::BeginGroup();
  if (int64_t x = draw_chart("occupancy vs threads per block", m.by_block, size); x > 0) {
    s.block_x = int(x);
    s.block_y = s.block_z = 1;
  }
  next();
  if (int64_t x = draw_chart("occupancy vs registers per thread", m.by_regs, size); x >= 0) {
    s.regs_per_thread = int(x);
    s.max_regs_cap = 0;
  }
  next();
  if (int64_t x = draw_chart("occupancy vs shared memory per block", m.by_smem, size); x >= 0)
    s.dynamic_smem = int(x) - s.static_smem;
  ImGui::EndGroup();
}

// [SECTION] Cooperative grid

void draw_cooperative(const OccupancyPanelModel& m) {
  if (!m.cooperative) return;
  ImGui::Separator();
  text_wrappedf("Cooperative launch: the largest legal grid is %llu blocks (%d per SM x %d SMs)",
              static_cast<unsigned long long>(m.max_cooperative_grid),
              m.result.active_blocks_per_sm, m.device.sm_count);
  if (!m.launch_error.empty())
    wrapped_error(m.launch_error);
  else
    text_wrappedf(
        "This grid fits: every block is resident at once, so grid.sync() is legal.");
}

}  // namespace

void draw_occupancy_panel(const OccupancyPanelInput& input, OccupancyPanelState& state) {
  if (panel_state_is_stale(input, state)) reset_panel_state(input, state);
  const OccupancyPanelModel m = build_occupancy_panel_model(input, state);
  ImGui::PushID("occupancy_panel");
  if (!input.kernel_name.empty()) ImGui::Text("kernel %s", input.kernel_name.c_str());
  // The answer first (it is what a step talks about), then the inputs to try others with; an
  // input refused leaves no answer, only the reason, above the field to correct.
  if (m.error.empty())
    draw_sm(m);
  else
    wrapped_error(m.error);
  ImGui::Separator();
  draw_controls(input, state, m);
  if (m.error.empty()) {
    ImGui::Separator();
    draw_charts(m, state);
    draw_cooperative(m);
  }
  ImGui::PopID();
}

// [SECTION] Block schedule timeline

void draw_block_schedule(const BlockSchedule& s, BlockScheduleViewState& state,
                         std::optional<double> now) {
  if (s.modelled && s.blocks_per_sm > 0)
    wrapped_colored(ImVec4(1, 0.8f, 0.3f, 1),
                    "Modelled schedule (occupancy model, " + std::to_string(s.blocks_per_sm) +
                        " blocks per SM): not a measurement");
  else if (s.modelled)  // read back from a trace, which does not say how many fit
    wrapped_colored(ImVec4(1, 0.8f, 0.3f, 1),
                    "Modelled schedule (occupancy model): not a measurement");
  else
    text_wrappedf("Measured: %%smid and %%globaltimer of every block (%s)", s.unit.c_str());
  // The legend: what a bar, its colour and the vertical line mean.
  {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float box = ImGui::GetFontSize() * 0.7f;
    auto swatch = [&](ImU32 fill, ImU32 border, const char* label) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float y = p.y + (ImGui::GetTextLineHeight() - box) * 0.5f;
      if (fill) dl->AddRectFilled({p.x, y}, {p.x + box, y + box}, fill);
      if (border) dl->AddRect({p.x, y}, {p.x + box, y + box}, border);
      ImGui::Dummy({box, ImGui::GetTextLineHeight()});
      ImGui::SameLine();
      ImGui::TextUnformatted(label);
    };
    text_wrappedf("a bar = one block, from its start to its end:");
    same_line_if_room(box * 8);
    swatch(kBlockA, 0, "running");
    same_line_if_room(box * 6);
    swatch(IM_COL32(86, 156, 214, 110), 0, "done");
    same_line_if_room(box * 10);
    swatch(0, kFrame, "not started yet");
    same_line_if_room(box * 6);
    {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      dl->AddLine({p.x + box * 0.5f, p.y}, {p.x + box * 0.5f, p.y + ImGui::GetTextLineHeight()},
                  kMarker, 2);
      ImGui::Dummy({box, ImGui::GetTextLineHeight()});
      ImGui::SameLine();
      ImGui::TextUnformatted("now");
    }
    text_dim_wrapped("Colours take turns by block index so neighbouring blocks differ; an SM "
                     "has one row per block it holds at once.");
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderFloat("row height", &state.lane_height, 2, 24, "%.0f px",
                     ImGuiSliderFlags_NoInput);
  // Each SM gets one row per block it held at once, so concurrent blocks do not hide each other.
  const std::vector<uint32_t> slot = slots_of_blocks(s);
  const std::vector<int> peak = peak_resident_per_sm(s);
  std::vector<float> lane_top(s.sm_count + 1, 0);
  const float row = state.lane_height, gap = 3;
  for (uint32_t sm = 0; sm < s.sm_count; ++sm)
    lane_top[sm + 1] =
        lane_top[sm] + row * float(std::max(sm < peak.size() ? peak[sm] : 0, 1)) + gap;
  const double makespan = std::max(s.makespan(), 1e-9);
  const float label_w = ImGui::CalcTextSize("SM 000").x + 6;
  const float axis_h = ImGui::GetTextLineHeightWithSpacing() * 2 + 10;
  // The lanes scroll; the width leaves room for the child's border and scrollbar.
  const float width = std::max(60.0f, ImGui::GetContentRegionAvail().x - label_w -
                                          ImGui::GetStyle().ScrollbarSize -
                                          ImGui::GetStyle().WindowPadding.x * 2 - 4);
  const float lanes_h = std::min(lane_top.back() + 8,
                                 std::max(120.0f, ImGui::GetContentRegionAvail().y - axis_h - 4));
  const ImVec2 lanes_at = ImGui::GetCursorScreenPos();
  ImGui::BeginChild("schedule_lanes", {0, lanes_h}, true);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy({width + label_w, lane_top.back()});
  // Only what lies inside the child window's visible rectangle is drawn.
  const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowSize().y;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const ScheduledBlock* hovered = nullptr;
  auto x_of = [&](double t) { return origin.x + label_w + float(t / makespan) * width; };
  for (size_t i = 0; i < s.blocks.size(); ++i) {
    const ScheduledBlock& b = s.blocks[i];
    if (b.sm >= s.sm_count) continue;
    const float y = origin.y + lane_top[b.sm] + row * float(slot[i]);
    if (y + row < top || y > bottom) continue;
    const float x0 = x_of(b.start);
    const float x1 = std::max(x0 + 1, x_of(b.end));
    const ImU32 c = block_colour(b.block);
    if (now && b.start > *now)  // not started at the playback moment: an outline
      dl->AddRect({x0, y}, {x1 - 1, y + row - 1}, (c & 0x00ffffff) | 0x70000000);
    else if (now && b.end <= *now)  // done
      dl->AddRectFilled({x0, y}, {x1 - 1, y + row - 1}, (c & 0x00ffffff) | 0x6e000000);
    else
      dl->AddRectFilled({x0, y}, {x1 - 1, y + row - 1}, c);
    if (mouse.x >= x0 && mouse.x < x1 && mouse.y >= y && mouse.y < y + row) hovered = &b;
  }
  float last_label = -1e9f;
  for (uint32_t sm = 0; sm < s.sm_count; ++sm) {
    const float y = origin.y + lane_top[sm];
    if (y + row < top || y > bottom || y - last_label < ImGui::GetFontSize()) continue;
    dl->AddText({origin.x, y}, kFrame, ("SM " + std::to_string(sm)).c_str());
    last_label = y;
  }
  if (now) {
    const float x = x_of(*now);
    dl->AddLine({x, top}, {x, bottom}, kMarker, 2);
  }
  if (hovered && ImGui::IsWindowHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("block %u on SM %u", hovered->block, hovered->sm);
    ImGui::Text("%s .. %s %s", text_of("%.0f", hovered->start).c_str(),
                text_of("%.0f", hovered->end).c_str(), s.unit.c_str());
    ImGui::EndTooltip();
  }
  ImGui::EndChild();
  // The time axis under the lanes, in the schedule's unit, with the playback moment on it.
  {
    ImDrawList* adl = ImGui::GetWindowDrawList();
    const float x0 = lanes_at.x + ImGui::GetStyle().WindowPadding.x + label_w;
    const float y = ImGui::GetCursorScreenPos().y;
    adl->AddLine({x0, y}, {x0 + width, y}, kFrame);
    const double step = nice_step(makespan, std::max(2, int(width / (ImGui::GetFontSize() * 6))));
    for (double t = 0; t <= makespan * 1.0001; t += step) {
      const float x = x0 + float(t / makespan) * width;
      adl->AddLine({x, y}, {x, y + 4}, kFrame);
      const std::string label = text_of(step < 1 ? "%.2f" : "%.0f", t);
      const float w = ImGui::CalcTextSize(label.c_str()).x;
      adl->AddText({std::clamp(x - w * 0.5f, x0 - label_w, x0 + width - w), y + 5}, kFrame,
                   label.c_str());
    }
    if (now) {
      const float x = x0 + float(*now / makespan) * width;
      adl->AddTriangleFilled({x, y}, {x - 5, y + 8}, {x + 5, y + 8}, kMarker);
    }
    ImGui::Dummy({0, ImGui::GetTextLineHeight() + 6});
    ImGui::TextDisabled("time (%s)%s", s.unit.c_str(),
                        now ? text_of(", now at %.0f", *now).c_str() : "");
  }
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
