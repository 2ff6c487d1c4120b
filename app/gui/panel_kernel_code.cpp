// The kernel code panel: the kernel's source, each line marked with how many threads are at it
// (the selected ones', if any) and, with memory recorded, its memory badges.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/gui/panels.hpp"
#include "device/trace/memory_access.hpp"
#include "visual/event_text.hpp"
#include "visual/memory_badges.hpp"
#include "visual/views/code_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {

std::optional<std::vector<uint32_t>> code_line_counts(GuiApp& app) {
  const visual::TimelineModel* m = app.model();
  if (!m || app.questions.asking()) return std::nullopt;
  if (app.selection.empty()) return app.snapshot.line_counts();
  return visual::selection_line_counts(app.snapshot, *m, app.selection);
}

void draw_kernel_code(GuiApp& app) {
  // A saved program that does not compile: the file as it is now (app.source()), its errors
  // marked; the launches shown ran an older version, so their threads are not drawn on it.
  const bool refused = app.program_shown() && !app.program.new_source.empty();
  const visual::TimelineModel* m = refused ? nullptr : app.model();
  std::string title = "Kernel";
  if (refused)
    title = app.program.file + ", as saved: it does not compile";
  else if (m && !m->trace().header.source_file.empty())
    title = m->trace().header.source_file;
  else if (const lessons::LessonDef* l = app.lesson_def())
    title = l->source_file;
  panel_title(title.c_str());
  const std::optional<std::vector<uint32_t>> line_counts = code_line_counts(app);
  const std::vector<uint32_t>* counts = line_counts ? &*line_counts : nullptr;
  if (m && !counts) {
    visual::same_line_if_room(ImGui::CalcTextSize("threads per line after your answer").x);
    visual::text_dim_wrapped("threads per line after your answer");
  } else if (counts) {
    uint32_t at_lines = 0, lines = 0;
    for (uint32_t c : *counts)
      if (c) at_lines += c, ++lines;
    const std::string whose =
        app.selection.empty() ? std::string() : visual::selection_label(*m, app.selection) + ": ";
    const std::string where = whose + visual::count_of(at_lines, "thread") + " on " +
                              visual::count_of(lines, "highlighted line");
    // Beside the file name when it fits, else wrapped below it.
    visual::same_line_if_room(
        std::min(ImGui::CalcTextSize(where.c_str()).x, ImGui::GetContentRegionAvail().x * 0.6f));
    visual::text_dim_wrapped(where);
  }
  visual::CodeViewInput in;
  in.source = app.source();
  if (m) {
    in.line_counts = counts;
    const auto [first, last] = visual::selected_threads(*m, app.selection);
    in.thread_count = first < last ? last - first : m->thread_count();
    if (app.playback.cursor > 0) in.last_event_line = m->at(app.playback.cursor - 1).line;
  }
  in.step_lines = app.step_lines();
  if (m) {
    // The analysis walks every event: once per launch shown, not per frame.
    const std::pair<const visual::TimelineModel*, uint64_t> key{m, m->trace().events.size()};
    if (app.memory_badges_of != key) {
      app.memory_badges = visual::memory_badges(analyze_memory(m->trace()));
      app.memory_badges_of = key;
    }
    in.memory = &app.memory_badges;
  }
  const std::vector<std::string> races = refused ? std::vector<std::string>() : race_marks(app);
  if (!races.empty()) in.races = &races;
  const std::vector<std::string> errors = error_marks(app.program.errors);
  if (refused) in.errors = &errors;
  const int clicked = visual::draw_code_view("code", in, app.code, 0);
  if (clicked > 0) app.jump_to_line(clicked);
}

}  // namespace coop::app
