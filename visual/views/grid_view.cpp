// Index
//   [SECTION] Colours of threads, warps and blocks
//   [SECTION] Race marks
//   [SECTION] Toolbar and legend
//   [SECTION] Hover and click
//   [SECTION] One warp, zoomed (presentation)
//   [SECTION] Drawing at each level of detail
#include "visual/views/grid_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "device/trace/names.hpp"
#include "visual/event_text.hpp"
#include "visual/grid_layout.hpp"
#include "visual/views/grid_cells.hpp"
#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

// [SECTION] Colours of threads, warps and blocks (one thread's: grid_cells.cpp)

// Fit mode goes down to blocks of kMinBlockSquare pixels before it gives up and scrolls.
constexpr float kMinFitCell = kMinBlockSquare / 32;

// What most of a block's threads are doing (a sample of up to 64, spread over the block).
enum class BlockState : uint8_t { NotStarted, Running, Waiting, Done, Stuck };
constexpr size_t kBlockStates = 5;

BlockState block_state(const ThreadSnapshot& snap, uint32_t first, uint32_t threads) {
  std::array<uint32_t, kBlockStates> n{};
  const uint32_t stride = std::max(1u, threads / 64);
  for (uint32_t t = first; t < first + threads; t += stride) {
    switch (snap.activity(t)) {
      case ThreadActivity::NotStarted: ++n[0]; break;
      case ThreadActivity::Running:
        // A block counts as done once its threads have nothing more recorded.
        ++n[snap.played_last_event(t) ? 3 : 1];
        break;
      case ThreadActivity::Waiting: ++n[2]; break;
      case ThreadActivity::Done: ++n[3]; break;
      case ThreadActivity::Stuck: ++n[4]; break;
    }
  }
  if (n[4]) return BlockState::Stuck;  // one stuck thread makes the block stuck
  // A block that has started and not finished is running, whatever a sample says.
  if (n[0] == 0 && n[1] == 0 && n[2] == 0) return BlockState::Done;
  if (n[1] == 0 && n[3] == 0 && n[2] == 0) return BlockState::NotStarted;
  return n[2] >= n[1] ? BlockState::Waiting : BlockState::Running;
}

ImU32 state_color(BlockState s, const ViewColors& c) {
  switch (s) {
    case BlockState::NotStarted: return c.not_started;
    case BlockState::Running: return c.ok;
    case BlockState::Waiting: return c.warning;
    case BlockState::Done: return c.no_group;
    case BlockState::Stuck: return c.error;
  }
  return c.not_started;
}

// [SECTION] Race marks

// The marks of every marked thread in blocks [first, last), at the level of detail drawn: on
// its cell, its warp's stripe or its block's square; the picked race's two on top.
void draw_race_marks(ImDrawList* dl, const GridLayout& g, ImVec2 origin, uint32_t block_threads,
                     const GridRaceMarks& marks, uint32_t first, uint32_t last, float scale) {
  const float cell = g.in.cell;
  const uint64_t lo = uint64_t(first) * block_threads, hi = uint64_t(last) * block_threads;
  for (const RaceMark pass : {RaceMark::InRace, RaceMark::Picked}) {
    for (const uint32_t t : marks.in_race) {
      if (t < lo || t >= hi || marks.at(t) != pass) continue;
      const uint32_t b = t / block_threads, r = t % block_threads;
      const ImVec2 o(origin.x + g.block_x(b), origin.y + g.block_y(b));
      const float y = o.y + float(r / 32) * cell;
      if (g.detail == GridDetail::Blocks) {
        race_mark(dl, o, ImVec2(o.x + g.block_w, o.y + g.block_h), pass, scale);
      } else if (g.detail == GridDetail::Warps) {
        const uint32_t lanes = std::min(32u, block_threads - r / 32 * 32);
        race_mark(dl, ImVec2(o.x, y), ImVec2(o.x + float(lanes) * cell, y + cell), pass, scale);
      } else {
        const ImVec2 a(o.x + float(r % 32) * cell, y);
        race_mark(dl, a, ImVec2(a.x + cell - 1, a.y + cell - 1), pass, scale);
      }
    }
  }
}

