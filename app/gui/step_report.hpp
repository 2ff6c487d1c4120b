// What the window shows for a lesson step, read from the app's own state after the step has been
// applied: the launch, the moment, the colouring and how much of the grid it leaves grey, the
// tab, and the launch the Launch panel shows against the one that ran. `coopviz steps --json`
// prints it and a test holds every step of every lesson to it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/gui/gui_app.hpp"
#include "app/gui/window.hpp"

namespace coop::app {

struct StepReport {
  std::string lesson;
  int step = 0;  // from 1
  std::string title;
  std::string kernel;   // of the launch shown ("" when none)
  size_t event = 0;     // the playback cursor
  size_t events = 0;    // in the launch shown
  std::string colour_by;
  double grey_fraction = 0;         // started threads drawn as "no group yet"
  double not_member_fraction = 0;   // started threads drawn as never in such a group
  double not_started_fraction = 0;  // threads not started at the moment (waves may leave some)
  std::string tab;
  bool tab_has_content = false;
  bool moment_on_step_lines = false;  // the event at the moment lies on a highlighted line
  int moment_line = 0;
  int64_t moment_time = -1;  // the play bar's t at the moment (-1: before any event)
  int64_t text_now = -1;     // the t a text's "now (t=N)" names (-1: it names none)
  std::vector<int> step_lines;
  LaunchConfig panel_launch, ran_launch;
  std::string run_status;  // "ok", or the failure the window shows
  std::string backend;     // where the step's run ran ("gpu", "emu"; "" when nothing ran)
  std::string banner;      // what the window's banner says about where it ran
  std::string notice;      // what the app said in its notice line (a step it could not apply)
  // The Memory tab's one-request view, when the step opens that tab on a launch whose accesses
  // were recorded: "line 30, shared load: 32-way" ("" otherwise), and whether its line is one the
  // step highlights.
  std::string memory_request;
  bool memory_request_on_step_lines = false;
  // Data races: whether the window looks for them, and those it shows for the launch (in the code
  // view, the grid and the Checks tab's list), each as "write 24 / read 25" (kinds and lines of
  // its first and second access) with the two threads the grid marks.
  bool races_on = false;
  struct ShownRace {
    std::string space;  // "shared" or "global"
    RaceAccess first, second;
  };
  std::vector<ShownRace> races;
  bool race_list_shown = false;  // the Checks tab, which lists them, is open
  // How the step reads on a screen (`coopviz steps --size`), measured in the frame the window
  // draws at that size.
  struct Readability {
    bool measured = false;
    int width = 0, height = 0;
    bool presentation = false;
    float grid_label_px = 0;  // ink height of the smallest digits in thread cells (0: none drawn)
    bool text_speaks_of_cell_numbers = false;  // lessons::speaks_of_cell_numbers
    bool text_at_top = false;  // the text opened at its title, after the previous step was read
    float text_scroll_px = 0;  // how far the text would have to scroll to show all of it
    int code_visible_chars = 0, code_visible_lines = 0;  // without scrolling
    // Height of the thread grid's cells in sight (0: the panel holds only its toolbar and
    // legend), and -1 where no launch is drawn.
    float grid_cells_px = -1;
    float grid_cells_h = 0;  // the height of all the cells (a small grid may need less)
    // What the tab points at (GuiApp::tab_focus_in_sight) in sight, with no control touched:
    // 1 yes, 0 no, -1 the tab points at nothing.
    int tab_focus_in_sight = -1;
  } readable;
};

// The report for the app as it stands (call after select_step and wait_for_runs).
StepReport report_step(GuiApp& app);
nlohmann::json to_json(const StepReport& r);

// "ok" when the step keeps its promise (its launch shown, the moment on its lines, at most half
// of the started threads grey, its tab with something to show, the Launch panel showing what
// ran, nothing said against it); else what is wrong, in words.
std::string step_view_problems(const StepReport& r);

// What a step must read like in presentation mode on a projector: numbers in cells at least
// visual::kReadableDigitPx tall wherever drawn, and drawn where the text speaks of them; the text
// open at its title with nothing to scroll; at least kPresentedCodeColumns columns of code; at
// least kUsableGridPx of the grid's cells in sight; what the tab points at in sight.
// "ok", or what is wrong, in words.
std::string readability_problems(const StepReport::Readability& r);

// Where report_lesson_steps draws each step to measure how it reads (no window: not drawn).
struct RenderAt {
  GuiWindow* window = nullptr;
  int width = 0, height = 0;
  bool presentation = false;
};

// Selects every step of `lesson` in turn, as a student clicking Next would, with its runs on
// `backend`, and reports each. With a window in `render`, each step is also drawn at that size
// (questions off, as a teacher presenting has them, so its whole text shows), the previous step's
// text having been scrolled to its end first, and how it reads is measured. Returns an error when
// a run does not finish within `timeout_seconds`, when `backend` cannot be had (no GPU for
// BackendRequest::Gpu), or when a step cannot be drawn.
Result<std::vector<StepReport>> report_lesson_steps(const std::string& lesson,
                                                    double timeout_seconds,
                                                    BackendRequest backend = BackendRequest::Emu,
                                                    const RenderAt& render = {});

}  // namespace coop::app
