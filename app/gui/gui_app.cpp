#include "app/gui/gui_app.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "app/gui/exercise_tab.hpp"
#include "app/questions/lesson_check.hpp"
#include "device/trace/trace_file.hpp"
#include "visual/moment.hpp"

namespace coop::app {
namespace {

// Edits in quick succession (typing "512") start one run, not three.
constexpr double kEditDelay = 0.35;
// Settings are written once they have not changed for this long (a splitter drag writes once).
constexpr double kSettingsDelay = 1.0;

}  // namespace

const lessons::LessonDef* GuiApp::lesson_def() const {
  const auto& all = lessons::registry();
  return lesson >= 0 && size_t(lesson) < all.size() ? &all[size_t(lesson)] : nullptr;
}

const lessons::Step* GuiApp::step_def() const {
  const lessons::LessonDef* l = lesson_def();
  return l && step >= 0 && size_t(step) < l->steps.size() ? &l->steps[size_t(step)] : nullptr;
}

Status GuiApp::has_step(int64_t n) const {
  const lessons::LessonDef* l = lesson_def();
  if (!l) return Status::error("this trace is from no known lesson, so it has no steps");
  if (l->steps.empty() && !lesson_errors.empty()) return Status::error(lesson_errors);
  if (n < 1 || size_t(n) > l->steps.size())
    return Status::error("lesson " + l->id + " has steps 1 to " + std::to_string(l->steps.size()));
  return {};
}

const visual::TimelineModel* GuiApp::model() const {
  return launch >= 0 && size_t(launch) < models.size() ? models[size_t(launch)].get() : nullptr;
}

std::string_view GuiApp::source() const {
  // A saved program that does not compile: the file as it is now, its errors marked.
  if (program_shown() && !program.new_source.empty()) return program.new_source;
  if (const visual::TimelineModel* m = model(); m && !m->trace().header.source.empty())
    return m->trace().header.source;
  const lessons::LessonDef* l = lesson_def();
  return l ? l->source : std::string_view();
}

std::vector<int> GuiApp::step_lines() const {
  std::vector<int> lines;
  const lessons::Step* s = step_def();
  if (!s) return lines;
  // A snippet found inside the shown kernel counts only there: the same call in another kernel
  // of the file is not this step's line. One found only outside it (a helper) counts where it is.
  const auto [first, last] = lessons::kernel_lines(source(), s->kernel);
  for (const std::string& snippet : s->code) {
    const std::vector<int> found = lessons::lines_with(source(), snippet);
    std::vector<int> inside;
    for (int line : found)
      if (line >= first && line <= last) inside.push_back(line);
    for (int line : inside.empty() ? found : inside) lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

void GuiApp::select_lesson(int index, double now) {
  const auto& all = lessons::registry();
  if (index < 0 || size_t(index) >= all.size()) return;
  const lessons::LessonDef& l = all[size_t(index)];
  leave_program();
  lesson = index;
  exercise_tab_wanted = false;  // another lesson asked for by hand
  lesson_text = visual::parse_markdown(l.text);
  lesson_errors = app::lesson_errors(l);
  step_text.clear();
  whole_lesson = l.steps.empty();
  config = l.default_config;
  params.clear();
  for (const lessons::ParamDef& p : l.params) params[p.name] = p.default_value;
  grid_typed = block_typed = false;
  typed_params.clear();
  fields.clear();
  replay = false;
  trace_path.clear();
  outcome.reset();
  show_models({});  // nothing of the lesson shown before stays on screen while this one runs
  code.followed_line = 0;
  step = -1;
  open_step_questions(*this);  // none until a step is selected
  if (!l.steps.empty()) select_step(0, now);
  run_now();
}

void GuiApp::select_step(int index, double now) {
  const lessons::LessonDef* l = lesson_def();
  if (!l || index < 0 || size_t(index) >= l->steps.size()) return;
  step = index;
  const lessons::Step& s = l->steps[size_t(index)];
  step_text = visual::parse_markdown(s.text);
  open_step_questions(*this);
  whole_lesson = false;
  if (const std::vector<int> lines = step_lines(); !lines.empty())
    code.scroll_to_line = lines.front();
  find_races = s.races;
  if (replay) {
    apply_step_view();
    return;
  }
  lessons::RunRequest wanted = lessons::step_request(*l, s);
  lessons::Params& want = wanted.params;
  const LaunchConfig& want_config = wanted.config;
  grid_typed = block_typed = false;
  typed_params.clear();
  fields.clear();
  // A step that shows data races needs every load and store recorded: a run without runs again.
  const bool unrecorded = find_races && !job_records_memory;
  if (want != params || !(want_config == config) || unrecorded) {
    params = std::move(want);
    config = want_config;
    focus_pending = true;
    config_edited(now);
    run_due = now;  // a step is one deliberate click: no need to wait for more edits
  } else if (!running()) {
    apply_step_view();
  } else {
    focus_pending = true;  // the run in flight is this step's: apply the view when it lands
  }
}

void GuiApp::reset_to_defaults(double now) {
  const int shown_step = step;
  // Everything the Launch panel can change goes back, or the picture contradicts the step: the
  // schedule and seed decide the order shown, memory recording what the trace holds.
  trace_capacity = ExecOptions{}.trace_capacity;
  schedule = Schedule::Lockstep;
  seed = 0;
  record_memory = false;
  select_lesson(lesson, now);
  if (shown_step > 0) select_step(shown_step, now);
}

void GuiApp::config_edited(double now) {
  if (program_shown()) return program_recording_changed();
  if (replay) return;
  run_due = now + kEditDelay;
}

void GuiApp::run_now() {
  const lessons::LessonDef* l = lesson_def();
  if (!l || replay) return;
  RunJob job;
  job.lesson = l;
  job.request.config = config;
  job.request.params = params;
  job.request.schedule = schedule;
  job.request.seed = seed;
  job.request.grid_given = grid_typed;
  job.request.block_given = block_typed;
  job.backend = backend;
  job.trace_capacity = trace_capacity;
  job.record_memory = record_memory || find_races;
  job_records_memory = job.record_memory;
  job.generation = ++generation;
  run_due = -1;
  trace_error.clear();
  focus_pending = true;
  runner.submit(std::move(job));
}

void GuiApp::run_on_emulator() {
  backend = BackendRequest::Emu;
  run_now();
}

void GuiApp::open_recorded(const std::string& path) {
  if (Status s = open_trace(path); !s) {
    trace_error = s.message();  // names the file
    return;
  }
  trace_error.clear();
  const TraceHeader& h = models.front()->trace().header;
  const std::string where = h.backend == Backend::Gpu ? "a GPU, " + h.device.name
                                                      : "the emulator (" + h.device.name + ")";
  say("Recorded on " + where + (h.recorded_at.empty() ? "" : ", at " + h.recorded_at) +
      ". Nothing runs while it is shown: Run this lesson live (in Launch) runs it here.");
}

Status GuiApp::commit_field(std::string_view field, std::string_view text, double now) {
  if (program_shown() && (field == "grid" || field == "block"))
    return commit_program_launch(field, text);
  const lessons::LessonDef* l = lesson_def();
  if (!l) return Status::error("no lesson is selected");
  LaunchConfig next = config;
  lessons::Params next_params = params;
  if (field == "grid" || field == "block") {
    // CUDA's own limits first, then the lesson's rules for its kernels.
    const bool grid_field = field == "grid";
    Result<Dim3> d = grid_field ? visual::parse_dims(text, "grid", {2147483647u, 65535, 65535})
                                : visual::parse_dims(text, "block", {1024, 1024, 64}, 1024);
    if (!d) return d.status();
    (grid_field ? next.grid : next.block) = *d;
  } else if (field == "seed") {
    Result<int64_t> v = visual::parse_whole(text, "seed", 0, INT64_MAX);
    if (!v) return v.status();
    seed = uint64_t(*v);
    config_edited(now);
    return {};
  } else if (field == "capacity") {
    Result<int64_t> v = visual::parse_whole(text, "trace capacity (events per launch)",
                                            int64_t(kMinTraceCapacity), int64_t(kMaxTraceCapacity));
    if (!v) return v.status();
    trace_capacity = uint64_t(*v);
    config_edited(now);
    return {};
  } else if (field.starts_with("param:")) {
    const std::string name(field.substr(6));
    const lessons::ParamDef* def = nullptr;
    for (const lessons::ParamDef& p : l->params)
      if (p.name == name) def = &p;
    if (!def) return Status::error("lesson " + l->id + " has no parameter '" + name + "'");
    Result<int64_t> v = visual::parse_whole(text, name, def->min, def->max);
    if (!v) return v.status();
    next_params[name] = *v;
    if (Status s = lessons::check_params(*l, next_params); !s) return s;
  } else {
    return Status::error("the Launch panel has no field '" + std::string(field) + "'");
  }
  if (l->validate)
    if (Status s = l->validate(next, next_params); !s) return s;
  if (field == "grid") grid_typed = true;
  if (field == "block") block_typed = true;
  if (field.starts_with("param:")) typed_params.insert(std::string(field.substr(6)));
  config = next;
  params = std::move(next_params);
  config_edited(now);
  return {};
}

Status GuiApp::type_into(const std::string& field, std::string_view text, double now) {
  visual::FieldText& f = fields[field];
  f.typed = std::string(text);
  const Status s = commit_field(field, text, now);
  f.error = s ? "" : s.message();
  return s;
}

std::string GuiApp::recorded_trace() const {
  const lessons::LessonDef* l = lesson_def();
  return l ? recorded_trace_path(l->id) : std::string();
}

uint64_t GuiApp::dropped_events() const {
  uint64_t dropped = 0;
  for (const auto& m : models) dropped += m->trace().dropped();
  return dropped;
}

std::string GuiApp::dropped_warning() const {
  const uint64_t dropped = dropped_events();
  if (dropped == 0) return "";
  uint64_t attempted = 0, capacity = 0;
  for (const auto& m : models) {
    attempted += m->trace().header.attempts;
    capacity = std::max(capacity, m->trace().header.capacity);
  }
  const std::string lost = std::to_string(dropped) + " of " + std::to_string(attempted) +
                           " events were dropped: the trace had room for " +
                           std::to_string(capacity) + " per launch";
  if (replay) return lost + ". Record it again with a larger --trace-capacity to see them all.";
  return lost + ". Raise the trace capacity (in Launch) and run again to see them all.";
}

GuiSettings GuiApp::remembered() const {
  GuiSettings s;
  s.layout = layout;
  s.export_folder = export_dir;
  s.exercise_folder = exercise_folder;
  if (const lessons::LessonDef* l = lesson_def(); l && !replay) s.lesson = l->id;
  s.step = std::max(0, step);
  s.presentation = presentation;
  s.pack = pack.path;
  s.pack_item = std::max(0, pack.current);
  s.questions = questions.enabled;
  return s;
}

std::string GuiApp::export_folder() const {
  if (!export_dir.empty()) return export_dir;
  return default_pictures_folder() + "/coopviz";
}

void GuiApp::say(std::string text, bool error) {
  notice = std::move(text);
  notice_is_error = error;
}

void GuiApp::keep_settings(double now, bool force) {
  if (settings_path.empty()) return;
  GuiSettings current = remembered();
  current.window_width = window_width;
  current.window_height = window_height;
  if (current == saved_settings) return;
  if (!(current == pending_settings)) {  // still changing: wait until it settles
    pending_settings = current;
    settings_changed_at = now;
  }
  if (!force && now - settings_changed_at < kSettingsDelay) return;
  // Say a failure once; the next change tries again.
  saved_settings = current;
  if (Status s = save_settings(settings_path, current); !s) {
    settings_error = "Settings not saved: " + s.message();
    say(settings_error, true);
  } else {
    settings_error.clear();
  }
}

void GuiApp::restore(const GuiSettings& s) {
  layout = s.layout;
  export_dir = s.export_folder;
  exercise_folder = s.exercise_folder;
  presentation = s.presentation;
  questions.enabled = s.questions;
}

Status GuiApp::open_trace(const std::string& path) {
  Result<std::vector<Trace>> traces = load_traces(path);
  if (!traces) return traces.status();
  if (traces->empty()) return Status::error(path + " holds no launches");
  show_traces(std::move(*traces), path);
  return {};
}

Status GuiApp::show_trace_event(size_t launch_index, size_t event) {
  if (launch_index >= models.size())
    return Status::error("launch " + std::to_string(launch_index) + ": the trace has " +
                         std::to_string(models.size()) + " launches, from 0");
  show_launch(int(launch_index));
  const visual::TimelineModel& m = *models[launch_index];
  const EventVector& events = m.trace().events;
  if (event >= events.size())
    return Status::error("event " + std::to_string(event) + ": launch " +
                         std::to_string(launch_index) + " has " + std::to_string(events.size()) +
                         " events, from 0");
  // Playback runs in its own order; the event's place in it is found by address.
  for (size_t pos = 0; pos < m.size(); ++pos)
    if (&m.at(pos) == &events[event]) {
      visual::seek(playback, m, pos + 1);
      playback.playing = false;
      snapshot.update(m, playback.cursor);
      break;
    }
  selection = {int64_t(events[event].thread), visual::SelectionScope::Thread};
  return {};
}

Status GuiApp::open_exercise(const std::string& id, double now) {
  ExerciseTabState& tab = exercise_tab(*this);
  if (Status s = tab.choose(id, progress_path); !s) return s;
  const lessons::LessonDef* l = lessons::find_lesson(tab.exercise()->lesson);
  if (l && l != lesson_def()) select_lesson(int(l - lessons::registry().data()), now);
  set_aside_step_questions(*this);  // a pending question would cover the Exercise tab
  // The lesson's first step opens its own tab when its run lands; the exercise comes after it.
  exercise_tab_wanted = running();
  show_exercise_tab();
  return {};
}

void GuiApp::show_exercise_tab() {
  tab_request = ResultTab::Exercise;
  // The spec, the buttons and the verdict need most of the column.
  layout.grid = presentation ? tab_row(ResultTab::Exercise).presentation_grid_share
                             : tab_row(ResultTab::Exercise).grid_share;
}

void GuiApp::show_traces(std::vector<Trace> traces, const std::string& label) {
  std::vector<std::shared_ptr<const visual::TimelineModel>> loaded;
  for (Trace& t : traces)
    loaded.push_back(std::make_shared<const visual::TimelineModel>(std::move(t)));
  leave_program();
  show_loaded(std::move(loaded), label);
}

void GuiApp::show_loaded(std::vector<std::shared_ptr<const visual::TimelineModel>> loaded,
                         const std::string& label) {
  replay = true;
  trace_path = label;
  run_due = -1;
  ++generation;  // a run still in flight must not replace the trace
  lesson = -1;
  lesson_text.clear();
  lesson_errors.clear();
  step_text.clear();
  whole_lesson = true;
  if (!loaded.empty()) {
    const std::string& id = loaded.front()->trace().header.lesson;
    const auto& all = lessons::registry();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].id == id) {
        lesson = int(i);
        lesson_text = visual::parse_markdown(all[i].text);
        lesson_errors = app::lesson_errors(all[i]);
      }
    config = loaded.front()->launch();
  }
  outcome.reset();
  step = -1;
  open_step_questions(*this);  // none until a step is selected
  show_models(std::move(loaded));
}

void GuiApp::show_models(std::vector<std::shared_ptr<const visual::TimelineModel>> next) {
  snapshot.reset();
  models = std::move(next);
  selection = {};
  visual::PlaybackState fresh;
  fresh.speed = playback.speed;
  fresh.loop = playback.loop;
  playback = fresh;
  show_launch(0);
}

void GuiApp::show_launch(int index) {
  snapshot.reset();
  derived = DerivedViews{};  // the views' data came from the launch shown before
  barrier_view.zoom = 0;     // fit the new launch's time scale
  barrier_view.followed_cursor = SIZE_MAX;
  step_moment = SIZE_MAX;  // until a step seeks in this launch
  launch = models.empty() ? 0 : std::clamp(index, 0, int(models.size()) - 1);
  if (const visual::TimelineModel* m = model()) {
    // Until a step says otherwise: the whole launch, coloured by the groups most threads form.
    grid.group = visual::default_color_group(*m);
    grid.color_by = grid.group == GroupKind::None ? visual::ColorBy::HardwareBlock
                                                  : visual::ColorBy::Group;
    visual::seek(playback, *m, m->size());
    snapshot.update(*m, playback.cursor);
  }
}

void GuiApp::take(RunOutcome next) {
  if (next.generation != generation) return;  // an edit since made it stale
  std::vector<std::shared_ptr<const visual::TimelineModel>> next_models = std::move(next.models);
  outcome = std::move(next);
  // A launch that was refused or never started recorded nothing: drawn, it would be a grid of
  // threads that never existed. The failure is said instead, above what did run.
  if (!outcome->run.status.ok())
    std::erase_if(next_models, [](const auto& m) { return m->size() == 0; });
  // A failed run clears what it replaced: only its own launches (those that ran before the
  // failure, e.g. up to a deadlock) stay on screen.
  show_models(std::move(next_models));
  if (focus_pending) {
    focus_pending = false;
    apply_step_view();
  }
  if (exercise_tab_wanted) {
    exercise_tab_wanted = false;
    show_exercise_tab();
  }
}

LaunchConfig GuiApp::panel_launch() const {
  // A replay (a program's launches too) shows the launch on screen as it ran.
  if (const visual::TimelineModel* m = model(); m && replay) return m->launch();
  LaunchConfig shown = config;
  if (const visual::TimelineModel* m = model(); m && !replay) {
    if (!grid_typed) shown.grid = m->launch().grid;
    if (!block_typed) shown.block = m->launch().block;
    shown.mode = m->launch().mode;
    shown.cluster = m->launch().cluster;
    shown.dynamic_smem = m->launch().dynamic_smem;
  }
  return shown;
}

void GuiApp::apply_step_view() {
  const lessons::Step* s = step_def();
  if (!s) return;
  std::optional<ResultTab> tab = tab_named(s->tab);
  tab_request = tab ? *tab : ResultTab::Checks;
  const TabRow& row = tab_row(tab_request);
  layout.grid = presentation ? row.presentation_grid_share : row.grid_share;
  if (!tab) say("step " + std::to_string(step + 1) + ": no tab named '" + s->tab + "' (" +
                    tab_names() + ")",
                true);
  // The launch this step is about: the n-th launch of its kernel.
  int wanted = -1;
  for (int i = 0, seen = 0; i < int(models.size()) && wanted < 0; ++i)
    if (models[size_t(i)]->trace().header.kernel == s->kernel && ++seen == s->launch) wanted = i;
  if (wanted < 0) {
    // The run failed before it, or the lesson no longer launches it: what did run stays shown.
    if (!models.empty() && outcome && outcome->run.status.ok())
      say("step " + std::to_string(step + 1) + ": this run has no launch " +
              std::to_string(s->launch) + " of " + s->kernel,
          true);
    wanted = int(models.size()) - 1;
  }
  if (wanted != launch || !snapshot.model()) show_launch(std::max(0, wanted));
  grid.color_by = s->colour.by == lessons::StepColour::By::Group ? visual::ColorBy::Group
                  : s->colour.by == lessons::StepColour::By::BlockIdx
                      ? visual::ColorBy::HardwareBlock
                      : visual::ColorBy::HardwareWarp;
  grid.group = s->colour.group;
  grid.fit = s->zoom <= 0;
  if (s->zoom > 0) grid.cell = s->zoom;
  const visual::TimelineModel* m = model();
  if (!m) return;
  // Who is selected: a thread, a warp or a block (by their first thread).
  const uint32_t bt = std::max(1u, m->block_threads());
  using Scope = lessons::StepSelection::Scope;
  switch (s->select.scope) {
    case Scope::None: selection = {}; break;
    case Scope::Thread: selection = {int64_t(s->select.thread), visual::SelectionScope::Thread}; break;
    case Scope::Warp:
      selection = {int64_t(s->select.block) * bt + int64_t(s->select.warp) * 32,
                   visual::SelectionScope::Warp};
      break;
    case Scope::Block:
      selection = {int64_t(s->select.block) * bt, visual::SelectionScope::Block};
      break;
  }
  if (selection.thread >= int64_t(m->thread_count())) selection = {};
  const std::vector<int> lines = step_lines();
  const std::optional<size_t> cursor = visual::moment_cursor(*m, s->moment, lines);
  if (!cursor) {
    if (outcome && outcome->run.status.ok())
      say("step " + std::to_string(step + 1) + ": this launch has no " + to_string(s->moment) +
              " on the step's lines",
          true);
    return;
  }
  visual::seek(playback, *m, *cursor);
  step_moment = playback.cursor;
  playback.playing = false;
  snapshot.update(*m, playback.cursor);
  // The code view shows the step's lines and the moment's line together where they fit.
  if (*cursor > 0) {
    code.scroll_to_line = int(m->at(*cursor - 1).line);
    if (!lines.empty()) code.range_first = lines.front(), code.range_last = lines.back();
  }
}

uint32_t GuiApp::launch_event_kinds() {
  if (!derived.event_kinds) {
    uint32_t kinds = 0;
    if (const visual::TimelineModel* m = model())
      for (const Event& e : m->trace().events) kinds |= 1u << unsigned(e.kind);
    derived.event_kinds = kinds;
  }
  return *derived.event_kinds;
}

bool GuiApp::tab_has_content(ResultTab tab) {
  if (tab == ResultTab::None) return false;
  const TabView& view = *tab_row(tab).view;
  if (view.event_kinds != 0 && (launch_event_kinds() & view.event_kinds) == 0) return false;
  return !view.has_content || view.has_content(*this);
}

const Trace* GuiApp::shown_trace() const {
  if (models.empty() || launch < 0 || size_t(launch) >= models.size()) return nullptr;
  return &models[size_t(launch)]->trace();
}

ResultTab GuiApp::resolve_tab() {
  if (tab_request != ResultTab::None && !popped_out[int(tab_request)]) {
    shown_tab = tab_request;
    tab_request = ResultTab::None;
    derived.tab_checked = true;
  }
  if (!derived.tab_checked) {  // a new launch: keep the tab if it still has something to show
    derived.tab_checked = true;
    if (shown_tab != ResultTab::None && !tab_has_content(shown_tab)) shown_tab = ResultTab::Checks;
  }
  return shown_tab;
}

void GuiApp::jump_to_line(int line) {
  const visual::TimelineModel* m = model();
  if (!m || line <= 0) return;
  size_t pos = visual::find_next_on_line(*m, playback.cursor, line);
  if (pos >= m->size()) pos = visual::find_next_on_line(*m, 0, line);  // wrap around
  if (pos < m->size()) visual::seek(playback, *m, visual::end_of_moment(*m, pos));
}

void GuiApp::update(double now, double frame_seconds) {
  if (program.watcher) take_program_rerun(now);
  if (run_due >= 0 && now >= run_due) run_now();
  if (std::optional<RunOutcome> done = runner.poll()) take(std::move(*done));
  if (exercise) exercise->poll();  // a finished check
  if (const visual::TimelineModel* m = model()) {
    visual::advance(playback, *m, frame_seconds);
    snapshot.update(*m, playback.cursor);
  }
}

bool GuiApp::wait_for_runs(double timeout_seconds) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  if (run_due >= 0) run_now();
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::optional<RunOutcome> done = runner.poll()) take(std::move(*done));
    // A program's rerun that was asked for (a launch override) or is under way: it starts and
    // finishes whatever the clock says, so `now` does not matter here.
    if (program_running()) {
      take_program_rerun(0);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    if (!runner.busy()) {
      if (std::optional<RunOutcome> done = runner.poll()) take(std::move(*done));
      if (const visual::TimelineModel* m = model()) snapshot.update(*m, playback.cursor);
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace coop::app
