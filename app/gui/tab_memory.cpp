// The Memory tab: one warp-wide request at a time (its lanes, their sectors or banks) when the
// launch recorded its loads and stores, with Nsight Compute's counters for the launch where the
// lesson ships them; and the contents of the arrays the kernel touched, as they stand at the
// playback moment.
#include "app/gui/tab_memory.hpp"

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "app/gui/panels.hpp"
#include "app/ncu_compare.hpp"
#include "visual/memory_state.hpp"
#include "visual/views/request_view.hpp"

namespace coop::app {
namespace {

struct MemoryData {
  // The arrays at `cursor`: found again only when playback moves.
  size_t cursor = SIZE_MAX;
  std::vector<visual::MemoryArray> arrays;
  std::optional<visual::RequestBrowser> requests;
};

MemoryData& memory_data(GuiApp& app) {
  return tab_data<MemoryData>(app, ResultTab::Memory);
}

// Which launch of its kernel the shown launch is (from 1), as Nsight Compute counts them.
int launch_of_kernel(const GuiApp& app) {
  int n = 0;
  const std::string& kernel = app.model()->trace().header.kernel;
  for (int i = 0; i <= app.launch && size_t(i) < app.models.size(); ++i)
    n += app.models[size_t(i)]->trace().header.kernel == kernel;
  return n;
}

// Nsight Compute's counters for the shown launch beside the emulator's, from the lesson's ncu.json.
void draw_gpu_counters(GuiApp& app) {
  const lessons::LessonDef* l = app.lesson_def();
  if (!l || !l->records_memory) return;
  ImGui::Spacing();
  panel_title("On a GPU (Nsight Compute)");
  const GpuCountersShown shown =
      gpu_counters_for(*l, app.model()->trace().header.kernel, launch_of_kernel(app));
  if (shown.rows.empty()) return visual::text_dim_wrapped(shown.message);
  visual::text_dim_wrapped("Measured on " + shown.device + ", the whole launch:");
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable("ncu", 4, flags)) return;
  ImGui::TableSetupColumn("counter");
  ImGui::TableSetupColumn("emulator");
  ImGui::TableSetupColumn("GPU");
  ImGui::TableSetupColumn("");
  ImGui::TableHeadersRow();
  const visual::ViewStyle& st = visual::view_style();
  for (const CounterRow& r : shown.rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.counter.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%g", r.emulator);
    ImGui::TableNextColumn();
    if (r.ncu)
      ImGui::Text("%g", *r.ncu);
    else
      ImGui::TextDisabled("-");
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, r.agree ? st.colors.ok : st.colors.warning);
    visual::text_wrapped(r.agree ? "agree" : r.note);
    ImGui::PopStyleColor();
  }
  ImGui::EndTable();
}

void draw_arrays(GuiApp& app, MemoryData& d) {
  const visual::TimelineModel& m = *app.model();
  if (d.cursor != app.playback.cursor) {
    d.arrays = visual::memory_at(m, app.playback.cursor);
    d.cursor = app.playback.cursor;
  }
  seek_from_view(app, visual::draw_memory_view("memory", m, d.arrays, app.playback.cursor));
}

void draw_memory_tab(GuiApp& app) {
  if (no_trace_yet(app)) return;
  MemoryData& d = memory_data(app);
  visual::RequestBrowser& requests = *request_browser(app);
  if (!requests.recorded) return draw_arrays(app, d);  // traced accesses alone: as before
  if (!ImGui::BeginTabBar("memory_views")) return;
  if (ImGui::BeginTabItem("One request")) {
    ImGui::BeginChild("request", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
    bool in_sight = true;
    visual::draw_request_view("request", *app.model(), requests, &in_sight);
    app.tab_focus_in_sight = in_sight ? 1 : 0;
    draw_gpu_counters(app);
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  if (ImGui::BeginTabItem("Arrays")) {
    draw_arrays(app, d);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

}  // namespace

visual::RequestBrowser* request_browser(GuiApp& app) {
  const visual::TimelineModel* m = app.model();
  if (!m) return nullptr;
  MemoryData& d = memory_data(app);
  if (!d.requests) d.requests = visual::RequestBrowser::build(*m);
  d.requests->follow(*m, app.playback.cursor);
  return &*d.requests;
}

GpuCountersShown gpu_counters_for(const lessons::LessonDef& l, const std::string& kernel,
                                  int launch) {
  GpuCountersShown out;
  if (l.gpu_counters.empty()) {
    out.message =
        "Not measured on a GPU yet: scripts/gpu-check.sh ncu, run on a machine with a "
        "GPU, measures this lesson's kernels and writes the counters into the lesson "
        "folder (ncu.json).";
    return out;
  }
  Result<std::vector<LaunchComparison>> all = read_comparison(l.gpu_counters, &out.device);
  if (!all) {
    out.message = "The lesson's GPU counters cannot be read: " + all.message();
    return out;
  }
  if (out.device.empty()) out.device = "a GPU";
  for (const LaunchComparison& c : *all)
    if (c.kernel == kernel && c.launch == launch && c.profiled) out.rows = c.rows;
  if (out.rows.empty())
    out.message = kernel + " (launch " + std::to_string(launch) + ") was not profiled on the GPU.";
  return out;
}

extern const TabView kMemoryTab = {
    draw_memory_tab, event_kind_bits({EventKind::Load, EventKind::Store, EventKind::CopyIssue})};

}  // namespace coop::app