// [SECTION] Toolbar and legend

// A legend entry; it starts a new line when the rest of this one is too narrow for it. `race`:
// the cell carries that race mark, as the grid draws it.
void swatch(ImU32 color, const char* label, ImU32 outline = 0, RaceMark race = RaceMark::None) {
  const float h = ImGui::GetTextLineHeight();
  const RaceFrame f = race_frame(race, h * 0.7f, view_style().scale);
  const float frame = race == RaceMark::None ? 0 : f.out + f.width * 0.5f;
  const float need = h * 0.75f + 2 * frame + 4 + ImGui::CalcTextSize(label).x;
  ImGui::SameLine(0, h * 0.6f);
  if (ImGui::GetContentRegionAvail().x < need + 12) ImGui::NewLine();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 a(p.x + frame, p.y + h * 0.15f), z(p.x + frame + h * 0.7f, p.y + h * 0.85f);
  ImGui::GetWindowDrawList()->AddRectFilled(a, z, color, 2);
  if (outline) ImGui::GetWindowDrawList()->AddRect(a, z, outline, 2, 0, 1.5f);
  race_mark(ImGui::GetWindowDrawList(), a, z, race, view_style().scale);
  ImGui::Dummy(ImVec2(h * 0.75f + 2 * frame, h));
  ImGui::SameLine(0, 4);
  ImGui::TextUnformatted(label);
}

// The line above a grid folded to one square per block: what the colours mean, with counts.
void block_summary(const std::array<uint32_t, kBlockStates>& n, const ViewColors& c) {
  ImGui::TextUnformatted("One square per block:");
  swatch(c.ok, (std::to_string(n[1]) + " running").c_str());
  swatch(c.warning, (std::to_string(n[2]) + " waiting at a barrier").c_str());
  swatch(c.no_group, (std::to_string(n[3]) + " done").c_str());
  swatch(c.not_started, (std::to_string(n[0]) + " not started").c_str());
  if (n[4]) swatch(c.error, (std::to_string(n[4]) + " stuck").c_str());
}

std::string color_by_label(ColorBy by, GroupKind kind) {
  if (by == ColorBy::HardwareBlock) return "blockIdx";
  if (by == ColorBy::HardwareWarp) return "warp in block";
  return std::string(name_of(kind)) + " groups";
}

