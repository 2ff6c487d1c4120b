// The desktop app's state and what changes it: the lesson and step shown, the launch
// configuration being edited, the runs it triggers, the timeline being played and the view
// settings. Drawing lives in panel_<name>.cpp and tab_<name>.cpp; GLFW and OpenGL in window.cpp.
// Nothing here needs GL, so scripts and screenshots drive the same object the window does.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/gui/lesson_runner.hpp"
#include "app/gui/pack_navigator.hpp"
#include "app/gui/settings.hpp"
#include "app/gui/step_questions.hpp"
#include "app/gui/tabs.hpp"
#include "app/gui/program_view.hpp"
#include "device/trace/race_detector.hpp"
#include "visual/barrier_timeline.hpp"
#include "visual/collective_flow.hpp"
#include "visual/field_text.hpp"
#include "visual/markdown.hpp"
#include "visual/memory_order.hpp"
#include "visual/memory_state.hpp"
#include "visual/playback.hpp"
#include "visual/selection.hpp"
#include "visual/thread_snapshot.hpp"
#include "visual/views/barrier_view.hpp"
#include "visual/views/code_view.hpp"
#include "visual/views/flow_view.hpp"
#include "visual/views/grid_view_settings.hpp"
#include "visual/views/memory_views.hpp"

namespace coop::app {

struct BenchmarkTabState;  // app/gui/tab_benchmark.hpp
struct ExerciseTabState;   // app/gui/exercise_tab.hpp

// Trace capacity the app accepts: each event takes 64 bytes, so 2^26 events are 4 GiB per launch.
inline constexpr uint64_t kMinTraceCapacity = 1, kMaxTraceCapacity = uint64_t(1) << 26;

// What the tabs derive from the shown launch, built when first needed and dropped with it.
struct DerivedViews {
  std::optional<uint32_t> event_kinds;  // bit k: the shown launch has events of EventKind k
  bool tab_checked = false;             // the selected tab was checked against the launch
  // Each tab's own data (of a type its file defines; see tab_data), by ResultTab.
  std::shared_ptr<void> tab_data[kResultTabCount];
};

// Columns of kernel code presentation mode shows without scrolling: a line of a lesson kernel
// read whole, on a 1024x768 projector too.
inline constexpr int kPresentedCodeColumns = 60;
// Pixels of thread cells the grid panel keeps in sight under its toolbar and legend, whatever
// share of the column a tab asks for: a few rows of warps, the grid's shape.
inline constexpr float kUsableGridPx = 64;

struct GuiApp {
  // [what is shown]
  int lesson = -1;  // index in lessons::registry(), -1: none (a trace of no lesson)
  int step = -1;    // index in the lesson's steps, -1: none
  std::vector<visual::TextBlock> lesson_text;
  // Every mistake of the lesson's lesson.md (app/questions/lesson_check.hpp), one a line, shown
  // above its text: what `coopviz lesson check` and `coopviz steps` say of it.
  std::string lesson_errors;
  std::vector<visual::TextBlock> step_text;  // the current step's own text
  bool whole_lesson = false;  // the middle column shows the lesson text instead of the step's
  PackNavigator pack;         // the class pack open, if any, and its item shown
  StepQuestions questions;    // predict, then run: asked before the step is revealed

  // [launch configuration being edited] What the next run asks for: the lesson's defaults, then
  // the step's launch and parameters, then what the user typed (kept until Defaults or another
  // step).
  LaunchConfig config;
  lessons::Params params;
  bool grid_typed = false, block_typed = false;
  std::set<std::string> typed_params;
  // The Launch panel's fields as typed (grid, block, seed, capacity, param:NAME): a refused
  // value stays in its field with the reason, and nothing runs on it.
  std::map<std::string, visual::FieldText> fields;
  BackendRequest backend = BackendRequest::Auto;
  Schedule schedule = Schedule::Lockstep;  // the emulator's, with its seed
  uint64_t seed = 0;
  uint64_t trace_capacity = ExecOptions{}.trace_capacity;  // event slots per launch
  bool record_memory = false;  // every shared/global load and store (the emulator only)
  bool find_races = false;     // record them all and find data races (the emulator only)
  bool job_records_memory = false;  // the newest run submitted records every load and store

