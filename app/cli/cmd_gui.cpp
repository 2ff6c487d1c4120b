// coopviz gui [--lesson ID] [--step N] [--trace FILE [--event [L:]N]] [--backend B] [--pack FILE]
// [--progress FILE] and
// coopviz screenshot [--lesson L] [--step S] [--trace FILE] [--backend B] --out PNG [--size WxH].
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <fstream>
#include <iostream>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "app/cli/cmd_run_program.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/schedule_options.hpp"
#include "app/exercise/exercise.hpp"
#include "app/exercise/progress.hpp"
#include "app/gui/gui_app.hpp"
#include "app/gui/pack_navigator.hpp"
#include "app/gui/script.hpp"
#include "app/gui/settings.hpp"
#include "app/gui/window.hpp"
#include "app/program/program.hpp"
#include "app/questions/score.hpp"
#include "device/trace/user_file.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

constexpr double kRunTimeout = 300;  // seconds a screenshot waits for its lesson to run

struct GuiOptions {
  std::string lesson, trace, out, size = "1280x800", step, script, settings, backend = "auto";
  std::string pack;      // a class pack opened at its first item
  std::string progress;  // the exercise progress file (gui --progress)
  std::string event;     // --event [LAUNCH:]EVENT of the trace
  bool presentation = false;
  ScheduleOptions emu;                          // --schedule, --seed
  std::string program;                          // a user's own FILE.cu, run first
  std::vector<std::string> includes, defines, launches;  // its -I, -D and --launch
  int frames = 4;
  float scale = 1;  // HiDPI content scale for screenshots
};

// Shows event `text` ("[LAUNCH:]EVENT", indices from 0 as `coopviz exercise check` prints them)
// of the opened trace: its launch, playback just after it, and its thread selected.
Status show_event(GuiApp& app, const std::string& text) {
  const size_t colon = text.find(':');
  uint64_t launch = 0;
  if (colon != std::string::npos) {
    Result<uint64_t> l =
        parse_count(std::string_view(text).substr(0, colon), "--event launch", uint64_t(1) << 32);
    if (!l) return l.status();
    launch = *l;
  }
  Result<uint64_t> event =
      parse_count(std::string_view(text).substr(colon == std::string::npos ? 0 : colon + 1),
                  "--event", uint64_t(1) << 40);
  if (!event) return event.status();
  if (Status s = app.show_trace_event(size_t(launch), size_t(*event)); !s)
    return Status::error("--event " + text + ": " + s.message());
  return {};
}

// Sets up the app from --lesson / --trace / --step / --backend; the error names the bad value.
Status prepare(GuiApp& app, const GuiOptions& o) {
  if (!o.lesson.empty() && !o.trace.empty())
    return Status::error("give --lesson or --trace, not both (a trace names its lesson)");
  app.presentation = o.presentation;
  Result<BackendRequest> backend = parse_backend_request(o.backend);
  if (!backend) return backend.status();
  app.backend = *backend;
  Result<Schedule> schedule = check_schedule(o.emu, 1, *backend == BackendRequest::Gpu);
  if (!schedule) return schedule.status();
  app.schedule = *schedule;
  app.seed = o.emu.seed;
  if (!o.event.empty() && o.trace.empty())
    return Status::error("--event " + o.event + " needs --trace: it is an event of a saved trace");
  if (!o.trace.empty()) {
    if (Status s = app.open_trace(o.trace); !s) return s;
    if (!o.event.empty())
      if (Status s = show_event(app, o.event); !s) return s;
  } else if (!o.program.empty()) {
    app.show_traces({}, o.program);  // its first build failed: nothing ran, no lesson is shown
  } else {
    const std::string id = o.lesson.empty() ? lessons::registry().front().id : o.lesson;
    const lessons::LessonDef* l = lessons::find_lesson(id);
    if (!l)
      return Status::error("unknown lesson '" + id + "': known lessons are " +
                           lessons::lesson_ids());
    app.select_lesson(int(l - lessons::registry().data()), 0);
  }
  if (!o.step.empty()) {
    Result<uint64_t> n = parse_count(o.step, "--step", 1u << 20);
    if (!n) return n.status();
    if (Status s = app.has_step(int64_t(*n)); !s)
      return Status::error("--step " + o.step + ": " + s.message());
    app.select_step(int(*n) - 1, 0);
  }
  return {};
}

