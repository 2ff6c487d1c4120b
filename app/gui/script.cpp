#include "app/gui/script.hpp"

#include <iostream>
#include <map>
#include <sstream>

#include <imgui.h>

#include "app/gui/exercise_tab.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/tab_benchmark.hpp"
#include "app/gui/tab_memory.hpp"
#include "app/gui/window.hpp"
#include "visual/playback.hpp"

namespace coop::app {
namespace {

struct Arity {
  size_t min, max;
};

const std::map<std::string, Arity>& verbs() {
  static const std::map<std::string, Arity> v = {
      {"lesson", {1, 1}},     {"step", {1, 1}},         {"grid", {1, 1}},
      {"block", {1, 1}},      {"param", {1, 1}},        {"backend", {1, 1}},
      {"seed", {1, 1}},       {"wait", {0, 1}},         {"next-event", {0, 1}},
      {"prev-event", {0, 1}}, {"next-phase", {0, 1}},   {"prev-phase", {0, 1}},
      {"start", {0, 0}},      {"end", {0, 0}},          {"seek", {1, 1}},
      {"tab", {1, 1}},        {"presentation", {1, 1}}, {"demo", {1, 1}},
      {"memory", {1, 1}},     {"screenshot", {1, 2}},   {"expect", {2, 2}},
      {"print", {0, 0}},      {"quit", {0, 0}},         {"capacity", {1, 1}},
      {"recover", {1, 2}},    {"export", {1, 1}},       {"popout", {1, 1}},
      {"bench", {1, 2}},      {"request", {1, 1}},      {"races", {1, 1}},
      {"schedule", {1, 1}},   {"pack", {1, 2}},       {"exercise", {1, 4}},
      {"answer", {1, 16}},    {"skip", {0, 0}},       {"questions", {1, 1}},
      {"type", {1, 16}},      {"press", {1, 1}},      {"program", {0, 0}}};
  return v;
}

Result<int64_t> count_arg(const ScriptCommand& c, size_t i, int64_t fallback) {
  if (i >= c.args.size()) return fallback;
  Result<uint64_t> n = parse_count(c.args[i], c.verb, uint64_t(1) << 40);
  if (!n) return n.status();
  return int64_t(*n);
}

Result<ResultTab> tab_arg(const std::string& name) {
  if (std::optional<ResultTab> tab = tab_named(name)) return *tab;
  return Status::error("tab '" + name + "': choose " + tab_names());
}

// The Exercise tab's buttons: `exercise ID`, `exercise start DIR [keep|overwrite] [editor]`
// (Start with DIR as the folder; the editor is opened only when the script says `editor`), `exercise check FILE` (the commands after it wait
// for the verdict), `exercise hint`, `exercise solution [confirm]` and `exercise failing` (Watch
// the failing run).
Status exercise_command(const ScriptCommand& c, GuiApp& app, double now) {
  const std::string& a0 = c.args[0];
  const std::string a1 = c.args.size() > 1 ? c.args[1] : "";
  ExerciseTabState& x = exercise_tab(app);
  const bool chosen = x.exercise() != nullptr;
  if (a0 != "start" && a0 != "check" && a0 != "hint" && a0 != "solution" && a0 != "failing")
    return app.open_exercise(a0, now);
  if (!chosen) return Status::error("exercise " + a0 + ": open an exercise first (exercise ID)");
  if (a0 == "start") {
    if (a1.empty()) return Status::error("exercise start takes a folder: exercise start DIR");
    const bool editor = c.args.back() == "editor" && c.args.size() > 2;
    const size_t words = c.args.size() - (editor ? 1 : 0);
    const std::string answer = words > 2 ? c.args[2] : "ask";
    using Answer = ExerciseTabState::StartAnswer;
    if (words > 3 || (answer != "ask" && answer != "keep" && answer != "overwrite"))
      return Status::error(
          "exercise start DIR takes keep or overwrite after the folder, then editor");
    app.exercise_folder = a1;
    const Status s = x.start(a1,
                             answer == "keep"        ? Answer::Keep
                             : answer == "overwrite" ? Answer::Overwrite
                                                     : Answer::Ask,
                             editor);
    std::cout << "script: " << (s ? x.message : s.message()) << "\n";
  } else if (a0 == "check") {
    if (a1.empty()) return Status::error("exercise check takes the file: exercise check FILE");
    if (!x.check(a1, app.progress_path)) return Status::error("a check is already running");
  } else if (a0 == "hint") {
    x.show_next_hint();
  } else if (a0 == "solution") {
    x.ask_solution();
    if (a1 == "confirm") return x.confirm_solution(app.progress_path);
    if (!a1.empty()) return Status::error("exercise solution takes nothing or confirm");
  } else {
    std::optional<FailingRun> run = x.failing_run();
    if (!run) return Status::error("the last check has no failing run to show");
    return show_failing_run(app, *run);
  }
  app.tab_request = ResultTab::Exercise;
  return {};
}

}  // namespace

Result<std::vector<ScriptCommand>> parse_script(const std::string& text) {
  std::vector<ScriptCommand> out;
  std::istringstream in(text);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::istringstream words(raw);
    ScriptCommand c;
    c.line = line;
    if (!(words >> c.verb) || c.verb[0] == '#') continue;
    for (std::string w; words >> w;) c.args.push_back(w);
    auto it = verbs().find(c.verb);
    if (it == verbs().end())
      return Status::error("script line " + std::to_string(line) + ": unknown command '" + c.verb +
                           "'");
    if (c.args.size() < it->second.min || c.args.size() > it->second.max)
      return Status::error(
          "script line " + std::to_string(line) + ": '" + c.verb + "' takes " +
          std::to_string(it->second.min) +
          (it->second.max != it->second.min ? " to " + std::to_string(it->second.max) : "") +
          " argument(s), got " + std::to_string(c.args.size()));
    out.push_back(std::move(c));
  }
  return out;
}

