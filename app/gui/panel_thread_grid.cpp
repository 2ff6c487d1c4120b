// The thread grid panel: why the run stopped, when it did, then the launch shown (a picker when
// the run made several) and its threads, coloured by what they are doing at the playback cursor.
#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "visual/event_text.hpp"
#include "visual/field_text.hpp"
#include "visual/views/grid_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// Events the trace had no room for: the views then miss part of the story, so this is said
// where the eye is, above the grid.
void dropped_warning(const GuiApp& app) {
  const std::string text = app.dropped_warning();
  if (text.empty()) return;
  const visual::ViewStyle& st = visual::view_style();
  visual::push_font(st.fonts.bold);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.warning));
  visual::text_wrapped(text);
  ImGui::PopStyleColor();
  visual::pop_font(st.fonts.bold);
}

}  // namespace

void draw_thread_grid(GuiApp& app) {
  const visual::ViewStyle& st = visual::view_style();
  app.grid_label_px = 0;
  app.grid_cells_px = 0;
  app.grid_cells_h = 0;
  app.grid_cells_top = 0;
  // The GPU could not run the lesson, or stopped part way: said first, above whatever launches
  // finished before it.
  const bool problem =
      !app.running() && app.outcome && app.outcome->problem.kind != GpuProblem::None;
  if (problem) draw_gpu_problem(app);
  // Any other failure is said first, in full, above the launches that ran before it (a deadlock
  // leaves the trace of who got where).
  const bool failed = !problem && !app.running() && app.outcome && !app.outcome->run.status.ok();
  if (failed) {
    visual::push_font(st.fonts.bold);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(st.colors.error));
    visual::text_wrappedf("The run stopped: %s", app.outcome->run.status.message().c_str());
    ImGui::PopStyleColor();
    visual::pop_font(st.fonts.bold);
  }
  const visual::TimelineModel* m = app.model();
  if (m) {
    if (problem || failed) ImGui::Separator();
    // A saved program that does not compile: these threads ran the version before it.
    if (app.program_shown() && !app.program.build_error.empty())
      visual::text_dim_wrapped("The launches of the last version of " + app.program.file +
                               " that compiled:");
    const LaunchConfig& l = m->launch();
    const std::string title = "Threads: " + visual::count_of(l.grid.count(), "block") + " of " +
                              std::to_string(l.block.count()) + " (" +
                              visual::count_of(m->warps_per_block(), "warp") +
                              (l.grid.count() == 1 ? ")" : " each)");
    panel_title(title.c_str());
    // The kernel this launch ran: a picker when the run made several launches.
    const std::string current = m->trace().header.kernel;
    if (app.models.size() > 1) {
      float widest = 0;
      for (const auto& other : app.models)
        widest = std::max(widest,
                          ImGui::CalcTextSize(("00: " + other->trace().header.kernel).c_str()).x);
      const float combo_w = widest + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
      visual::same_line_if_room(combo_w);
      const float shown_w = std::min(combo_w, ImGui::GetContentRegionAvail().x);
      ImGui::SetNextItemWidth(shown_w);
      const std::string preview = visual::fit_words(
          std::to_string(app.launch + 1) + ": " + current,
          shown_w - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2, false);
      if (ImGui::BeginCombo("##launch", preview.c_str())) {
        for (size_t i = 0; i < app.models.size(); ++i) {
          // Repeats that ran untraced are counted beside the launch they repeat.
          const TraceHeader& h = app.models[i]->trace().header;
          const std::string repeats =
              h.untraced ? " (+" + std::to_string(h.untraced) + " untraced)" : "";
          if (ImGui::Selectable((std::to_string(i + 1) + ": " + h.kernel + repeats).c_str(),
                                int(i) == app.launch))
            app.show_launch(int(i));
        }
        ImGui::EndCombo();
      }
    } else if (!current.empty()) {
      visual::same_line_if_room(ImGui::CalcTextSize(current.c_str()).x + ImGui::GetFontSize() * 4);
      ImGui::AlignTextToFramePadding();
      ImGui::TextDisabled("kernel %s", current.c_str());
    }
    if (app.presentation) {
      // The Launch panel is hidden in presentation mode: what ran is said here.
      std::string ran =
          "grid " + visual::dims_text(l.grid) + ", block " + visual::dims_text(l.block);
      if (l.dynamic_smem > 0) ran += ", " + std::to_string(l.dynamic_smem) + " B dynamic shared";
      for (const auto& [name, value] : m->trace().header.params) ran += ", " + name + " " + value;
      visual::text_dim_wrapped(ran);
    }
    dropped_warning(app);
    m = app.model();
    // Presenting, numbers the back row cannot read are left out, and a step that speaks of the
    // numbers in the cells shows its warp (the selected thread's) large enough to read them.
    app.grid.min_digit_px = app.presentation ? visual::kReadableDigitPx : 0;
    app.grid.focus_warp = -1;
    const lessons::Step* step = app.step_def();
    if (app.presentation && step && !app.whole_lesson && lessons::speaks_of_cell_numbers(step->text)) {
      const uint32_t first = visual::selected_threads(*m, app.selection).first;
      const uint32_t block_threads = std::max(1u, m->block_threads());
      app.grid.focus_warp = int64_t(first / block_threads) * ((block_threads + 31) / 32) +
                            first % block_threads / 32;
    }
    const visual::GridRaceMarks races = shown_race_marks(app);
    const visual::GridViewResult r = visual::draw_grid_view("grid", *m, app.snapshot, app.grid,
                                                            app.selection, ImVec2(0, 0), &races);
    app.grid_wanted_height = app.grid.fit || app.grid.focus_warp >= 0 ? r.wanted_height : 0;
    app.grid_label_px = r.label_px;
    app.grid_cells_px = r.cells_px;
    app.grid_cells_h = r.cells_h;
    app.grid_cells_top = r.cells_top;
    if (r.clicked_thread >= 0) {
      app.selection.thread = r.clicked_thread;
      app.tab_request = ResultTab::ThreadEvents;
    }
  } else if (!problem && !failed) {
    panel_title("Threads");
    if (app.running())
      ImGui::TextDisabled("running...");
    else if (app.program_shown())  // its first build failed: nothing of it has run
      visual::text_dim_wrapped("Nothing has run yet: " + app.program.file +
                               " does not compile. Fix the marked lines and save it; it runs "
                               "then, and its threads show here.");
    else
      ImGui::TextDisabled("Pick a lesson to run it.");
  }
}

}  // namespace coop::app
