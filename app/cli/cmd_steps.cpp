// coopviz steps [LESSON] [--json]: applies every step of a lesson (or of all lessons) headless,
// as the window would, and reports what each shows: its launch and moment, the colouring and how
// much of the grid it leaves grey, the tab, and the launch the Launch panel shows against the one
// that ran. With --size WxH (and --presentation) each step is also drawn offscreen at that size
// and how it reads is measured: the numbers in thread cells, the text's scroll, the code's room.
#include <iomanip>
#include <iostream>
#include <memory>

#include "app/backend.hpp"
#include "app/cli/commands.hpp"
#include "app/gui/step_report.hpp"

namespace coop::app {
namespace {

constexpr double kStepRunTimeout = 300;  // seconds one step's run may take

void print_text(const StepReport& r) {
  std::cout << r.lesson << " step " << r.step << ": " << r.title << "\n    " << r.kernel
            << ", event " << r.event << "/" << r.events << " (line " << r.moment_line
            << (r.moment_on_step_lines ? ", on the step's lines" : ", NOT on the step's lines")
            << "), colour " << r.colour_by << " (" << std::fixed << std::setprecision(2)
            << r.grey_fraction * 100 << " % grey, " << r.not_started_fraction * 100
            << " % not started), tab " << r.tab << (r.tab_has_content ? "" : " (empty)")
            << "\n    launch panel grid " << r.panel_launch.grid.str() << " block "
            << r.panel_launch.block.str() << ", ran grid " << r.ran_launch.grid.str() << " block "
            << r.ran_launch.block.str() << (r.backend.empty() ? "" : " on " + r.backend)
            << (r.run_status == "ok" ? "" : ", run: " + r.run_status)
            << (r.notice.empty() ? "" : "\n    app says: " + r.notice)
            << (r.memory_request.empty() ? "" : "\n    memory request: " + r.memory_request);
  if (r.races_on) {
    std::cout << "\n    races: " << (r.races.empty() ? "none" : "");
    for (size_t i = 0; i < r.races.size(); ++i)
      std::cout << (i ? ", " : "") << to_string(r.races[i].first.kind) << " line "
                << r.races[i].first.line << " / " << to_string(r.races[i].second.kind) << " line "
                << r.races[i].second.line;
  }
  if (const StepReport::Readability& m = r.readable; m.measured)
    std::cout << "\n    at " << m.width << "x" << m.height << (m.presentation ? " presenting" : "")
              << ": cell numbers " << m.grid_label_px << " px, text "
              << (m.text_at_top ? "at its title" : "NOT at its title") << ", " << m.text_scroll_px
              << " px to scroll, code " << m.code_visible_chars << " columns x "
              << m.code_visible_lines << " lines: " << readability_problems(m);
  std::cout << "\n";
}

}  // namespace

void register_steps(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "steps", "Apply every step of a lesson as the window does and report what each shows");
  auto lesson = std::make_shared<std::string>();
  auto json_out = std::make_shared<bool>(false);
  auto backend = std::make_shared<std::string>("emu");
  auto size = std::make_shared<std::string>();
  auto presentation = std::make_shared<bool>(false);
  cmd->add_option("lesson", *lesson, "Lesson id or a lesson folder (default: every lesson)");
  cmd->add_flag("--json", *json_out, "Print one JSON object per step, in a list");
  cmd->add_option("--backend", *backend,
                  "Where the steps run: " + backend_request_words(kNamedBackends))
      ->capture_default_str();
  cmd->add_option("--size", *size,
                  "Also draw each step offscreen at WIDTHxHEIGHT and measure how it reads");
  cmd->add_flag("--presentation", *presentation, "With --size: in presentation mode");
  cmd->callback([lesson, json_out, backend, size, presentation, &state] {
    Result<BackendRequest> request = parse_backend_request(*backend, "--backend", kNamedBackends);
    if (!request) {
      state.exit_code = usage_error(request.message());
      return;
    }
    // A GPU that cannot be had is said once, before any step, rather than as every step's failure.
    if (*request == BackendRequest::Gpu) {
      if (Result<BackendChoice> gpu = choose_backend(*request); !gpu) {
        std::cerr << "coopviz: error: " << gpu.message() << "\n";
        state.exit_code = 1;
        return;
      }
    }
    if (*presentation && size->empty())
      return void(state.exit_code = usage_error("--presentation needs --size WIDTHxHEIGHT"));
    RenderAt render;
    std::unique_ptr<GuiWindow> window;
    if (!size->empty()) {
      Result<std::pair<int, int>> wh = parse_size(*size, kMaxImage);
      if (!wh) return void(state.exit_code = usage_error(wh.message()));
      Result<std::unique_ptr<GuiWindow>> opened =
          GuiWindow::open({.width = 320, .height = 240, .visible = false});
      if (!opened) return void(state.exit_code = usage_error(opened.message()));
      window = std::move(*opened);
      render = {window.get(), wh->first, wh->second, *presentation};
    }
    std::vector<std::string> ids;
    if (!lesson->empty()) {
      const Result<std::string> id = lesson_argument(*lesson);
      if (!id) return void(state.exit_code = usage_error(id.message()));
      ids.push_back(*id);
    } else
      for (const lessons::LessonDef& l : lessons::registry()) ids.push_back(l.id);
    nlohmann::json all = nlohmann::json::array();
    for (const std::string& id : ids) {
      Result<std::vector<StepReport>> reports =
          report_lesson_steps(id, kStepRunTimeout, *request, render);
      if (!reports && !lessons::find_lesson(id)) {
        state.exit_code = usage_error(reports.message());
        return;
      }
      if (!reports) {  // the lesson's mistakes, one a line, as `coopviz lesson check` says them
        usage_errors(reports.message());
        state.exit_code = 1;
        return;
      }
      for (const StepReport& r : *reports) {
        if (*json_out)
          all.push_back(to_json(r));
        else
          print_text(r);
      }
    }
    if (*json_out) std::cout << all.dump(2) << "\n";
    state.exit_code = 0;
  });
}

}  // namespace coop::app