void toolbar(const TimelineModel& model, const ThreadSnapshot& snap, GridViewSettings& s,
             ColorBy by, const GridRaceMarks* races) {
  const ViewStyle& st = view_style();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Colour by");
  // Wide enough for every choice, so the one shown is never cut.
  float widest = ImGui::CalcTextSize(color_by_label(ColorBy::HardwareWarp, {}).c_str()).x;
  for (GroupKind k : snap.group_kinds())
    widest = std::max(widest, ImGui::CalcTextSize(color_by_label(ColorBy::Group, k).c_str()).x);
  const float combo_w = widest + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
  same_line_if_room(combo_w);
  ImGui::SetNextItemWidth(combo_w);
  if (ImGui::BeginCombo("##colorby", color_by_label(by, s.group).c_str())) {
    for (GroupKind k : snap.group_kinds())
      if (ImGui::Selectable(color_by_label(ColorBy::Group, k).c_str(),
                            by == ColorBy::Group && s.group == k)) {
        s.color_by = ColorBy::Group;
        s.group = k;
      }
    if (ImGui::Selectable("blockIdx", by == ColorBy::HardwareBlock))
      s.color_by = ColorBy::HardwareBlock;
    if (ImGui::Selectable("warp in block", by == ColorBy::HardwareWarp))
      s.color_by = ColorBy::HardwareWarp;
    ImGui::EndCombo();
  }
  same_line_if_room(ImGui::GetFrameHeight() + ImGui::CalcTextSize("Fit").x +
                    ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::Checkbox("Fit", &s.fit);
  same_line_if_room(ImGui::GetFontSize() * 6);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  // Fitted thousands of blocks, a thread is under a pixel: the slider says so instead of "0 px".
  if (ImGui::SliderFloat("##zoom", &s.cell, 1.0f, 48.0f, s.cell < 1 ? "< 1 px" : "%.0f px",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_NoInput))
    s.fit = false;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Cell size (Ctrl + mouse wheel over the grid)");
  swatch(st.colors.not_started, "not started");
  swatch(scale_color(group_color(0), kWaitingShade), "waiting at a barrier", group_color(0));
  if (model.has_stuck())
    swatch(scale_color(group_color(0), kWaitingShade),
           model.has_fault() ? "stopped by the error" : "stuck (deadlock)", st.colors.error);
  if (by == ColorBy::Group) {
    swatch(st.colors.no_group, "no group yet");
    const std::string outside = std::string("never in a ") + std::string(name_of(s.group)) + " group";
    swatch(st.colors.not_member, outside.c_str(), st.colors.no_group);
  }
  if (races && !races->empty()) {
    swatch(group_color(0), "in a data race", 0, RaceMark::InRace);
    if (races->picked) swatch(group_color(0), "the race picked in Checks", 0, RaceMark::Picked);
  }
}

// [SECTION] Hover and click

// What the grid says about thread `t` under the mouse.
void thread_tooltip(const TimelineModel& model, const ThreadSnapshot& snap, uint32_t t,
                    const GridRaceMarks* races) {
  const ViewStyle& st = view_style();
  const uint32_t block_threads = std::max(1u, model.block_threads());
  ImGui::BeginTooltip();
  ImGui::Text("thread %u: block %u, warp %u, lane %u", t, t / block_threads,
              t % block_threads / 32, t % 32);
  for (GroupKind k : snap.group_kinds()) {
    const GroupMembership m = snap.membership(t, k);
    if (m.member())
      ImGui::Text("%s: rank %u of %u", group_label(k, m.id).c_str(), m.rank, m.size);
  }
  const int64_t last_pos = snap.last_position(t);
  if (last_pos < 0) {
    ImGui::TextUnformatted("has not started yet");
  } else {
    const Event& e = model.at(size_t(last_pos));
    ImGui::Text("line %d: %s", int(e.line), describe_event(e, model.trace().header, model.origin()).c_str());
    if (snap.activity(t) == ThreadActivity::Waiting)
      ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "waiting for the rest of its group");
    if (snap.activity(t) == ThreadActivity::Stuck)
      ImGui::TextColored(ImColor(st.colors.error), "stuck here for ever: the call can never "
                                                   "complete (deadlock)");
  }
  if (const RaceMark mark = races ? races->at(t) : RaceMark::None; mark != RaceMark::None)
    ImGui::TextColored(ImColor(st.colors.race),
                       mark == RaceMark::Picked
                           ? "one side of the race picked in Checks"
                           : "one side of a data race (Checks lists them)");
  ImGui::TextDisabled("click: select (its events are listed under \"Thread events\")");
  ImGui::EndTooltip();
}

// [SECTION] One warp, zoomed (presentation)