  // [runs]
  LessonRunner runner;
  uint64_t generation = 0;  // of the newest job submitted
  double run_due = -1;      // when a debounced edit should start a run (seconds, app clock)
  std::optional<RunOutcome> outcome;  // the run whose trace is shown
  bool replay = false;                // showing a trace file; nothing runs
  std::string trace_path;
  // The user's own program (coopviz gui FILE.cu), shown or kept aside while a lesson is: when
  // saved it is rebuilt and rerun, and the new launches replace its old ones, at the same launch
  // and moment where the new run still has them (program_view.cpp).
  ProgramView program;
  std::string trace_field;  // a recorded trace to open when the GPU cannot run the lesson
  std::string trace_error;  // why it could not be opened

  // [timeline]
  std::vector<std::shared_ptr<const visual::TimelineModel>> models;  // one per launch
  int launch = 0;
  visual::PlaybackState playback;
  visual::ThreadSnapshot snapshot;
  bool focus_pending = false;   // jump to the step's focus event when the next run lands
  size_t step_moment = SIZE_MAX;  // the playback position the step opened at (SIZE_MAX: none)
  visual::Selection selection;  // thread, warp or block picked in the grid

  // [views]
  visual::GridViewSettings grid;
  visual::CodeViewSettings code;
  // The code view's memory badges and the launch they were computed for (model address, events).
  std::vector<visual::MemoryBadge> memory_badges;
  std::pair<const visual::TimelineModel*, uint64_t> memory_badges_of{nullptr, 0};
  // The races found in the launch shown (with find_races), and the launch they are of.
  std::vector<Race> races;
  std::pair<const visual::TimelineModel*, uint64_t> races_of{nullptr, 0};
  // The race picked in the race list, whose two threads the grid marks (-1: none). A launch's
  // races open with the first one picked.
  int picked_race = -1;
  visual::BarrierViewSettings barrier_view;
  visual::FlowViewSettings flow_view;
  DerivedViews derived;
  std::shared_ptr<BenchmarkTabState> bench;  // the Benchmark tab's state, made when first shown
  std::shared_ptr<ExerciseTabState> exercise;  // the Exercise tab's (exercise_tab(app))
  // The exercise progress file checks are counted in ("": none, as for scripts without
  // --progress), and the folder Start writes exercises into ("": ~/coopviz-exercises).
  std::string progress_path;
  std::string exercise_folder;
  bool exercise_tab_wanted = false;         // open_exercise's tab, once the lesson's run has landed
  ResultTab tab_request = ResultTab::None;  // a step asks for the tab it is about
  ResultTab shown_tab = ResultTab::None;    // the tab selected under the grid
  bool popped_out[kResultTabCount] = {};    // tabs shown in windows of their own
  LayoutState layout;
  float grid_wanted_height = 0;  // what the thread grid needs at most (0: no limit), last frame
  float grid_label_px = 0;       // ink height of the smallest numbers in its cells, last frame
  float grid_cells_px = 0;       // height of the part of the grid's cells in sight, last frame
  float grid_cells_h = 0;        // and of all of them
  float grid_cells_top = 0;      // where its cells begin in the grid panel (0: none drawn)
  // Whether what the shown tab points at was in sight last frame (the events list's row just
  // played with the step's rows before it, the atomic just landed, the request's sectors or
  // banks): 1 yes, 0 no, -1 the tab points at nothing.
  int tab_focus_in_sight = -1;
  // The step (or whole lesson) the text panel last showed: another opens at its title, never at
  // the scroll position the previous one was left at.
  std::string text_shown_for;
  bool presentation = false;      // large fonts, high contrast
  bool show_demo = false;         // the visual demo window
  // Frames until the window writes a PNG of what it drew (0: none asked for). Asked from a popup,
  // it waits one frame more so that the picture shows the window, not the popup.
  int export_requested = 0;
  float ui_scale = 1.0f;          // HiDPI content scale
  std::string notice;             // last one-line message (export done, settings error, ...)
  bool notice_is_error = false;   // shown in the error colour: something the user must know
  std::string export_dir;         // where Export PNG writes ("": export_folder()'s default)
  int window_width = 1440, window_height = 900;  // kept up to date by the window