bool ScriptRunner::step(GuiApp& app, double now) {
  ImGuiIO& io = ImGui::GetIO();
  if (enter_down_) {  // a key pressed by `press` is released after one frame, as a finger would
    io.KeysDown[io.KeyMap[ImGuiKey_Enter]] = false;
    enter_down_ = false;
  }
  if (saves_seen_ >= 0) {  // `wait saved`: until the program's next rerun lands
    if (app.program.runs > saves_seen_) {
      saves_seen_ = -1;
    } else if (now > wait_until_) {
      error_ = "wait saved: the program was not saved and run again within " +
               std::to_string(int(kSaveWait)) + " s";
    } else {
      return true;
    }
  }
  if (frames_to_wait_ > 0) {  // let the window act on the last command (an export)
    --frames_to_wait_;
    return true;
  }
  if (!typing_.empty()) {  // the focused field takes the keys of `type` in the next frame
    for (const char ch : typing_) io.AddInputCharacter(static_cast<unsigned char>(ch));
    typing_.clear();
    frames_to_wait_ = 1;
    return true;
  }
  while (next_ < commands_.size() && !quit_ && error_.empty() && frames_to_wait_ == 0 &&
         saves_seen_ < 0) {
    const ScriptCommand& c = commands_[next_];
    // Everything except editing waits for the lesson to finish re-running, as a user would.
    const bool edit = c.verb == "grid" || c.verb == "block" || c.verb == "param" ||
                      c.verb == "backend" || c.verb == "seed" || c.verb == "memory" ||
                      c.verb == "races" || c.verb == "schedule";
    if (!edit) {
      if (app.run_due >= 0) app.run_now();
      if (app.runner.busy() || app.program_running()) return true;  // next frame
      if (app.exercise && app.exercise->runner.running()) return true;  // a check in progress
      app.update(now, 0);                  // pick up the finished run
    }
    std::cout << "script: line " << c.line << ": " << c.verb;
    for (const std::string& a : c.args) std::cout << " " << a;
    std::cout << "\n";
    if (Status s = execute(c, app, now); !s)
      error_ = "script line " + std::to_string(c.line) + ": " + s.message();
    ++next_;
  }
  if (!error_.empty()) {
    // One line each, as every command says its errors: a lesson's mistakes are several.
    std::istringstream lines(reported_ ? std::string() : error_);
    for (std::string line; std::getline(lines, line);)
      std::cerr << "coopviz: error: " << line << "\n";
    reported_ = true;
    return false;
  }
  return !quit_;  // after the last command the window stays open for the user
}

void ScriptRunner::io_press_enter() {
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[io.KeyMap[ImGuiKey_Enter]] = true;
  enter_down_ = true;
  frames_to_wait_ = 1;
}