// The lanes of one warp in rows of eight cells, as large as the panel allows, under a line that
// says which threads they are: a room reads the numbers a step speaks of, which 32 cells in a row
// across a projector's column would draw a few pixels tall.
GridViewResult draw_focus_warp(const TimelineModel& model, const ThreadSnapshot& snap,
                               GridViewSettings& s, const Colorer& color,
                               const Selection& selected, const GridRaceMarks* races, ImVec2 size) {
  GridViewResult result;
  const ViewStyle& st = view_style();
  const uint32_t block_threads = std::max(1u, model.block_threads());
  const uint32_t warps_per_block = (block_threads + 31) / 32;
  const uint32_t warps = warps_per_block * std::max(1u, model.block_count());
  const uint32_t warp = uint32_t(std::min<int64_t>(s.focus_warp, warps - 1));
  const uint32_t block = warp / warps_per_block, in_block = warp % warps_per_block;
  const uint32_t first = block * block_threads + in_block * 32;
  const uint32_t lanes = std::min(32u, block_threads - in_block * 32);
  text_wrappedf("Zoomed to warp %u of block %u: threads %u to %u of %u.", in_block, block, first,
                first + lanes - 1, model.thread_count());
  const uint32_t columns = std::min(8u, lanes), rows = (lanes + columns - 1) / columns;
  // The panel would want cells as wide as its width allows, up to `largest`.
  const float largest = std::min(64.0f * st.scale, ImGui::GetContentRegionAvail().x / float(columns));
  result.wanted_height =
      ImGui::GetCursorPosY() + float(rows) * largest + ImGui::GetStyle().WindowPadding.y * 2;
  const float host_top = ImGui::GetWindowPos().y - ImGui::GetScrollY();  // its content's top
  ImGui::BeginChild("grid", size, false, ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float cell = std::floor(std::max(
      4.0f, std::min({avail.x / float(columns), avail.y / float(rows), largest})));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  CellText text;
  text.ranks = s.show_ranks;
  text.values = s.show_values && cell >= 34;
  text.min_digit_px = s.min_digit_px;
  const auto [sel_first, sel_last] = selected_threads(model, selected);
  for (uint32_t l = 0; l < lanes; ++l) {
    const ImVec2 a(origin.x + float(l % columns) * cell, origin.y + float(l / columns) * cell);
    const float ink = draw_lane_cell(dl, a, cell, first + l, color, model, text);
    ++result.drawn_rects;
    if (ink > 0) result.label_px = result.label_px > 0 ? std::min(result.label_px, ink) : ink;
    if (first + l >= sel_first && first + l < sel_last)
      dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + cell, a.y + cell), st.colors.selection,
                  0, 0, 2.0f);
    if (races) race_mark(dl, a, ImVec2(a.x + cell - 1, a.y + cell - 1), races->at(first + l), st.scale);
  }
  ImGui::Dummy(ImVec2(float(columns) * cell, float(rows) * cell));
  result.cells_px = height_in_sight(origin.y, origin.y + float(rows) * cell);
  result.cells_h = float(rows) * cell;
  result.cells_top = origin.y - host_top;
  if (ImGui::IsWindowHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const float x = m.x - origin.x, y = m.y - origin.y;
    const uint32_t l = uint32_t(std::max(0.0f, y) / cell) * columns + uint32_t(std::max(0.0f, x) / cell);
    if (x >= 0 && y >= 0 && x < float(columns) * cell && l < lanes) {
      result.hovered_thread = first + l;
      if (ImGui::IsMouseClicked(0)) result.clicked_thread = first + l;
      thread_tooltip(model, snap, first + l, races);
    }
  }
  ImGui::EndChild();
  return result;
}

}  // namespace

