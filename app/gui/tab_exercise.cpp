// [SECTION] The Exercise tab, offered with a lesson that has exercises (lessons/<folder>/
// exercises/): the spec and the student's progress, Start (the starter in their own editor),
// Check (the hidden cases on a worker thread, with progress), the verdict case by case with the
// failing run to watch, hints one at a time, and the solution behind a confirmation. What the
// buttons do is app/gui/exercise_tab.cpp; this file only draws.
#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>

#include "app/gui/exercise_tab.hpp"
#include "app/gui/panels.hpp"
#include "visual/views/code_view.hpp"
#include "visual/views/markdown_view.hpp"
#include "visual/views/style.hpp"
#include "visual/views/text_field.hpp"

namespace coop::app {
namespace {

constexpr const char* kConfirmSolution = "Show the solution?";
constexpr const char* kConfirmOverwrite = "Replace your file?";

// Scrolls the tab to what is drawn next when it is what the student just asked for.
void bring_into_view(ExerciseTabState& x, ExerciseTabState::Newest what) {
  if (x.newest != what) return;
  ImGui::SetScrollHereY(0.0f);
  x.newest = ExerciseTabState::Newest::None;
}

void colored_wrapped(ImU32 color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color));
  visual::text_wrapped(text);
  ImGui::PopStyleColor();
}

// The lesson's exercises to choose from (when it has several), the title and the progress.
void draw_heading(GuiApp& app, ExerciseTabState& x) {
  const visual::ViewStyle& st = visual::view_style();
  const lessons::LessonDef* l = app.lesson_def();
  const std::vector<const Exercise*> here = l ? x.of_lesson(l->id) : std::vector<const Exercise*>{};
  if (here.size() > 1) {
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 20));
    ImGui::BeginDisabled(x.runner.running());
    if (ImGui::BeginCombo("##exercise", x.exercise()->title.c_str())) {
      for (const Exercise* e : here)
        if (ImGui::Selectable(e->title.c_str(), e->id == x.id))
          if (Status s = x.choose(e->id, app.progress_path); !s) app.say(s.message(), true);
      ImGui::EndCombo();
    }
    ImGui::EndDisabled();
  }
  visual::push_font(st.fonts.heading);
  visual::text_wrapped(x.exercise()->title);
  visual::pop_font(st.fonts.heading);
  const ExerciseProgress& p = x.progress;
  colored_wrapped(p.solved ? st.colors.ok : st.colors.dim_text, progress_words(p));
  if (!x.progress_error.empty()) colored_wrapped(st.colors.warning, x.progress_error);
  if (!app.lesson_def() && app.replay) {
    // The student's failing run is shown: one click back to the exercise's lesson.
    if (const lessons::LessonDef* own = lessons::find_lesson(x.exercise()->lesson);
        own && ImGui::Button("Back to the lesson"))
      app.select_lesson(int(own - lessons::registry().data()), ImGui::GetTime());
  }
}

// A row of the tab: `label` (in a column as wide as the widest label), a text field taking what
// the row leaves, and `button` at its end. True when the button was pressed.
bool field_row(const char* label, visual::FieldText& field, const std::string& shown,
               const std::function<Status(std::string_view)>& commit, const char* button,
               bool enabled) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float column = std::max(ImGui::CalcTextSize("Folder").x, ImGui::CalcTextSize("File").x) +
                       style.ItemSpacing.x;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(column);
  const float button_w =
      ImGui::CalcTextSize(button, nullptr, true).x + style.FramePadding.x * 2 + style.ItemSpacing.x;
  ImGui::SetNextItemWidth(
      std::max(ImGui::GetFontSize() * 6, ImGui::GetContentRegionAvail().x - button_w));
  ImGui::PushID(label);
  visual::text_field("##field", field, shown, commit);
  ImGui::PopID();
  ImGui::SameLine();
  ImGui::BeginDisabled(!enabled);
  const bool pressed = ImGui::Button(button);
  ImGui::EndDisabled();
  return pressed;
}

