// GuiApp's functions for the user's own program (program_view.hpp): opening it, switching
// between it and the lessons without either's state reaching the other, its reruns (a save, a
// launch override, a recording switch), and what they leave: its launches, what it printed, or
// the errors of a save that did not compile.
#include "app/gui/program_view.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "app/gui/gui_app.hpp"
#include "device/trace/trace_file.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace {

// The fields and switches of the side shown trade places with those of the side aside.
void swap_sides(GuiApp& app) {
  std::swap(app.fields, app.program.fields);
  std::swap(app.record_memory, app.program.record_memory);
  std::swap(app.find_races, app.program.find_races);
}

// What the notice line says of a saved version that does not compile: its first error, at its
// file and line, and how many more the code view marks.
std::string refusal(const ProgramView& p) {
  std::string first =
      p.errors.empty() ? p.build_error.substr(0, p.build_error.find('\n')) : p.errors.front().text;
  if (p.errors.size() > 1)
    first += " (and " + std::to_string(p.errors.size() - 1) + " more, marked in the code)";
  return p.file + " as saved does not compile: " + first;
}

// A build of the program that failed, with the compiler's `message`: the code view shows the file
// as it is now, its errors marked at their lines; the launches of the last version that ran (if
// one did) stay in the grid.
void refuse_build(GuiApp& app, std::string message) {
  ProgramView& p = app.program;
  p.build_error = std::move(message);
  p.errors = compile_errors(p.build_error, p.file);
  Result<std::string> text = read_user_file(p.file, kSourceFileLimit);
  p.new_source = text ? *text : "// " + text.message() + "\n";
  if (!app.program_shown())
    return app.say(p.file + " was saved but does not compile: pick it above");
  if (!p.errors.empty()) app.code.scroll_to_line = p.errors.front().line;
  app.say(refusal(p), true);
}

}  // namespace

std::vector<std::string> error_marks(const std::vector<CompileError>& errors) {
  std::vector<std::string> marks;
  for (const CompileError& e : errors) {
    if (size_t(e.line) >= marks.size()) marks.resize(size_t(e.line) + 1);
    std::string& mark = marks[size_t(e.line)];
    mark += (mark.empty() ? "" : "\n") + e.text;
  }
  return marks;
}

std::string program_fact(const GuiApp& app, const std::string& what, const std::string& want) {
  const ProgramView& p = app.program;
  if (what == "printed")
    return p.output.find(want) != std::string::npos ? want
                                                    : "output '" + p.output.substr(0, 300) + "'";
  if (what == "code") return app.program_shown() && !p.new_source.empty() ? "saved" : "ran";
  std::string lines;
  for (const CompileError& e : p.errors)
    lines += (lines.empty() ? "" : ",") + std::to_string(e.line);
  return lines.empty() ? "none" : lines;
}

void GuiApp::open_program(ProgramOptions watched, std::string output, std::string build_error) {
  program.file = watched.file;
  program.watcher = std::make_unique<ProgramWatcher>(std::move(watched));
  program.output = std::move(output);
  program.output_known = build_error.empty();  // a program that never compiled never ran
  trace_path = program.file;
  program.shown = true;
  swap_sides(*this);  // the program starts with its own fields and switches, all off
  record_memory = program.watcher->record_memory();
  find_races = false;
  if (!build_error.empty()) refuse_build(*this, std::move(build_error));
}

void GuiApp::leave_program() {
  if (!program.shown) return;
  program.models = models;
  program.launch = launch;
  program.cursor = playback.cursor;
  program.selection = selection;
  program.tab = shown_tab;
  swap_sides(*this);
  program.shown = false;
  say("");  // what was said of the program is not the lesson's
}

void GuiApp::show_program() {
  if (program.file.empty() || program.shown) return;
  show_loaded(program.models, program.file);  // a lesson's run in flight is now stale
  program.shown = true;
  swap_sides(*this);
  show_launch(program.launch);
  if (const visual::TimelineModel* m = model()) {
    visual::seek(playback, *m, std::min(program.cursor, m->size()));
    snapshot.update(*m, playback.cursor);
    if (program.selection.thread < int64_t(m->thread_count())) selection = program.selection;
  }
  tab_request = program.tab;  // a tab with nothing for the launch gives way, as always
  program.models.clear();
  say("");  // a lesson's notice is not the program's
  if (!program.build_error.empty()) say(refusal(program), true);
  if (!program.errors.empty()) code.scroll_to_line = program.errors.front().line;
}

