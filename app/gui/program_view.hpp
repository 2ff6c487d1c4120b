// A user's own program in the window (coopviz gui FILE.cu), as first-class as a lesson: kept
// live (rebuilt and rerun when saved, ProgramWatcher), with what it printed, the errors of a save
// that did not compile, and its recording switches. A lesson may be shown meanwhile: then the
// program's launches, Launch fields and switches wait here, untouched by the lesson, and come
// back when the program is picked again. The functions that change it are GuiApp's
// (gui_app.hpp), defined in program_view.cpp.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/tabs.hpp"
#include "app/program/compile_errors.hpp"
#include "app/program/watcher.hpp"
#include "visual/field_text.hpp"
#include "visual/selection.hpp"
#include "visual/timeline_model.hpp"

namespace coop::app {

struct GuiApp;

struct ProgramView {
  std::string file;  // as the user named it; "" when no program was opened
  std::unique_ptr<ProgramWatcher> watcher;
  bool shown = false;  // the window shows the program (else a lesson, the program aside)
  // What the program printed in its latest run, stdout and stderr together: its last
  // kProgramOutputKeep bytes, after a line saying how much was cut when it printed more.
  std::string output;
  bool output_known = false;  // a run of it was seen (a first run with no output printed "")
  // The latest save that did not compile: the compiler's output, the file as it is on disk now,
  // and the errors at its lines. Cleared when a build succeeds.
  std::string build_error;
  std::string new_source;
  std::vector<CompileError> errors;
  // What belongs to the side not shown (the lesson's while the program is shown, the program's
  // while a lesson is): swapped with GuiApp's own at each switch.
  std::map<std::string, visual::FieldText> fields;
  bool record_memory = false, find_races = false;
  int runs = 0;  // reruns handed back by the watcher (a script waits for the next one)
  // The program's launches while a lesson is shown, the one shown, the playback moment, the
  // threads selected and the tab under the grid.
  std::vector<std::shared_ptr<const visual::TimelineModel>> models;
  int launch = 0;
  size_t cursor = 0;
  visual::Selection selection;
  ResultTab tab = ResultTab::None;
};

// What a script's `expect printed|compile-errors|code WANT` compares with WANT: WANT itself when
// the program printed it, the marked lines ("5,9" or "none"), "saved" or "ran".
std::string program_fact(const GuiApp& app, const std::string& what, const std::string& want);

// Per line (index = line, from 1): "" or the compiler's errors there, one a line, for the code
// view's marks.
std::vector<std::string> error_marks(const std::vector<CompileError>& errors);

}  // namespace coop::app