void add_common(CLI::App* cmd, GuiOptions& o) {
  cmd->add_option("--lesson", o.lesson, "Lesson id (see `coopviz list`)");
  cmd->add_option("--step", o.step, "Step of the lesson to show, from 1");
  cmd->add_option("--trace", o.trace, "Replay a saved trace instead of running (.cvt or .json)");
  cmd->add_option("--event", o.event,
                  "With --trace: open at event N of launch L ([L:]N, from 0), its thread selected");
  cmd->add_option("--backend", o.backend,
                  "Run lessons (or the program) on: " + backend_request_words())
      ->capture_default_str();
  cmd->add_flag("--presentation", o.presentation, "Large fonts and high contrast");
  add_schedule_options(cmd, o.emu);
}

}  // namespace

Result<std::pair<int, int>> parse_size(const std::string& text, int limit) {
  const size_t x = text.find('x');
  const std::string what = "--size '" + text + "'";
  if (x == std::string::npos) return Status::error(what + " is not of the form WIDTHxHEIGHT");
  Result<uint64_t> w = parse_count(std::string_view(text).substr(0, x), "--size width", 1u << 20);
  Result<uint64_t> h = parse_count(std::string_view(text).substr(x + 1), "--size height", 1u << 20);
  if (!w) return w.status();
  if (!h) return h.status();
  for (uint64_t v : {*w, *h})
    if (v < uint64_t(kMinImage) || v > uint64_t(limit))
      return Status::error(what + ": each side must be between " + std::to_string(kMinImage) +
                           " and " + std::to_string(limit) + " pixels");
  return std::pair<int, int>(int(*w), int(*h));
}

// coopviz layout-check: every lesson's first step (asking its question, where it asks one, and
// revealed), its first exercise's tab, and each step that shows data races (the code view's race
// column, the race list), rendered at projector and laptop sizes, in the normal and the
// presentation mode, and every panel whose content is cut off reported.
void register_layout_check(CLI::App& app, CliState& state) {
  struct Options {
    std::string lesson, sizes = "1024x768,1280x720,1600x1000,1920x1080";
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "layout-check",
      "Render every lesson's first step and race steps at several sizes and report cut-off panels");
  cmd->add_option("--lesson", o->lesson, "Only this lesson (default: every lesson)");
  cmd->add_option("--sizes", o->sizes, "Comma-separated WIDTHxHEIGHT sizes")->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, &state] {
    std::vector<std::pair<int, int>> sizes;
    for (size_t start = 0; start <= o->sizes.size();) {
      const size_t comma = std::min(o->sizes.find(',', start), o->sizes.size());
      Result<std::pair<int, int>> size = parse_size(o->sizes.substr(start, comma - start), kMaxImage);
      if (!size) return void(state.exit_code = usage_error(size.message()));
      sizes.push_back(*size);
      start = comma + 1;
    }
    std::vector<const lessons::LessonDef*> chosen;
    for (const lessons::LessonDef& l : lessons::registry())
      if (o->lesson.empty() || l.id == o->lesson) chosen.push_back(&l);
    if (chosen.empty())
      return void(state.exit_code = usage_error("unknown lesson '" + o->lesson +
                                                "': known lessons are " + lessons::lesson_ids()));
    Result<std::unique_ptr<GuiWindow>> window =
        GuiWindow::open({.width = 320, .height = 240, .visible = false});
    if (!window) return void(state.exit_code = usage_error(window.message()));
    nlohmann::json report = nlohmann::json::array();
    size_t cut = 0;
    for (const lessons::LessonDef* l : chosen) {
      GuiApp app;
      app.backend = BackendRequest::Emu;
      app.select_lesson(int(l - lessons::registry().data()), 0);
      if (!app.wait_for_runs(kRunTimeout))
        return void(state.exit_code = usage_error(l->id + ": the run took too long"));
      struct View {
        int step = 0;
        std::string exercise;  // its Exercise tab shown
        bool asking = false;   // the step's question asked, the step covered
      };
      std::vector<View> views = {{}};
      if (!app.questions.asked.empty()) views.push_back({0, "", true});
      if (Result<std::vector<Exercise>> all = find_exercises(); all)
        if (auto e = std::find_if(all->begin(), all->end(),
                                  [&](const Exercise& x) { return x.lesson == l->id; });
            e != all->end())
          views.push_back({0, e->id, false});
      for (size_t i = 1; i < l->steps.size(); ++i)
        if (l->steps[i].races) views.push_back({int(i), "", false});
      for (const View& v : views) {
        if (v.step != app.step) {
          app.presentation = false;  // as the first step: applied in the normal mode
          app.questions.enabled = false;
          app.select_step(v.step, 0);
          if (!app.wait_for_runs(kRunTimeout))
            return void(state.exit_code = usage_error(l->id + ": the run took too long"));
        }
        for (const auto& [w, h] : sizes)
          for (bool presentation : {false, true}) {
            app.presentation = presentation;
            app.questions.enabled = v.asking;
            if (!v.exercise.empty())
              if (Status s = app.open_exercise(v.exercise, 0); !s)
                return void(state.exit_code = usage_error(s.message()));
            if (Status s = (*window)->render(app, w, h, 4); !s)
              return void(state.exit_code = usage_error(s.message()));
            std::vector<std::string> clipped = (*window)->clipped_windows();
            // The step's key view (its tab, when that is a view of its own, else the thread grid)
            // gets at least a third of the window's width and of its height.
            const bool tab_key =
                app.shown_tab != ResultTab::Checks && app.shown_tab != ResultTab::ThreadEvents;
            const ImVec2Like key = (*window)->panel_size(tab_key ? "/tabs_panel" : "/grid_panel");
            const ImVec2Like text = (*window)->panel_size("/text_");
            if (key.x * 3 < float(w) || (tab_key && key.y * 3 < float(h)))
              clipped.push_back(std::string(tab_key ? "tab " : "grid ") + "gets only " +
                                std::to_string(int(key.x)) + "x" + std::to_string(int(key.y)) +
                                " px, less than a third of the window");
            if (text.y * 5 < float(h))
              clipped.push_back("the step text gets only " + std::to_string(int(text.y)) + " px");
            cut += clipped.size();
            const std::string where =
                l->id + (v.step > 0 ? " step " + std::to_string(v.step + 1) : "") +
                (v.exercise.empty() ? "" : ", exercise " + v.exercise) + " at " +
                std::to_string(w) + "x" + std::to_string(h) +
                (presentation ? ", presentation" : "") + (v.asking ? ", asking its question" : "");
            if (o->json)
              report.push_back({{"lesson", l->id},
                                {"step", v.step + 1},
                                {"exercise", v.exercise},
                                {"width", w},
                                {"height", h},
                                {"presentation", presentation},
                                {"asking", v.asking},
                                {"clipped", clipped}});
            else
              for (const std::string& c : clipped) std::cout << where << ": " << c << "\n";
          }
      }
    }
    if (o->json) std::cout << report.dump(2) << "\n";
    else std::cout << cut << " cut-off panels\n";
    state.exit_code = cut == 0 ? 0 : 1;
  });
}