Status ScriptRunner::execute(const ScriptCommand& c, GuiApp& app, double now) {
  const std::string& a0 = c.args.empty() ? std::string() : c.args[0];
  const visual::TimelineModel* m = app.model();
  auto need_model = [&]() -> Status {
    return m ? Status() : Status::error("no trace to play (the run failed or none ran yet)");
  };
  if (c.verb == "lesson") {
    const lessons::LessonDef* l = lessons::find_lesson(a0);
    if (!l)
      return Status::error("unknown lesson '" + a0 + "': known lessons are " +
                           lessons::lesson_ids());
    app.select_lesson(int(l - lessons::registry().data()), now);
    // The window shows the lesson and its mistakes; a script cannot go on as if it had none.
    if (!app.lesson_errors.empty())
      return Status::error("lesson " + a0 + ": its lesson.md has mistakes\n" + app.lesson_errors);
  } else if (c.verb == "step") {
    Result<int64_t> n = count_arg(c, 0, 1);
    if (!n) return n.status();
    if (Status s = app.has_step(*n); !s) return Status::error("step " + a0 + ": " + s.message());
    app.select_step(int(*n - 1), now);
  } else if (c.verb == "grid" || c.verb == "block" || c.verb == "param" || c.verb == "seed" ||
             c.verb == "capacity") {
    // Typed into the Launch panel's field: a refused value leaves its message there, not an
    // error of the script (scripts check it with `expect field-error`).
    std::string field = c.verb, text = a0;
    if (c.verb == "param") {
      const size_t eq = a0.find('=');
      if (eq == std::string::npos) return Status::error("param takes NAME=VALUE");
      field = "param:" + a0.substr(0, eq);
      text = a0.substr(eq + 1);
    }
    if (Status s = app.type_into(field, text, now); !s)
      std::cout << "script: launch panel refuses " << field << ": " << s.message() << "\n";
  } else if (c.verb == "backend") {
    Result<BackendRequest> request = parse_backend_request(a0, "backend");
    if (!request) return request.status();
    app.backend = *request;
    app.config_edited(now);
  } else if (c.verb == "schedule") {
    Result<Schedule> schedule = parse_schedule(a0, "schedule");
    if (!schedule) return schedule.status();
    app.schedule = *schedule;
    app.config_edited(now);
  } else if (c.verb == "next-event" || c.verb == "prev-event" || c.verb == "next-phase" ||
             c.verb == "prev-phase") {
    if (Status s = need_model(); !s) return s;
    Result<int64_t> n = count_arg(c, 0, 1);
    if (!n) return n.status();
    const int64_t sign = c.verb.starts_with("next") ? 1 : -1;
    if (c.verb.ends_with("event"))
      visual::step_events(app.playback, *m, sign * *n);
    else
      visual::step_phases(app.playback, *m, int(sign * *n));
  } else if (c.verb == "start" || c.verb == "end" || c.verb == "seek") {
    if (Status s = need_model(); !s) return s;
    Result<int64_t> n = count_arg(c, 0, 0);
    if (!n) return n.status();
    visual::seek(app.playback, *m,
                 c.verb == "start" ? 0
                 : c.verb == "end" ? m->size()
                                   : size_t(*n));
  } else if (c.verb == "tab" || c.verb == "popout") {
    Result<ResultTab> tab = tab_arg(a0);
    if (!tab) return tab.status();
    if (c.verb == "popout")
      app.popped_out[int(*tab)] = true;
    else
      app.tab_request = *tab;
  } else if (c.verb == "recover") {
    // The buttons offered when the GPU could not run the lesson.
    if (a0 == "emulator") {
      app.run_on_emulator();
    } else if (a0 == "trace") {
      const std::string path = c.args.size() > 1 ? c.args[1] : app.recorded_trace();
      if (path.empty()) return Status::error("no recorded trace for this lesson: give a file");
      app.open_recorded(path);
      if (!app.trace_error.empty()) std::cout << "script: " << app.trace_error << "\n";
    } else {
      return Status::error("recover takes emulator or trace [FILE]");
    }
  } else if (c.verb == "bench") {
    // The Benchmark tab's "Open" field and its "Show the measurement" button.
    if (!app.bench) app.bench = std::make_shared<BenchmarkTabState>();
    if (a0 == "open" && c.args.size() == 2) {
      if (Status s = app.bench->open(c.args[1]); !s) return s;
    } else if (a0 == "reveal") {
      if (!app.bench->measured) return Status::error("no measured sweep to show");
      if (app.bench->guess < 0) app.bench->guess = 0;
      app.bench->revealed = true;
    } else {
      return Status::error("bench takes open FILE or reveal");
    }
  } else if (c.verb == "request") {
    // The Memory tab's one-request view: its arrows (next, prev) or request N of the access.
    if (Status s = need_model(); !s) return s;
    visual::RequestBrowser& b = *request_browser(app);
    if (b.site < 0) return Status::error("this launch recorded no loads or stores");
    if (a0 == "next" || a0 == "prev") {
      b.step(a0 == "next" ? 1 : -1);
    } else {
      Result<int64_t> n = count_arg(c, 0, 1);
      if (!n) return n.status();
      const size_t count = b.sites[size_t(b.site)].requests.size();
      if (*n < 1 || size_t(*n) > count)
        return Status::error("request " + a0 + ": this access has requests 1 to " +
                             std::to_string(count));
      b.index = size_t(*n - 1);
    }
  } else if (c.verb == "exercise") {
    if (Status s = exercise_command(c, app, now); !s) return s;
  } else if (c.verb == "export") {
    app.export_dir = a0;  // the window writes the PNG after the next frame
    app.export_requested = 1;
    frames_to_wait_ = 1;
  } else if (c.verb == "pack") {
    return run_pack_command(app, c.args, now);
  } else if (c.verb == "presentation") {
    if (a0 != "on" && a0 != "off") return Status::error("presentation takes on or off");
    app.presentation = a0 == "on";
  } else if (c.verb == "memory") {
    if (a0 != "on" && a0 != "off") return Status::error("memory takes on or off");
    app.record_memory = a0 == "on";
    app.config_edited(now);
  } else if (c.verb == "races") {
    if (a0 != "on" && a0 != "off") return Status::error("races takes on or off");
    app.find_races = a0 == "on";
    app.config_edited(now);
  } else if (c.verb == "answer") {
    std::string typed;  // the words as typed: "shared memory"
    for (const std::string& a : c.args) typed += (typed.empty() ? "" : " ") + a;
    if (Status s = answer_question(app, typed); !s) return s;
    std::cout << "script: " << app.questions.said.back().line << "\n";
  } else if (c.verb == "type") {
    // Keys into the answer field, as a student types them: they add to what the field holds.
    if (!app.questions.asking()) return Status::error("no question is being asked");
    for (const std::string& a : c.args) typing_ += (typing_.empty() ? "" : " ") + a;
    app.questions.focus_field = true;  // the field takes the focus, then the keys
    frames_to_wait_ = 2;
  } else if (c.verb == "press") {
    if (a0 != "enter") return Status::error("press takes enter");
    io_press_enter();
  } else if (c.verb == "skip") {
    if (!app.questions.asking()) return Status::error("no question is being asked");
    skip_question(app);
  } else if (c.verb == "questions") {
    if (a0 != "on" && a0 != "off") return Status::error("questions takes on or off");
    set_questions_enabled(app, a0 == "on");
  } else if (c.verb == "demo") {
    if (a0 != "on" && a0 != "off") return Status::error("demo takes on or off");
    app.show_demo = a0 == "on";
  } else if (c.verb == "screenshot") {
    int w = 1280, h = 800;
    if (c.args.size() > 1 && std::sscanf(c.args[1].c_str(), "%dx%d", &w, &h) != 2)
      return Status::error("size '" + c.args[1] + "' is not WIDTHxHEIGHT");
    if (w < 200 || h < 200 || w > 8192 || h > 8192)
      return Status::error("size " + c.args[1] + ": each side must be between 200 and 8192");
    if (m) app.snapshot.update(*m, app.playback.cursor);
    if (Status s = window_.capture(app, w, h, 3, a0); !s) return s;
    std::cout << "script: wrote " << a0 << "\n";
  } else if (c.verb == "expect") {
    return expect_command(c.args, app);
  } else if (c.verb == "print") {
    std::cout << "script: " << status_line(app) << "\n";
  } else if (c.verb == "wait" && !c.args.empty()) {
    if (a0 != "saved") return Status::error("wait takes nothing, or saved");
    if (app.program.file.empty()) return Status::error("wait saved: no program is open");
    saves_seen_ = app.program.runs;
    wait_until_ = now + kSaveWait;
  } else if (c.verb == "program") {
    if (app.program.file.empty()) return Status::error("program: no program was opened");
    app.show_program();
  } else if (c.verb == "quit") {
    quit_ = true;
  }
  return {};
}

}  // namespace coop::app