GridViewResult draw_grid_view(const char* id, const TimelineModel& model,
                              const ThreadSnapshot& snap, GridViewSettings& s,
                              const Selection& selected, ImVec2 size, const GridRaceMarks* races) {
  GridViewResult result;
  const ViewStyle& st = view_style();
  const ColorBy drawn = drawn_color_by(s.color_by, s.group, snap);
  const GroupKind kind = s.group;
  ImGui::PushID(id);
  if (s.show_toolbar) toolbar(model, snap, s, drawn, races);
  if (s.focus_warp >= 0) {
    const GridViewResult focused = draw_focus_warp(
        model, snap, s,
        Colorer{snap, drawn, kind, std::max(1u, model.block_threads()), st.colors}, selected,
        races, size);
    ImGui::PopID();
    return focused;
  }

  const uint32_t block_threads = std::max(1u, model.block_threads());
  GridLayoutInput in;
  in.block_count = std::max(1u, model.block_count());
  in.block_threads = block_threads;
  in.gap = std::max(3.0f, 6.0f * st.scale);
  const float label_h = ImGui::GetTextLineHeight();
  {
    // What the window around the grid would need without a height limit, with cells no larger
    // than fit mode makes them.
    GridLayoutInput free = in;
    free.width = std::max(40.0f, ImGui::GetContentRegionAvail().x);
    free.label = label_h;
    free.cell = fit_cell_size(free, 1e9f, 0.25f, 40.0f * st.scale);
    if (32 * free.cell < 60) free.label = 0;
    result.wanted_height =
        ImGui::GetCursorPosY() + layout_grid(free).content_h + ImGui::GetStyle().WindowPadding.y * 2;
  }
  // Zoomed in, the grid scrolls both ways; fitted, it never needs to.
  // Even the smallest cells (or folded squares) may not fit a small panel: then the fitted grid
  // scrolls down rather than being cut.
  const float host_top = ImGui::GetWindowPos().y - ImGui::GetScrollY();  // its content's top
  ImGui::BeginChild("grid", size, false,
                    ImGuiWindowFlags_NoBackground |
                        (!s.fit                ? ImGuiWindowFlags_HorizontalScrollbar
                         : s.overflowed_last_frame ? ImGuiWindowFlags_None
                                               : ImGuiWindowFlags_NoScrollbar));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  in.width = std::max(40.0f, avail.x);
  if (s.fit) {
    in.label = label_h;
    s.cell = fit_cell_size(in, avail.y, kMinFitCell, 40.0f * st.scale);
    if (32 * s.cell < 60) {  // labels only where a block is wide enough to carry one
      in.label = 0;
      s.cell = fit_cell_size(in, avail.y, kMinFitCell, 40.0f * st.scale);
    }
  }
  in.cell = s.cell;
  in.label = 32 * s.cell >= 60 ? label_h : 0;
  GridLayout g = layout_grid(in);
  std::array<uint32_t, kBlockStates> block_states{};
  if (g.detail == GridDetail::Blocks) {
    // Too many blocks for their threads to be seen: each block becomes one square coloured by
    // what its threads are doing, with the counts said above them.
    for (uint32_t b = 0; b < in.block_count; ++b)
      ++block_states[size_t(block_state(snap, b * block_threads, block_threads))];
    block_summary(block_states, st.colors);
    if (s.fit) {
      const float used = ImGui::GetCursorPosY();
      in.cell = s.cell =
          fit_cell_size(in, std::max(20.0f, avail.y - used), kMinFitCell, 40.0f * st.scale);
      g = layout_grid(in);
    }
  }

  s.overflowed_last_frame = s.fit && ImGui::GetCursorPosY() + g.content_h > avail.y + 1;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float scroll = ImGui::GetScrollY();
  const auto [first, last] = g.visible_blocks(scroll - label_h, scroll + ImGui::GetWindowHeight());
  const Colorer color{snap, drawn, kind, block_threads, st.colors};
  const bool gaps = s.cell >= 7;  // separate lanes visually once there is room
  CellText text;
  text.ranks = s.show_ranks && g.detail == GridDetail::Lanes && s.cell >= 10;
  text.values = text.ranks && s.show_values && s.cell >= 34;
  text.min_digit_px = s.min_digit_px;

  // [SECTION] Drawing at each level of detail
  for (uint32_t b = first; b < last; ++b) {
    const float bx = origin.x + g.block_x(b), by = origin.y + g.block_y(b);
    const uint32_t t0 = b * block_threads;
    if (g.in.label > 0) {
      char label[32];
      std::snprintf(label, sizeof label, "block %u", b);
      dl->AddText(ImVec2(bx, by - g.in.label), st.colors.dim_text, label);
    }
    if (g.detail == GridDetail::Blocks) {
      dl->AddRectFilled(ImVec2(bx, by), ImVec2(bx + g.block_w, by + g.block_h),
                        state_color(block_state(snap, t0, block_threads), st.colors));
      ++result.drawn_rects;
      continue;
    }
    for (uint32_t w = 0; w < g.warps_per_block; ++w) {
      const float y = by + float(w) * s.cell;
      const uint32_t lanes = std::min(32u, block_threads - w * 32);
      const uint32_t first_thread = t0 + w * 32;
      if (g.detail == GridDetail::Warps) {
        dl->AddRectFilled(ImVec2(bx, y), ImVec2(bx + float(lanes) * s.cell, y + s.cell),
                          color.majority(first_thread, first_thread + lanes));
        ++result.drawn_rects;
        continue;
      }
      if (!gaps) {
        // Small cells: runs of one colour become one rectangle.
        uint32_t run = 0;
        ImU32 run_color = color.thread(first_thread);
        for (uint32_t l = 1; l <= lanes; ++l) {
          const ImU32 c = l < lanes ? color.thread(first_thread + l) : 0;
          if (l < lanes && c == run_color) continue;
          dl->AddRectFilled(ImVec2(bx + float(run) * s.cell, y),
                            ImVec2(bx + float(l) * s.cell, y + s.cell), run_color);
          ++result.drawn_rects;
          run = l;
          run_color = c;
        }
        continue;
      }
      for (uint32_t l = 0; l < lanes; ++l) {
        const float ink = draw_lane_cell(dl, ImVec2(bx + float(l) * s.cell, y), s.cell,
                                         first_thread + l, color, model, text);
        ++result.drawn_rects;
        if (ink > 0) result.label_px = result.label_px > 0 ? std::min(result.label_px, ink) : ink;
      }
    }
  }
  // The selection: its block, warp or thread outlined.
  if (const auto [sel_first, sel_last] = selected_threads(model, selected); sel_first < sel_last) {
    const uint32_t b = sel_first / block_threads, r0 = sel_first % block_threads;
    const float bx = origin.x + g.block_x(b), by = origin.y + g.block_y(b);
    if (selected.scope == SelectionScope::Block || g.detail == GridDetail::Blocks) {
      dl->AddRect(ImVec2(bx - 2, by - 2), ImVec2(bx + g.block_w + 1, by + g.block_h + 1),
                  st.colors.selection, 0, 0, 2.0f);
    } else if (selected.scope == SelectionScope::Warp || g.detail == GridDetail::Warps) {
      const float y = by + float(r0 / 32) * s.cell;
      dl->AddRect(ImVec2(bx - 2, y - 2), ImVec2(bx + g.block_w + 1, y + s.cell + 1),
                  st.colors.selection, 0, 0, 2.0f);
    } else {
      const ImVec2 a(bx + float(r0 % 32) * s.cell, by + float(r0 / 32) * s.cell);
      dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + s.cell, a.y + s.cell), st.colors.selection,
                  0, 0, 2.0f);
    }
  }
  // Races over the selection: a selected warp's outline would hide the marks of its lanes.
  if (races && !races->empty())
    draw_race_marks(dl, g, origin, block_threads, *races, first, last, st.scale);
  ImGui::Dummy(ImVec2(g.content_w, g.content_h));
  result.cells_px = height_in_sight(origin.y, origin.y + g.content_h);
  result.cells_h = g.content_h;
  result.cells_top = origin.y + ImGui::GetScrollY() - host_top;

  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsWindowHovered()) {
    if (io.KeyCtrl && io.MouseWheel != 0) {
      s.fit = false;
      s.cell = std::clamp(s.cell * (1.0f + 0.15f * io.MouseWheel), 0.5f, 48.0f);
    }
    const float mx = io.MousePos.x - origin.x, my = io.MousePos.y - origin.y;
    result.hovered_thread = g.thread_at(mx, my);
    if (result.hovered_thread >= 0) {
      const uint32_t t = uint32_t(result.hovered_thread);
      if (ImGui::IsMouseClicked(0)) result.clicked_thread = t;
      thread_tooltip(model, snap, t, races);
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
  return result;
}

}  // namespace coop::visual
