// Index
//   [SECTION] Demo data
//   [SECTION] One function per view
//   [SECTION] The window
#include "visual/views/demo_window.hpp"

#include <memory>
#include <vector>

#include <imgui.h>

#include "visual/markdown.hpp"
#include "visual/synthetic_trace.hpp"
#include "visual/views/barrier_view.hpp"
#include "visual/views/code_view.hpp"
#include "visual/views/flow_view.hpp"
#include "visual/views/grid_view.hpp"
#include "visual/views/markdown_view.hpp"
#include "visual/views/memory_views.hpp"
#include "visual/views/playback_view.hpp"

namespace coop::visual {
namespace {

// [SECTION] Demo data

struct DemoState {
  SyntheticTraceSpec spec;
  std::unique_ptr<TimelineModel> model;
  PlaybackState playback;
  ThreadSnapshot snapshot;
  GridViewSettings grid;
  CodeViewSettings code;
  Selection selected;
  BarrierViewSettings barrier_settings;
  FlowViewSettings flow_settings;
  std::unique_ptr<BarrierTimeline> barriers;
  std::vector<AddressHistory> histories;

  void rebuild() {
    snapshot.reset();
    model = std::make_unique<TimelineModel>(make_synthetic_trace(spec));
    playback = PlaybackState{};
    step_phases(playback, *model, 1);
    barriers = std::make_unique<BarrierTimeline>(*model, barrier_settings.lanes);
    histories = build_memory_histories(*model);
    barrier_settings.zoom = 0;
  }
};

DemoState& demo() {
  static DemoState state = [] {
    DemoState s;
    s.spec.blocks = 16;
    s.spec.block_threads = 128;
    s.rebuild();
    return s;
  }();
  return state;
}

// [SECTION] One function per view

void DemoData(DemoState& d) {
  int blocks = int(d.spec.blocks), threads = int(d.spec.block_threads), rounds = int(d.spec.rounds);
  bool changed = ImGui::SliderInt("blocks", &blocks, 1, 2048, "%d", ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::SliderInt("threads per block", &threads, 32, 1024);
  changed |= ImGui::SliderInt("barrier rounds", &rounds, 0, 8);
  if (changed) {
    d.spec.blocks = uint32_t(blocks);
    d.spec.block_threads = uint32_t(threads) / 32 * 32;
    d.spec.rounds = uint32_t(rounds);
    d.rebuild();
  }
  ImGui::Text("%zu events, %u threads, %zu barrier phases", d.model->size(),
              d.model->thread_count(), d.model->phase_ends().size());
}

void DemoPlayback(DemoState& d) {
  draw_playback_bar(*d.model, d.playback);
  advance(d.playback, *d.model, ImGui::GetIO().DeltaTime);
}

// Two made-up races for the grid's marks: threads 3 and 40 (picked) and 70 and 71.
GridRaceMarks demo_race_marks() {
  std::vector<Race> races(2);
  races[0].first.thread = 3, races[0].second.thread = 40;
  races[1].first.thread = 70, races[1].second.thread = 71;
  return grid_race_marks(races, 0);
}

void DemoThreadGrid(DemoState& d) {
  static bool races = true;
  ImGui::Checkbox("race marks", &races);
  const GridRaceMarks marks = races ? demo_race_marks() : GridRaceMarks{};
  const GridViewResult r = draw_grid_view("demo_grid", *d.model, d.snapshot, d.grid, d.selected,
                                          ImVec2(0, ImGui::GetFontSize() * 16), &marks);
  if (r.clicked_thread >= 0) d.selected.thread = r.clicked_thread;
  ImGui::TextDisabled("%u rectangles drawn", r.drawn_rects);
}

void DemoCode(DemoState& d) {
  CodeViewInput in;
  in.source = d.model->trace().header.source;
  in.line_counts = &d.snapshot.line_counts();
  in.thread_count = d.model->thread_count();
  in.step_lines = {12};
  if (d.playback.cursor > 0) in.last_event_line = d.model->at(d.playback.cursor - 1).line;
  const int line = draw_code_view("demo_code", in, d.code, ImGui::GetFontSize() * 14);
  if (line > 0) {
    const size_t pos = find_next_on_line(*d.model, d.playback.cursor, line);
    if (pos < d.model->size()) seek(d.playback, *d.model, end_of_moment(*d.model, pos));
  }
}

void DemoBarriers(DemoState& d) {
  ImGui::BeginChild("demo_barriers", ImVec2(0, ImGui::GetFontSize() * 14));
  const BarrierViewResult r =
      draw_barrier_view("barriers", *d.model, *d.barriers, d.playback.cursor, d.barrier_settings);
  if (r.lanes_changed)
    d.barriers = std::make_unique<BarrierTimeline>(*d.model, d.barrier_settings.lanes);
  if (r.seek >= 0) seek(d.playback, *d.model, size_t(r.seek));
  ImGui::EndChild();
}

void DemoAtomics(DemoState& d) {
  ImGui::BeginChild("demo_atomics", ImVec2(0, ImGui::GetFontSize() * 16));
  const int64_t at = draw_atomic_order_view("atomics", *d.model, d.histories, d.playback.cursor);
  if (at >= 0) seek(d.playback, *d.model, size_t(at));
  ImGui::EndChild();
}

void DemoFlow(DemoState& d) {
  ImGui::BeginChild("demo_flow", ImVec2(0, ImGui::GetFontSize() * 11));
  const auto call = collective_before(*d.model, d.playback.cursor, d.flow_settings.line);
  const int64_t at = draw_flow_view("flow", *d.model, call, d.flow_settings);
  if (at >= 0) seek(d.playback, *d.model, size_t(at));
  ImGui::EndChild();
}

void DemoMemory(DemoState& d) {
  ImGui::BeginChild("demo_memory", ImVec2(0, ImGui::GetFontSize() * 12));
  const int64_t at = draw_memory_view("memory", *d.model, memory_at(*d.model, d.playback.cursor),
                                      d.playback.cursor);
  if (at >= 0) seek(d.playback, *d.model, size_t(at));
  ImGui::EndChild();
}

void DemoMarkdown() {
  static const std::vector<TextBlock> blocks = parse_markdown(
      "# A heading\n\nA paragraph with `code`, **bold** and *emphasised* text and enough words "
      "to wrap when the window is narrow; a * b stays a product.\n\n## Lists\n\n- a bullet\n"
      "- another, with `tiled_partition`\n\n1. first\n2. second\n\n## A table\n\n"
      "| call | lane l receives | lanes without a source |\n| --- | :-: | --- |\n"
      "| `shfl_up(v, d)` | lane `l - d` | lanes `0..d-1` keep their own value |\n"
      "| `shfl_xor(v, m)` | lane `l ^ m` | *none* |\n");
  draw_markdown(blocks);
}

}  // namespace

// [SECTION] The window

void ShowVisualDemoWindow(bool* open) {
  DemoState& d = demo();
  ImGui::SetNextWindowSize(ImVec2(760, 720), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("coopviz views on synthetic data", open)) {
    ImGui::End();
    return;
  }
  d.snapshot.update(*d.model, d.playback.cursor);
  if (ImGui::CollapsingHeader("Data", ImGuiTreeNodeFlags_DefaultOpen)) DemoData(d);
  if (ImGui::CollapsingHeader("Playback", ImGuiTreeNodeFlags_DefaultOpen)) DemoPlayback(d);
  d.snapshot.update(*d.model, d.playback.cursor);
  if (ImGui::CollapsingHeader("Thread grid", ImGuiTreeNodeFlags_DefaultOpen)) DemoThreadGrid(d);
  if (ImGui::CollapsingHeader("Barrier timeline")) DemoBarriers(d);
  if (ImGui::CollapsingHeader("Atomic order and lost updates")) DemoAtomics(d);
  if (ImGui::CollapsingHeader("Collective data flow")) DemoFlow(d);
  if (ImGui::CollapsingHeader("Memory")) DemoMemory(d);
  if (ImGui::CollapsingHeader("Code")) DemoCode(d);
  if (ImGui::CollapsingHeader("Lesson text")) DemoMarkdown();
  ImGui::End();
}

}  // namespace coop::visual
