#include "app/gui/gui_app.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "device/trace/trace_file.hpp"

namespace coop::app {
namespace {

// Edits in quick succession (typing "512") start one run, not three.
constexpr double kEditDelay = 0.35;
// Settings are written once they have not changed for this long (a splitter drag writes once).
constexpr double kSettingsDelay = 1.0;

}  // namespace

ResultTab tab_for_focus(EventKind focus) {
  switch (focus) {
    case EventKind::Barrier:
    case EventKind::BarrierArrive:
    case EventKind::BarrierWait:
      return ResultTab::Barriers;
    case EventKind::Atomic:
      return ResultTab::Atomics;
    case EventKind::Collective:
      return ResultTab::DataFlow;
    case EventKind::Load:
    case EventKind::Store:
    case EventKind::CopyIssue:
      return ResultTab::Memory;
    case EventKind::ThreadBegin:
    case EventKind::ThreadEnd:
      return ResultTab::Schedule;
    default:
      return ResultTab::None;
  }
}

const lessons::LessonDef* GuiApp::lesson_def() const {
  const auto& all = lessons::registry();
  return lesson >= 0 && size_t(lesson) < all.size() ? &all[size_t(lesson)] : nullptr;
}

const visual::TimelineModel* GuiApp::model() const {
  return launch >= 0 && size_t(launch) < models.size() ? models[size_t(launch)].get() : nullptr;
}

std::string_view GuiApp::source() const {
  if (const visual::TimelineModel* m = model(); m && !m->trace().header.source.empty())
    return m->trace().header.source;
  const lessons::LessonDef* l = lesson_def();
  return l ? l->source : std::string_view();
}

std::vector<int> GuiApp::step_lines() const {
  const lessons::LessonDef* l = lesson_def();
  std::vector<int> lines;
  if (!l || step < 0 || size_t(step) >= l->steps.size()) return lines;
  for (const std::string& snippet : l->steps[size_t(step)].code)
    for (int line : lessons::lines_with(source(), snippet)) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

void GuiApp::select_lesson(int index, double now) {
  const auto& all = lessons::registry();
  if (index < 0 || size_t(index) >= all.size()) return;
  const lessons::LessonDef& l = all[size_t(index)];
  lesson = index;
  lesson_text = visual::parse_markdown(l.text);
  config = l.default_config;
  params.clear();
  for (const lessons::ParamDef& p : l.params) params[p.name] = p.default_value;
  replay = false;
  trace_path.clear();
  selection = {};
  code.followed_line = 0;
  step = -1;
  if (!l.steps.empty()) {
    select_step(0, now);
  }
  run_now();
}

void GuiApp::select_step(int index, double now) {
  const lessons::LessonDef* l = lesson_def();
  if (!l || index < 0 || size_t(index) >= l->steps.size()) return;
  step = index;
  if (const std::vector<int> lines = step_lines(); !lines.empty())
    code.scroll_to_line = lines.front();
  bool changed = false;
  if (!replay) {
    for (const auto& [name, value] : l->steps[size_t(index)].params) {
      auto it = params.find(name);
      if (it != params.end() && it->second != value) {
        it->second = value;
        changed = true;
      }
    }
  }
  if (changed) {
    focus_pending = true;
    config_edited(now);
    run_due = now;  // a step is one deliberate click: no need to wait for more edits
  } else {
    apply_focus();
  }
}

void GuiApp::config_edited(double now) {
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
  job.request.seed = seed;
  job.backend = kBackendChoices[std::clamp(backend, 0, 2)];
  job.trace_capacity = trace_capacity;
  job.generation = ++generation;
  run_due = -1;
  trace_error.clear();
  focus_pending = true;
  runner.submit(std::move(job));
}

void GuiApp::run_on_emulator() {
  backend = kEmulatorBackend;
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

bool GuiApp::type_trace_capacity(uint64_t events, double now) {
  capacity_edit = events;
  if (events < kMinTraceCapacity || events > kMaxTraceCapacity) {
    capacity_error = "trace capacity " + std::to_string(events) + ": must be " +
                     std::to_string(kMinTraceCapacity) + " to " +
                     std::to_string(kMaxTraceCapacity) + " (64 bytes each, 4 GiB at most)";
    return false;
  }
  capacity_error.clear();
  trace_capacity = events;
  config_edited(now);
  return true;
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
  if (const lessons::LessonDef* l = lesson_def(); l && !replay) s.lesson = l->id;
  s.step = std::max(0, step);
  s.presentation = presentation;
  return s;
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
  presentation = s.presentation;
}

Status GuiApp::open_trace(const std::string& path) {
  Result<std::vector<Trace>> traces = load_traces(path);
  if (!traces) return traces.status();
  if (traces->empty()) return Status::error(path + " holds no launches");
  show_traces(std::move(*traces), path);
  return {};
}

void GuiApp::show_traces(std::vector<Trace> traces, const std::string& label) {
  std::vector<std::shared_ptr<const visual::TimelineModel>> loaded;
  for (Trace& t : traces)
    loaded.push_back(std::make_shared<const visual::TimelineModel>(std::move(t)));
  replay = true;
  trace_path = label;
  run_due = -1;
  ++generation;  // a run still in flight must not replace the trace
  lesson = -1;
  lesson_text.clear();
  if (!loaded.empty()) {
    const std::string& id = loaded.front()->trace().header.lesson;
    const auto& all = lessons::registry();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].id == id) {
        lesson = int(i);
        lesson_text = visual::parse_markdown(all[i].text);
      }
    config = loaded.front()->launch();
  }
  outcome.reset();
  step = -1;
  show_models(std::move(loaded));
  if (const lessons::LessonDef* l = lesson_def(); l && !l->steps.empty()) step = 0;
}

void GuiApp::show_models(std::vector<std::shared_ptr<const visual::TimelineModel>> next) {
  snapshot.reset();
  derived = DerivedViews{};
  barrier_view.zoom = 0;  // fit the new trace's time scale
  barrier_view.followed_cursor = SIZE_MAX;
  models = std::move(next);
  launch = 0;
  selection = {};
  visual::PlaybackState fresh;
  fresh.speed = playback.speed;
  fresh.loop = playback.loop;
  playback = fresh;
  grid.group = GroupKind::None;
  if (const visual::TimelineModel* m = model()) {
    playback.cursor = m->size();  // show the whole run until a step says otherwise
    snapshot.update(*m, playback.cursor);
  }
}

void GuiApp::take(RunOutcome next) {
  if (next.generation != generation) return;  // an edit since made it stale
  std::vector<std::shared_ptr<const visual::TimelineModel>> next_models = std::move(next.models);
  outcome = std::move(next);
  if (!next_models.empty() || !outcome->run.status.ok()) show_models(std::move(next_models));
  if (focus_pending) {
    focus_pending = false;
    apply_focus();
  }
}

void GuiApp::apply_focus() {
  const lessons::LessonDef* l = lesson_def();
  if (!l || step < 0 || size_t(step) >= l->steps.size()) return;
  const lessons::Step& s = l->steps[size_t(step)];
  // Show the view this step is about, whether or not its moment is found in this launch.
  tab_request = tab_for_focus(s.focus);
  // The occupancy lesson is about the calculator itself.
  if (l->id == "occupancy") tab_request = ResultTab::Occupancy;
  const visual::TimelineModel* m = model();
  if (!m) return;
  const std::vector<int> lines = step_lines();
  size_t pos = m->find_next(0, s.focus, lines);
  // Thread start and end events carry no source line: find them by kind alone.
  if (pos >= m->size() && !lines.empty()) pos = m->find_next(0, s.focus);
  if (pos >= m->size()) return;
  size_t cursor = visual::end_of_moment(*m, pos);
  if (s.focus == EventKind::Barrier || s.focus == EventKind::BarrierWait) {
    // A barrier is clearest the moment its last member arrives: everyone is waiting.
    const auto& ends = m->phase_ends();
    auto it = std::lower_bound(ends.begin(), ends.end(), pos);
    if (it != ends.end()) cursor = *it + 1;
  } else {
    // Group creation, atomics, collectives: show them all done, so every thread has its rank,
    // every ticket is drawn.
    for (size_t next = pos; next < m->size(); next = m->find_next(next + 1, s.focus, lines))
      cursor = visual::end_of_moment(*m, next);
  }
  visual::seek(playback, *m, cursor);
  playback.playing = false;
}

void GuiApp::jump_to_line(int line) {
  const visual::TimelineModel* m = model();
  if (!m || line <= 0) return;
  size_t pos = visual::find_next_on_line(*m, playback.cursor, line);
  if (pos >= m->size()) pos = visual::find_next_on_line(*m, 0, line);  // wrap around
  if (pos < m->size()) visual::seek(playback, *m, visual::end_of_moment(*m, pos));
}

void GuiApp::update(double now, double frame_seconds) {
  if (run_due >= 0 && now >= run_due) run_now();
  if (std::optional<RunOutcome> done = runner.poll()) take(std::move(*done));
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