  // [settings] Saved when they change (after a second without changes, so a splitter drag
  // writes once) and at exit; a failed save says why in the notice line.
  std::string settings_path;     // empty: settings are not saved (scripts, screenshots)
  GuiSettings saved_settings;    // as last written (or found at start)
  GuiSettings pending_settings;  // as last seen, and since when
  double settings_changed_at = 0;
  std::string settings_error;  // why the last save failed; empty once one succeeds

  // What to remember between runs, and putting it back (layout and presentation mode; the
  // caller selects the remembered lesson and step).
  GuiSettings remembered() const;
  void restore(const GuiSettings& settings);

  // Where Export PNG writes: the folder chosen, else the desktop's pictures folder
  // ($XDG_PICTURES_DIR or ~/Pictures) with a coopviz folder in it.
  std::string export_folder() const;

  // Saves the settings if they changed and have settled (or now, with `force`).
  void keep_settings(double now, bool force);
  // Sets the one-line notice.
  void say(std::string text, bool error = false);

  // Selects lesson `index` with its default configuration and its first step, and runs it.
  void select_lesson(int index, double now);
  // Selects `index` of the current lesson's steps: runs with its launch and parameters if they
  // differ from the last run (or the step shows races the last run did not record), then
  // applies its view (launch shown, moment, colours, tab, selection, zoom, races).
  void select_step(int index, double now);
  // Defaults: every field of the Launch panel back to the lesson's (trace capacity too), what
  // was typed forgotten, and the current step applied again.
  void reset_to_defaults(double now);
  // Marks the configuration edited: a run starts shortly unless another edit follows.
  void config_edited(double now);
  // Submits the current configuration now.
  void run_now();
  // Shows `traces` as if loaded from a file (benchmarks, tests).
  void show_traces(std::vector<Trace> traces, const std::string& label);
  // Shows the traces in `path` instead of running anything.
  Status open_trace(const std::string& path);
  // Shows event `event` (an index into launch `launch`'s events, as a trace file stores them):
  // that launch, playback just after the event, and the event's thread selected.
  Status show_trace_event(size_t launch, size_t event);
  // Opens exercise `id` in the Exercise tab, with its lesson shown (a class pack, a script).
  Status open_exercise(const std::string& id, double now);
  // The ways on when the GPU could not run the lesson: the emulator, or a recorded trace (a
  // failure to open it is kept in trace_error).
  void run_on_emulator();
  void open_recorded(const std::string& path);
  // A Launch panel field finished typing ("grid", "block", "seed", "capacity", "param:NAME"):
  // parsed as typed and checked against CUDA's limits and the lesson's own rules. Taken, it is
  // kept as the user's (until Defaults) and the lesson runs again; refused, the error names
  // what is wrong and the limit, and nothing changes.
  Status commit_field(std::string_view field, std::string_view text, double now);
  // [program_view.cpp] The program is what the window shows (not a lesson nor a saved trace).
  bool program_shown() const { return program.shown; }
  // Makes the launches shown (its first run's, opened as a trace) the program's, kept live by a
  // watcher with `watched`, with what it printed; or, when its first build failed, shows the
  // compiler's `build_error` at its lines, no launch, until a save compiles.
  void open_program(ProgramOptions watched, std::string output, std::string build_error = {});
  // Shows the program again as it was left (its launch, moment, fields and switches), or its
  // newer run; a lesson's run in flight is forgotten.
  void show_program();
  // Puts the program aside, with its launch, moment, fields and switches (a lesson is picked).
  void leave_program();
  // The program's memory and races switches changed: it runs again recording every load and
  // store, or not (the emulator only: a GPU build runs on the emulator while they are recorded).
  void program_recording_changed();
  // A program's grid or block field finished typing: the shown launch's kernel runs with it in
  // every launch (a launch override, applied on both backends), "*" or nothing meaning the
  // program's own. Refused with the limit named; taken, the program runs again.
  Status commit_program_launch(std::string_view field, std::string_view text);
  // Forgets the shown kernel's launch override and runs the program again.
  void clear_program_launch();
  // The launch override of the shown launch's kernel, or null.
  const LaunchOverride* shown_launch_override() const;
  // The same as typing `text` into the field and pressing Enter (scripts, tests).
  Status type_into(const std::string& field, std::string_view text, double now);
  // The trace recorded on a GPU that ships for the shown lesson ("" when none is found).
  std::string recorded_trace() const;
  // Events the shown launches could not record for lack of trace capacity.
  uint64_t dropped_events() const;
  // What to tell the user about them ("" when none were dropped): how many of how many, the
  // capacity they were recorded with, and how to make room.
  std::string dropped_warning() const;