void GuiApp::program_recording_changed() {
  if (!program.watcher) return;
  const bool wanted = record_memory || find_races;
  // Races are found in the recorded accesses: a trace that has them needs no other run.
  if (wanted == program.watcher->record_memory()) return;
  program.watcher->set_record_memory(wanted);
  say("running " + program.file + " again, " +
      (wanted ? "recording every load and store on the emulator..."
              : "without recording every load and store..."));
}

const LaunchOverride* GuiApp::shown_launch_override() const {
  const visual::TimelineModel* m = model();
  if (!program_shown() || !program.watcher || !m) return nullptr;
  return find_launch_override(program.watcher->launch_overrides(), m->trace().header.kernel);
}

Status GuiApp::commit_program_launch(std::string_view field, std::string_view text) {
  const visual::TimelineModel* m = model();
  ProgramWatcher* watcher = program.watcher.get();
  if (!program_shown() || !watcher || !m) return Status::error("no program launch is shown");
  const std::string& kernel = m->trace().header.kernel;
  std::vector<LaunchOverride> list = watcher->launch_overrides();
  // The override this edit changes: the one that applies to the shown kernel, else a new one.
  auto it = std::find_if(list.begin(), list.end(),
                         [&](const LaunchOverride& o) { return overrides_kernel(o, kernel); });
  LaunchOverride o = it != list.end() ? *it : LaunchOverride{kernel, {}, {}};
  std::optional<Dim3>& part = field == "grid" ? o.grid : o.block;
  const std::string typed(text);
  if (typed.empty() || typed == "*") {
    part.reset();
  } else {
    Result<Dim3> d = parse_dim3(typed, field);
    if (!d) return d.status();
    part = *d;
  }
  if (Status s = check_launch_override(o, watcher->device()); !s) return s;
  if (it != list.end()) list.erase(it);
  if (o.grid || o.block) list.push_back(o);
  watcher->set_launch_overrides(std::move(list));
  say("running " + kernel +
      (o.grid || o.block ? " with --launch " + to_string(o) : " as the program launches it") +
      "...");
  return {};
}

void GuiApp::clear_program_launch() {
  const visual::TimelineModel* m = model();
  if (!program_shown() || !program.watcher || !m) return;
  std::vector<LaunchOverride> list = program.watcher->launch_overrides();
  std::erase_if(
      list, [&](const LaunchOverride& o) { return overrides_kernel(o, m->trace().header.kernel); });
  fields.erase("grid");
  fields.erase("block");
  program.watcher->set_launch_overrides(std::move(list));
  say("running " + m->trace().header.kernel + " as the program launches it...");
}

void GuiApp::take_program_rerun(double now) {
  std::optional<ProgramWatcher::Outcome> o = program.watcher->poll(now);
  if (!o) return;
  ++program.runs;
  const std::string& file = program.file;
  if (!o->compiled) {
    std::fprintf(stderr, "%s\n", o->message.c_str());
    return refuse_build(*this, std::move(o->message));
  }
  program.build_error.clear();
  program.new_source.clear();
  program.errors.clear();
  const bool ran_before = program.output_known;
  program.output = std::move(o->output);
  program.output_known = true;
  Result<std::vector<Trace>> traces =
      o->ok ? load_traces(o->trace) : Result<std::vector<Trace>>(Status::error(o->message));
  if (!traces || traces->empty()) {
    const std::string why = traces ? file + " holds no launches" : traces.status().message();
    if (program_shown())
      say(file + (o->saved ? ": the new version did not run: " : " did not run: ") + why, true);
    return;
  }
  std::vector<std::shared_ptr<const visual::TimelineModel>> loaded;
  for (Trace& t : *traces)
    loaded.push_back(std::make_shared<const visual::TimelineModel>(std::move(t)));
  const std::string what = !o->saved ? file + " ran again (" + o->message + ")"
                           : ran_before
                               ? file + " saved: rebuilt and ran again (" + o->message + ")"
                               : file + " saved: it compiles now, and ran (" + o->message + ")";
  if (!program_shown()) {
    // Kept for when it is picked again; the lesson shown is left alone.
    program.models = std::move(loaded);
    return say(what + "; pick it above to see it");
  }
  const int shown_launch = launch;
  const size_t cursor = playback.cursor;
  show_loaded(std::move(loaded), file);
  show_launch(shown_launch);
  if (const visual::TimelineModel* m = model()) {
    visual::seek(playback, *m, std::min(cursor, m->size()));
    snapshot.update(*m, playback.cursor);
  }
  say(what);
}

}  // namespace coop::app
