#include "app/gui/step_report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "app/gui/panels.hpp"
#include "app/gui/tab_memory.hpp"
#include "app/questions/lesson_check.hpp"
#include "device/trace/names.hpp"
#include "visual/thread_colors.hpp"

namespace coop::app {
namespace {

std::string colour_name(visual::ColorBy by, GroupKind kind) {
  switch (by) {
    case visual::ColorBy::HardwareBlock: return "blockIdx";
    case visual::ColorBy::HardwareWarp: return "warp-in-block";
    case visual::ColorBy::Group: return std::string(name_of(kind));
  }
  return "?";
}

// The time a step's text gives as the present, "... arrives now (t=59)", or -1: a number that
// goes stale when the schedule changes unless something compares it with the play bar.
int64_t time_said_now(std::string_view text) {
  constexpr std::string_view kNow = "now (t=";
  const size_t at = text.find(kNow);
  if (at == std::string_view::npos) return -1;
  int64_t t = 0;
  size_t i = at + kNow.size();
  if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
    t = t * 10 + (text[i] - '0');
  return t;
}

bool on_step_lines(const StepReport& r, int line) {
  return std::find(r.step_lines.begin(), r.step_lines.end(), line) != r.step_lines.end();
}

nlohmann::json dims(const LaunchConfig& c) {
  return {{c.grid.x, c.grid.y, c.grid.z}, {c.block.x, c.block.y, c.block.z}};
}

// What the Memory tab's one-request view shows, where the step opens that tab.
void describe_memory_request(GuiApp& app, StepReport& r) {
  if (r.tab != tab_name(ResultTab::Memory)) return;
  const visual::RequestBrowser* b = request_browser(app);
  const MemoryRequest* req = b && b->recorded ? b->picked() : nullptr;
  if (!req) return;
  const RequestLayout layout = layout_request(*req);
  r.memory_request =
      visual::site_label(b->sites[size_t(b->site)]) + ": " +
      (req->space == MemorySpace::Global ? std::to_string(layout.sectors.size()) + " sectors"
                                         : std::to_string(layout.ways) + "-way");
  r.memory_request_on_step_lines = on_step_lines(r, int(req->line));
}

// The races the window shows for the launch, read from the list the code view and grid draw.
void describe_races(GuiApp& app, StepReport& r) {
  r.races_on = app.find_races;
  for (const Race& race : shown_races(app))
    r.races.push_back({to_string(race.space), race.first, race.second});
  r.race_list_shown = r.races_on && app.shown_tab == ResultTab::Checks;
}

// Draws the step as it stands and measures how it reads.
Status measure_readability(GuiApp& app, const RenderAt& at, StepReport& r) {
  // A few frames: ImGui settles a layout (scroll limits, fitted sizes) over the frames after a
  // change, as the window does before anyone reads it.
  if (Status s = at.window->render(app, at.width, at.height, 4); !s) return s;
  StepReport::Readability& m = r.readable;
  m.measured = true;
  m.width = at.width;
  m.height = at.height;
  m.presentation = at.presentation;
  m.grid_label_px = app.grid_label_px;
  if (const lessons::Step* s = app.step_def())
    m.text_speaks_of_cell_numbers = lessons::speaks_of_cell_numbers(s->text);
  const GuiWindow::PanelScroll text = at.window->panel_scroll("/text_body");
  m.text_at_top = text.found && text.y <= 0.5f;
  m.text_scroll_px = text.found ? text.max_y : 0;
  m.code_visible_chars = app.code.visible_chars;
  m.code_visible_lines = app.code.visible_lines;
  if (app.model()) m.grid_cells_px = app.grid_cells_px, m.grid_cells_h = app.grid_cells_h;
  m.tab_focus_in_sight = app.tab_focus_in_sight;
  return {};
}

nlohmann::json access_json(const RaceAccess& a) {
  return {{"line", a.line}, {"kind", to_string(a.kind)}, {"thread", a.thread}};
}

}  // namespace

StepReport report_step(GuiApp& app) {
  StepReport r;
  if (const lessons::LessonDef* l = app.lesson_def()) r.lesson = l->id;
  r.step = app.step + 1;
  if (const lessons::Step* s = app.step_def()) r.title = s->title;
  r.step_lines = app.step_lines();
  r.notice = app.notice;
  r.run_status = !app.outcome ? "none" : app.outcome->run.status.ok() ? "ok"
                                                                      : app.outcome->run.status.message();
  if (app.outcome && app.outcome->backend) r.backend = to_string(*app.outcome->backend);
  if (app.outcome) r.banner = app.outcome->banner;
  r.panel_launch = app.panel_launch();
  r.tab = tab_name(app.resolve_tab());
  r.tab_has_content = app.tab_has_content(app.shown_tab);
  const visual::TimelineModel* m = app.model();
  if (!m) return r;
  r.kernel = m->trace().header.kernel;
  r.ran_launch = m->launch();
  r.event = app.playback.cursor;
  r.events = m->size();
  app.snapshot.update(*m, app.playback.cursor);
  // Exactly what the grid view draws: the same fallback, the same classification.
  const visual::ColorBy drawn = visual::drawn_color_by(app.grid.color_by, app.grid.group, app.snapshot);
  r.colour_by = colour_name(drawn, app.grid.group);
  const visual::ColourCensus census =
      visual::colour_census(app.snapshot, drawn, app.grid.group, m->block_threads());
  r.grey_fraction = census.grey_fraction();
  r.not_member_fraction = census.not_member_fraction();
  r.not_started_fraction = census.not_started_fraction();
  if (app.playback.cursor > 0) {
    r.moment_line = m->at(app.playback.cursor - 1).line;
    r.moment_on_step_lines = on_step_lines(r, r.moment_line);
    r.moment_time = int64_t(m->at(app.playback.cursor - 1).time - m->origin());
  }
  if (const lessons::Step* s = app.step_def()) r.text_now = time_said_now(s->text);
  describe_memory_request(app, r);
  describe_races(app, r);
  return r;
}

nlohmann::json to_json(const StepReport& r) {
  nlohmann::json races = nlohmann::json::array();
  for (const StepReport::ShownRace& race : r.races)
    races.push_back({{"space", race.space},
                     {"first", access_json(race.first)},
                     {"second", access_json(race.second)}});
  nlohmann::json out = {{"lesson", r.lesson},
          {"step", r.step},
          {"title", r.title},
          {"kernel", r.kernel},
          {"event", r.event},
          {"events", r.events},
          {"colour_by", r.colour_by},
          {"grey_fraction", r.grey_fraction},
          {"not_member_fraction", r.not_member_fraction},
          {"not_started_fraction", r.not_started_fraction},
          {"tab", r.tab},
          {"tab_has_content", r.tab_has_content},
          {"moment_on_step_lines", r.moment_on_step_lines},
          {"moment_line", r.moment_line},
          {"moment_time", r.moment_time},
          {"step_lines", r.step_lines},
          {"panel_launch", dims(r.panel_launch)},
          {"ran_launch", dims(r.ran_launch)},
          {"run", r.run_status},
          {"backend", r.backend},
          {"banner", r.banner},
          {"problems", step_view_problems(r)},
          {"notice", r.notice},
          {"memory_request", r.memory_request},
          {"races_on", r.races_on},
          {"race_list_shown", r.race_list_shown},
          {"races", races}};
  if (const StepReport::Readability& m = r.readable; m.measured) {
    out["size"] = std::to_string(m.width) + "x" + std::to_string(m.height);
    out["presentation"] = m.presentation;
    out["grid_label_px"] = m.grid_label_px;
    out["text_speaks_of_cell_numbers"] = m.text_speaks_of_cell_numbers;
    out["text_at_top"] = m.text_at_top;
    out["text_scroll_px"] = m.text_scroll_px;
    out["code_visible_chars"] = m.code_visible_chars;
    out["code_visible_lines"] = m.code_visible_lines;
    out["grid_cells_px"] = m.grid_cells_px;
    out["grid_cells_h"] = m.grid_cells_h;
    out["tab_focus_in_sight"] = m.tab_focus_in_sight < 0 ? nlohmann::json(nullptr)
                                                         : nlohmann::json(m.tab_focus_in_sight > 0);
    out["readable"] = readability_problems(m);
  }
  return out;
}

std::string readability_problems(const StepReport::Readability& r) {
  std::string out;
  auto add = [&](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  if (r.grid_label_px > 0 && r.grid_label_px < visual::kReadableDigitPx)
    add("the numbers in the cells are " + std::to_string(int(r.grid_label_px)) + " px tall, under " +
        std::to_string(int(visual::kReadableDigitPx)));
  if (r.grid_label_px <= 0 && r.text_speaks_of_cell_numbers)
    add("the text speaks of the numbers in the cells, and none are drawn");
  if (!r.text_at_top) add("the text does not open at its title");
  if (r.text_scroll_px > 0)
    add("the text needs " + std::to_string(int(std::ceil(r.text_scroll_px))) + " px of scrolling");
  if (r.code_visible_chars < kPresentedCodeColumns)
    add("the code view shows " + std::to_string(r.code_visible_chars) + " columns, under " +
        std::to_string(kPresentedCodeColumns));
  if (r.grid_cells_px >= 0 && r.grid_cells_px < std::min(kUsableGridPx, r.grid_cells_h - 1))
    add("the thread grid shows " + std::to_string(int(r.grid_cells_px)) + " px of cells, under " +
        std::to_string(int(kUsableGridPx)));
  if (r.tab_focus_in_sight == 0)
    add("what the tab points at (the row just played, the atomic just landed, the request's "
        "banks or sectors, the checks' verdict) is out of sight");
  return out.empty() ? "ok" : out;
}

std::string step_view_problems(const StepReport& r) {
  std::string out;
  auto add = [&](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  if (!r.notice.empty()) add("the app says: " + r.notice);
  if (r.kernel.empty()) add("no launch is shown (" + r.run_status + ")");
  if (!r.moment_on_step_lines)
    add("the moment's event is on line " + std::to_string(r.moment_line) +
        ", which the step does not highlight");
  // A GPU's t is its clock, and its order its own: a text that gives times names the emulator's.
  if (r.text_now >= 0 && r.backend != "gpu" && r.text_now != r.moment_time)
    add("the text says it is now t=" + std::to_string(r.text_now) + ", the play bar reads t=" +
        std::to_string(r.moment_time));
  if (r.grey_fraction > 0.5)
    add(std::to_string(int(r.grey_fraction * 100)) + " % of the started threads are grey");
  if (!r.tab_has_content) add("tab " + r.tab + " has nothing to show");
  for (const StepReport::ShownRace& race : r.races)
    if (!on_step_lines(r, race.first.line) && !on_step_lines(r, race.second.line))
      add("a race between lines " + std::to_string(race.first.line) + " and " +
          std::to_string(race.second.line) + " is shown, lines the step does not highlight");
  if (!r.memory_request.empty() && !r.memory_request_on_step_lines)
    add("the Memory tab shows a request of " + r.memory_request +
        ", a line the step does not highlight");
  if (!(r.panel_launch.grid == r.ran_launch.grid) || !(r.panel_launch.block == r.ran_launch.block))
    add("the Launch panel shows grid " + r.panel_launch.grid.str() + " block " +
        r.panel_launch.block.str() + ", grid " + r.ran_launch.grid.str() + " block " +
        r.ran_launch.block.str() + " ran");
  return out.empty() ? "ok" : out;
}

Result<std::vector<StepReport>> report_lesson_steps(const std::string& id,
                                                    double timeout_seconds,
                                                    BackendRequest backend,
                                                    const RenderAt& render) {
  const lessons::LessonDef* l = lessons::find_lesson(id);
  if (!l) return Status::error("unknown lesson '" + id + "': known lessons are " +
                               lessons::lesson_ids());
  if (const std::string errors = lesson_errors(*l); !errors.empty()) return Status::error(errors);
  GuiApp app;
  app.backend = backend;
  if (render.window) {
    app.presentation = render.presentation;
    app.questions.enabled = false;
  }
  std::vector<StepReport> out;
  app.select_lesson(int(l - lessons::registry().data()), 0);
  for (size_t i = 0; i < l->steps.size(); ++i) {
    app.say("");
    if (i > 0 && render.window) {
      // The previous step read to its end, as a teacher leaves it before clicking Next.
      render.window->scroll_panel_to_end("/text_body");
      if (Status s = render.window->render(app, render.width, render.height, 1); !s) return s;
    }
    if (i > 0) app.select_step(int(i), 0);
    if (!app.wait_for_runs(timeout_seconds))
      return Status::error(id + " step " + std::to_string(i + 1) + ": the run took longer than " +
                           std::to_string(int(timeout_seconds)) + " s");
    StepReport r = report_step(app);
    if (render.window)
      if (Status s = measure_readability(app, render, r); !s) return s;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace coop::app