  // Per frame: picks up finished runs, starts debounced ones, advances playback.
  void update(double now, double frame_seconds);
  // Replaces the shown launches with a saved program's rerun, or says why there is none.
  void take_program_rerun(double now);
  // Blocks until no run is queued or running and the last outcome is shown (screenshots,
  // scripts); false on timeout.
  bool wait_for_runs(double timeout_seconds);
  // What is shown is being run: the lesson's run, or the program's while it is shown (the
  // program rerunning aside, after a save, must not hold a lesson's step view or question back).
  bool running() const {
    return runner.busy() || run_due >= 0 || (program_shown() && program_running());
  }
  // The user's program is being rebuilt or rerun, or a rerun was asked for.
  bool program_running() const {
    return program.watcher && (program.watcher->busy() || program.watcher->rerun_wanted());
  }

  const lessons::LessonDef* lesson_def() const;
  const lessons::Step* step_def() const;  // the current step, or null
  // Whether the lesson shown has step `n` (from 1), or why not: a trace of no lesson, a lesson
  // whose lesson.md has mistakes (they are the error), a step past its last.
  Status has_step(int64_t n) const;
  const visual::TimelineModel* model() const;
  const Trace* shown_trace() const;  // the shown launch's trace, or null
  // The launch the Launch panel shows: what the user typed, else what the shown launch ran with
  // (a lesson may derive it, e.g. a grid of `waves` full waves), else what the next run asks.
  LaunchConfig panel_launch() const;
  // Shows launch `index` of the run (the launch picker; a step's kernel).
  void show_launch(int index);
  // The kernel text the code view shows: the trace's copy, else the lesson's.
  std::string_view source() const;
  // Lines of the current step's code snippets.
  std::vector<int> step_lines() const;
  // Applies the current step's view to what is shown: its launch, moment, colouring, tab,
  // selection and zoom. Says in the notice line when the step's launch or moment is missing.
  void apply_step_view();
  // The tab under the grid now: a pending request (from a step, a script or a click on a
  // thread) wins unless that tab is popped out; a tab with nothing for the shown launch gives
  // way to the checks.
  ResultTab resolve_tab();
  // Whether a tab's view has anything for the shown launch (tabs without are left out).
  bool tab_has_content(ResultTab tab);
  // Bit k: the shown launch has events of EventKind k (found once per launch).
  uint32_t launch_event_kinds();
  // Jumps playback to the next event on `line` after the cursor (wrapping to the start).
  void jump_to_line(int line);

 private:
  void show_exercise_tab();
  void take(RunOutcome outcome);
  // Shows loaded launches instead of a lesson's run (a saved trace's, the program's).
  void show_loaded(std::vector<std::shared_ptr<const visual::TimelineModel>> models,
                   const std::string& label);
  void show_models(std::vector<std::shared_ptr<const visual::TimelineModel>> models);
};

// The data tab `tab` keeps for the shown launch, a `T` that only its own file knows; made on
// first use and dropped when another launch is shown.
template <class T>
T& tab_data(GuiApp& app, ResultTab tab) {
  std::shared_ptr<void>& data = app.derived.tab_data[int(tab)];
  if (!data) data = std::make_shared<T>();
  return *static_cast<T*>(data.get());
}

}  // namespace coop::app