void register_gui(CLI::App& app, CliState& state) {
  register_layout_check(app, state);
  auto gui = std::make_shared<GuiOptions>();
  auto* g = app.add_subcommand("gui", "Open the desktop app (the default when a display exists)");
  add_common(g, *gui);
  g->add_option("--script", gui->script,
                "Run a walkthrough script in the window (see app/gui/script.hpp)");
  g->add_option("--settings", gui->settings,
                "Settings file (default: " + default_settings_path() + ")");
  g->add_option("--pack", gui->pack,
                "Open a class pack at its first item (a teacher's lessons, exercises and "
                "questions in order; see `coopviz pack check`)");
  g->add_option("--progress", gui->progress,
                "Exercise progress file (default: " + default_progress_path() + ")");
  g->add_option("program", gui->program,
                "Your own CUDA program (FILE.cu): run on the emulator, then shown; or a lesson "
                "folder (lesson.json, lesson.md and its program), opened as a lesson");
  // One value an occurrence, as nvcc takes them: `-I common prog.cu` names the program after.
  g->add_option("-I", gui->includes, "The program's include folder (repeatable)")
      ->allow_extra_args(false);
  g->add_option("-D", gui->defines, "The program's macro NAME or NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
  g->add_option("--launch", gui->launches,
                "The program's kernel run with another grid and block: KERNEL=GRID/BLOCK "
                "(see `coopviz run --help`; the Launch panel changes it too)");
  g->callback([gui, &state] {
    // A lesson folder anywhere (`coopviz gui PATH/TO/FOLDER`) opens as --lesson would.
    if (std::error_code ec; !gui->program.empty() && std::filesystem::is_directory(gui->program, ec)) {
      if (!gui->lesson.empty())
        return void(state.exit_code = usage_error("give a lesson folder or --lesson, not both"));
      gui->lesson = std::exchange(gui->program, std::string());
    }
    if (Result<std::string> id = lesson_argument(gui->lesson); !id)
      return void(state.exit_code = usage_error(id.message()));
    else
      gui->lesson = *id;
    if (!gui->program.empty() && !is_program_path(gui->program))
      return void(state.exit_code = usage_error(
                      "unexpected argument '" + gui->program +
                      "': `coopviz gui` takes a program file (FILE.cu); a lesson is --lesson " +
                      gui->program));
    if (!gui->pack.empty() &&
        (!gui->program.empty() || !gui->trace.empty() || !gui->lesson.empty()))
      return void(state.exit_code = usage_error(
                      "give --pack or a lesson, trace or program, not both (the pack chooses "
                      "its lessons)"));
    std::string printed;   // what the program printed in its first run
    std::string compiler;  // the compiler's output when its first build failed
    std::string program_trace;
    if (!gui->program.empty()) {
      if (!gui->trace.empty() || !gui->lesson.empty())
        return void(state.exit_code =
                        usage_error("give a program file, --lesson or --trace, one of them"));
      // The program runs first; the window replays its launches and shows what it printed
      // (said in the terminal too, for those who start it from one). A first build that fails
      // opens the window on its errors too: a desktop user has no terminal to read them in.
      RunProgramOptions p;
      p.file = gui->program;
      p.includes = gui->includes;
      p.defines = gui->defines;
      p.launches = gui->launches;
      Result<BackendRequest> backend = parse_backend_request(gui->backend);
      if (!backend) return void(state.exit_code = usage_error(backend.message()));
      p.backend = *backend;
      p.emu = gui->emu;
      p.trace_path = (std::filesystem::temp_directory_path() /
                      ("coopviz-" + std::to_string(getpid()) + ".cvt"))
                         .string();
      p.output = &printed;
      p.compiler_output = &compiler;
      bool ran = false;
      const int rc = run_program_command(p, &ran);
      std::cout << printed << std::flush;
      if (!ran && compiler.empty()) return void(state.exit_code = rc);
      program_trace = p.trace_path;
      if (ran) gui->trace = program_trace;
    }
    // Settings: the layout always; the last lesson and step when none is asked for.
    const std::string settings_path =
        gui->settings.empty() ? default_settings_path() : gui->settings;
    Result<GuiSettings> saved = load_settings(settings_path);
    if (!saved) std::cerr << "coopviz: note: " << saved.message() << "\n";
    const GuiSettings settings = saved ? *saved : GuiSettings{};
    std::vector<ScriptCommand> script;
    if (!gui->script.empty()) {
      Result<std::string> text = read_user_file(gui->script, kTextFileLimit);
      if (!text) return void(state.exit_code = usage_error("--script: " + text.message()));
      Result<std::vector<ScriptCommand>> parsed = parse_script(*text);
      if (!parsed) return void(state.exit_code = usage_error(parsed.message()));
      script = std::move(*parsed);
    }
    GuiApp app;
    app.restore(settings);
    // A script shows the steps themselves unless it asks for their questions (`questions on`):
    // what it sees does not hang on the user's remembered switch.
    if (!script.empty()) app.questions.enabled = false;
    GuiOptions options = *gui;
    const bool remembered_view = options.lesson.empty() && options.trace.empty() &&
                                 options.program.empty() && options.pack.empty();
    if (remembered_view && lessons::find_lesson(settings.lesson)) {
      options.lesson = settings.lesson;
      if (options.step.empty()) options.step = std::to_string(settings.step + 1);
    }
    if (Status s = prepare(app, options); !s) {
      // A remembered step the lesson no longer has is not the user's error.
      if (gui->step.empty() && !options.step.empty()) {
        options.step.clear();
        if (Status again = prepare(app, options); !again)
          return void(state.exit_code = usage_error(again.message()));
      } else {
        return void(state.exit_code = usage_error(s.message()));
      }
    }
    if (!gui->program.empty()) {
      std::filesystem::remove(program_trace);  // read in: no longer needed
      // Saving the file reruns it; its launches then replace these.
      ProgramOptions watched;
      watched.file = gui->program;
      watched.includes = gui->includes;
      watched.defines = gui->defines;
      for (const std::string& text : gui->launches)  // checked by the first run
        if (Result<LaunchOverride> l = parse_launch_override(text))
          watched.launch_overrides.push_back(*l);
      watched.trace_out = program_trace;
      if (Result<Schedule> schedule = parse_schedule(gui->emu.schedule, "--schedule"))
        watched.schedule = *schedule;  // checked by the first run
      watched.seed = gui->emu.seed;
      // As the first run: the GPU if there is one and the emulator was not asked for.
      if (app.backend != BackendRequest::Emu) watched.gpu_arch = local_gpu_arch();
      app.open_program(std::move(watched), std::move(printed), std::move(compiler));
    }
    if (!gui->pack.empty()) {
      if (Status s = open_pack(app, gui->pack, 0, true, 0); !s)
        return void(state.exit_code = usage_errors(s.message()));
    } else if (remembered_view && !settings.pack.empty()) {
      // The pack open last time, at its item, around the lesson and step remembered.
      if (Status s = open_pack(app, settings.pack, settings.pack_item, false, 0); !s)
        std::cerr << "coopviz: note: the class pack open last time is not reopened: " << s.message()
                  << "\n";
    }
    if (gui->presentation) app.presentation = true;
    Result<std::unique_ptr<GuiWindow>> window =
        GuiWindow::open({.width = settings.window_width, .height = settings.window_height});
    if (!window) return void(state.exit_code = usage_error(window.message()));
    // Scripts leave the user's settings alone unless given a settings file of their own.
    if (gui->script.empty() || !gui->settings.empty()) {
      app.settings_path = settings_path;
      app.saved_settings = settings;
      // The score of the questions, in its own file beside the settings.
      if (!settings_path.empty()) load_question_score(app, score_path_beside(settings_path));
    }
    // Likewise the exercise progress: a script's checks count only in a file it names.
    if (!gui->progress.empty())
      app.progress_path = gui->progress;
    else if (gui->script.empty())
      app.progress_path = default_progress_path();
    ScriptRunner runner(std::move(script), **window);
    (*window)->run(app, [&](GuiApp& a, double now) { return runner.step(a, now); });
    if (runner.failed()) return void(state.exit_code = 1);
    app.window_width = (*window)->width();
    app.window_height = (*window)->height();
    app.keep_settings(1e9, true);
    if (!app.settings_error.empty()) std::cerr << "coopviz: note: " << app.settings_error << "\n";
    state.exit_code = 0;
  });

  auto shot = std::make_shared<GuiOptions>();
  auto* s = app.add_subcommand("screenshot", "Render the app offscreen and save a PNG");
  add_common(s, *shot);
  s->add_option("--out", shot->out, "PNG file to write")->required();
  s->add_option("--size", shot->size, "Image size WIDTHxHEIGHT")->capture_default_str();
  s->add_option("--scale", shot->scale,
                "HiDPI scale of fonts and sizes (1 to 3), as on a 2x screen")
      ->capture_default_str();
  s->callback([shot, &state] {
    // Validate what needs no display before opening one.
    Result<std::pair<int, int>> size = parse_size(shot->size, kMaxImage);
    if (!size) return void(state.exit_code = usage_error(size.message()));
    if (!(shot->scale >= 1 && shot->scale <= 3))
      return void(state.exit_code = usage_error("--scale " + std::to_string(shot->scale) +
                                                " must be between 1 and 3"));
    GuiApp app;
    app.questions.enabled = false;  // a screenshot shows what the step shows, not its question
    if (Status st = prepare(app, *shot); !st)
      return void(state.exit_code = usage_error(st.message()));
    Result<std::unique_ptr<GuiWindow>> window =
        GuiWindow::open({.width = 320, .height = 240, .visible = false});
    if (!window) return void(state.exit_code = usage_error(window.message()));
    if (size->first > (*window)->max_image_size() || size->second > (*window)->max_image_size())
      return void(state.exit_code =
                      usage_error("--size " + shot->size + ": this OpenGL renders at most " +
                                  std::to_string((*window)->max_image_size()) + " pixels a side"));
    app.ui_scale = shot->scale;
    if (!app.wait_for_runs(kRunTimeout)) {
      std::cerr << "coopviz: error: the lesson run took longer than " << kRunTimeout << " s\n";
      return void(state.exit_code = 1);
    }
    if (app.outcome && !app.outcome->run.status.ok())
      std::cerr << "coopviz: note: the run failed (the image shows why): "
                << app.outcome->run.status.message() << "\n";
    if (Status st = (*window)->capture(app, size->first, size->second, shot->frames, shot->out);
        !st) {
      std::cerr << "coopviz: error: " << st.message() << "\n";
      return void(state.exit_code = 1);
    }
    std::cout << "wrote " << shot->out << " (" << size->first << "x" << size->second << ")\n";
    state.exit_code = 0;
  });
}

}  // namespace coop::app