// Start: the folder, the button, the file written with Copy, and the answer to an existing file.
void draw_start(GuiApp& app, ExerciseTabState& x) {
  const visual::ViewStyle& st = visual::view_style();
  static visual::FieldText folder;
  const auto take_folder = [&](std::string_view text) {
    if (text.empty()) return Status::error("give a folder (it is made if need be)");
    // Remembered as the folder above the exercise's own.
    const std::filesystem::path typed(text);
    app.exercise_folder =
        typed.filename() == x.id ? typed.parent_path().string() : std::string(text);
    return Status();
  };
  if (field_row("Folder", folder, x.start_folder(app.exercise_folder), take_folder, "Start", true))
    (void)x.start(app.exercise_folder, ExerciseTabState::StartAnswer::Ask);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Write the starter file into the folder and open it in your editor");
  if (x.overwrite_asked) ImGui::OpenPopup(kConfirmOverwrite);
  if (ImGui::BeginPopupModal(kConfirmOverwrite, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    if (!x.overwrite_asked) ImGui::CloseCurrentPopup();  // answered elsewhere (a script)
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::TextUnformatted(("There is already a starter.cu in " +
                            x.start_folder(app.exercise_folder) +
                            ". Replacing it loses what you wrote there.")
                               .c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Keep mine and open it")) {
      (void)x.start(app.exercise_folder, ExerciseTabState::StartAnswer::Keep);
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Replace it with the starter")) {
      (void)x.start(app.exercise_folder, ExerciseTabState::StartAnswer::Overwrite);
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
      x.overwrite_asked = false;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  if (!x.message.empty())
    colored_wrapped(x.message_is_error ? st.colors.warning : st.colors.dim_text, x.message);
  if (!x.started_file.empty()) {
    visual::push_font(st.fonts.mono);
    visual::text_wrapped(x.started_file);
    visual::pop_font(st.fonts.mono);
    if (ImGui::Button("Copy path")) ImGui::SetClipboardText(x.started_file.c_str());
    visual::same_line_if_room("Open in editor");
    if (ImGui::Button("Open in editor"))
      (void)x.start(app.exercise_folder, ExerciseTabState::StartAnswer::Keep);
  }
}

// Check: the file to check (the started one or any other), the button, the progress bar.
void draw_check(GuiApp& app, ExerciseTabState& x) {
  const visual::ViewStyle& st = visual::view_style();
  static visual::FieldText file;
  const auto take_file = [&](std::string_view text) {
    x.check_file = std::string(text);
    return Status();
  };
  if (field_row("File", file, x.check_file, take_file, "Check##run",
                !x.runner.running() && !x.check_file.empty()))
    x.check(x.check_file, app.progress_path);
  const bool nothing_to_check = x.check_file.empty() && !file.editing;
  if (x.runner.running()) {
    const auto [fraction, stage] = x.runner.progress();
    ImGui::ProgressBar(float(fraction), ImVec2(-1, 0));
    visual::text_dim_wrapped(stage);
  }
  if (nothing_to_check)
    visual::text_dim_wrapped("Start writes your file here; or type the path of any .cu file.");
  if (!x.check_error.empty()) colored_wrapped(st.colors.error, x.check_error);
}

// One case: where it ran, its verdict, and for a failure what went wrong.
void draw_case(const CaseResult& c) {
  const visual::ViewStyle& st = visual::view_style();
  ImGui::TextColored(ImColor(c.passed ? st.colors.ok : st.colors.error),
                     c.passed ? "pass" : "FAIL");
  ImGui::SameLine(ImGui::CalcTextSize("FAIL ").x + ImGui::GetStyle().ItemSpacing.x);
  visual::text_wrapped(c.launch + ", input " + c.input + ", " + c.schedule + " schedule");
  if (c.passed) return;
  ImGui::Indent(ImGui::GetFontSize());
  if (c.index >= 0)
    visual::text_wrapped("output " + std::to_string(c.index) + " is " + c.got + ", want " + c.want);
  if (!c.problem.empty()) colored_wrapped(st.colors.warning, c.problem);
  ImGui::Unindent(ImGui::GetFontSize());
}

// The verdict of the last check: the compiler's words at the student's lines, or each case.
void draw_report(GuiApp& app, ExerciseTabState& x) {
  if (!x.report) return;
  const visual::ViewStyle& st = visual::view_style();
  const CheckReport& r = *x.report;
  ImGui::Separator();
  bring_into_view(x, ExerciseTabState::Newest::Verdict);
  if (!r.compiled) {
    colored_wrapped(st.colors.error, "Failed: " + r.file + " did not compile.");
    visual::push_font(st.fonts.mono);
    const std::vector<std::string> mine = lines_naming(r.compiler_output, r.file);
    for (const std::string& line : mine) colored_wrapped(st.colors.error, line);
    if (mine.empty()) visual::text_wrapped(r.compiler_output);
    visual::pop_font(st.fonts.mono);
    if (!mine.empty() && ImGui::TreeNode("All the compiler said")) {
      visual::push_font(st.fonts.mono);
      visual::text_wrapped(r.compiler_output);
      visual::pop_font(st.fonts.mono);
      ImGui::TreePop();
    }
    return;
  }
  const size_t failed = size_t(
      std::count_if(r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return !c.passed; }));
  colored_wrapped(r.passed() ? st.colors.ok : st.colors.error,
                  std::string(r.passed() ? "Passed" : "Failed") + ": " +
                      std::to_string(r.cases.size() - failed) + " of " +
                      std::to_string(r.cases.size()) + " hidden cases passed.");
  if (!r.problem.empty()) colored_wrapped(st.colors.warning, r.problem);
  if (std::optional<FailingRun> run = x.failing_run()) {
    if (!run->what.empty()) visual::text_wrapped("Where it first differs: " + run->what);
    if (ImGui::Button("Watch the failing run"))
      if (Status s = show_failing_run(app, *run); !s) app.say(s.message(), true);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "Open the run of the first failing case at the moment it departs from "
          "the reference, that thread selected");
  }
  constexpr size_t kShown = 8;  // the rest are alike: the first ones say what is wrong
  size_t shown = 0;
  for (const CaseResult& c : r.cases)
    if (!c.passed && shown++ < kShown) draw_case(c);
  if (failed > kShown)
    visual::text_dim_wrapped("... and " + std::to_string(failed - kShown) + " more failed cases");
  if (ImGui::TreeNode("cases", "Every case (%zu)", r.cases.size())) {
    for (const CaseResult& c : r.cases) draw_case(c);
    ImGui::TreePop();
  }
}

void draw_hints(ExerciseTabState& x) {
  const Exercise& e = *x.exercise();
  for (int i = 0; i < x.hints_shown; ++i) {
    if (i + 1 == x.hints_shown) bring_into_view(x, ExerciseTabState::Newest::Hint);
    ImGui::TextDisabled("Hint %d of %zu", i + 1, e.hints.size());
    visual::draw_markdown(visual::parse_markdown(e.hints[size_t(i)]));
  }
  if (x.hints_shown < int(e.hints.size())) {
    const std::string label = "Show hint " + std::to_string(x.hints_shown + 1);
    if (ImGui::Button(label.c_str())) x.show_next_hint();
    visual::same_line_if_room("Show solution...");
  }
}

void draw_solution(GuiApp& app, ExerciseTabState& x) {
  if (x.solution.empty()) {
    if (ImGui::Button("Show solution...")) x.ask_solution();
  }
  if (x.solution_asked) ImGui::OpenPopup(kConfirmSolution);
  if (ImGui::BeginPopupModal(kConfirmSolution, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    if (!x.solution_asked) ImGui::CloseCurrentPopup();  // answered elsewhere (a script)
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
    ImGui::TextUnformatted(
        "The reference solution is shown here, in the tab. Your progress will say that you have "
        "seen it. Try the hints first?");
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Show it")) {
      if (Status s = x.confirm_solution(app.progress_path); !s) app.say(s.message(), true);
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Not now")) {
      x.solution_asked = false;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  if (x.solution.empty()) return;
  ImGui::Separator();
  bring_into_view(x, ExerciseTabState::Newest::Solution);
  ImGui::TextDisabled("The reference solution (read-only)");
  static visual::CodeViewSettings view;
  view.follow = false;
  visual::CodeViewInput in;
  in.source = x.solution;
  const float lines = float(std::count(x.solution.begin(), x.solution.end(), '\n') + 1);
  visual::draw_code_view("solution", in, view, lines * ImGui::GetTextLineHeightWithSpacing());
}

void draw_exercise_tab(GuiApp& app) {
  ExerciseTabState& x = exercise_tab(app);
  x.load();
  if (const lessons::LessonDef* l = app.lesson_def()) {
    // The lesson shown decides, unless the exercise is already one of its own.
    const std::vector<const Exercise*> here = x.of_lesson(l->id);
    if (!here.empty() && !x.runner.running() &&
        std::none_of(here.begin(), here.end(), [&](const Exercise* e) { return e->id == x.id; }))
      (void)x.choose(here.front()->id, app.progress_path);
  }
  if (!x.exercise()) {
    visual::text_dim_wrapped(x.list_error.empty() ? "This lesson has no exercise." : x.list_error);
    return;
  }
  ImGui::BeginChild("exercise", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  draw_heading(app, x);
  ImGui::Spacing();
  visual::draw_markdown(x.spec);
  ImGui::Spacing();
  ImGui::Separator();
  draw_start(app, x);
  draw_check(app, x);
  draw_report(app, x);
  ImGui::Separator();
  draw_hints(x);
  draw_solution(app, x);
  ImGui::EndChild();
}

// A lesson with exercises, or an exercise's failing run shown in place of its lesson.
bool has_exercise(GuiApp& app) {
  ExerciseTabState& x = exercise_tab(app);
  x.load();
  if (const lessons::LessonDef* l = app.lesson_def()) return !x.of_lesson(l->id).empty();
  return app.replay && x.exercise();
}

}  // namespace

extern const TabView kExerciseTab = {draw_exercise_tab, 0, has_exercise};

}  // namespace coop::app
