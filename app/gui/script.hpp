// Scripted walkthroughs for `coopviz gui --script FILE`: one command per line, run in the live
// window, so a test (or a teacher preparing a class) can drive the app as a user would.
//
//   lesson ID            select a lesson (and its first step)
//   step N               select step N (1-based)
//   grid X[,Y[,Z]]       edit the launch configuration (the lesson re-runs, as in the UI)
//   block X[,Y[,Z]]
//   param NAME=VALUE
//   backend auto|gpu|emu
//   seed N
//   schedule lockstep|random|its   the emulator's schedule (the Launch panel's combo)
//   wait                 wait until the re-run has landed (commands below wait anyway)
//   wait saved           wait until the program (coopviz gui FILE.cu) is saved and run again
//   program              show the program again (the lesson picker's "Your program")
//   next-event [N]  prev-event [N]  next-phase [N]  prev-phase [N]  start  end  seek N
//   tab checks|events|barriers|atomics|flow|memory|occupancy|schedule|benchmark|exercise
//   popout TAB           show the tab in a window of its own
//   capacity N           the trace capacity, as typed in the Launch panel
//   memory on|off        record every load and store (the Launch panel's memory switch)
//   races on|off         find data races (the Launch panel's races switch; records memory)
//   recover emulator     the buttons shown when the GPU could not run the lesson
//   recover trace [FILE]
//   export DIR           Export PNG into DIR
//   bench open FILE      the Benchmark tab: open a `coopviz bench reduce --json` report
//   bench reveal         ... and show the measured block sweep
//   pack FILE            open a class pack at its first item (lessons/README.md, "Class packs")
//   pack next|prev       its next or previous item;  pack item N   its item N (from 1)
//   pack summary         the classroom summary window;  pack close
//   exercise ID          the Exercise tab on exercise ID (its lesson shown)
//   exercise start DIR [keep|overwrite]   Start, writing into DIR/ID/ (no editor is opened)
//   exercise check FILE  Check FILE (the next command waits for the verdict)
//   exercise hint        Show the next hint
//   exercise solution [confirm]   Show solution..., and its confirmation
//   exercise failing     Watch the failing run (the first failing case's trace)
//   presentation on|off
//   questions on|off     ask the steps' predict-then-run questions (the top bar's switch; a
//                        script starts with them off)
//   answer TEXT          answer the question being asked, as typed (a choice by its words)
//   type TEXT            type TEXT into the answer field, key by key (it adds to what is there)
//   press enter          press Enter (in the answer field: Check)
//   skip                 skip it
//   demo on|off          the window with every view on synthetic data
//   screenshot FILE [WxH]
//   expect threads|blocks|block|events|lesson|step|status VALUE   stop unless it holds
//   expect problem none|no-gpu|old-driver|fault|...   (why the GPU could not run the lesson)
//   expect dropped N|some   expect capacity N   expect replay yes|no
//   expect trace-backend gpu|emu|none   (where the shown trace was recorded)
//   expect schedule lockstep|random|its|none   (the emulator schedule the shown trace ran under)
//   expect notice-error yes|no   expect tab NAME (as in tab)   expect bench-report yes|no
//   expect pack-item N|none   (the class pack's item shown, from 1)
//   expect exercise ID|none   expect exercise-verdict passed|failed|did-not-compile|none
//   expect exercise-attempts N   expect exercise-hints N   expect exercise-asked yes|no
//   expect exercise-solution hidden|asked|shown
//   expect question ID|none   expect score RIGHT/ASKED (this session's)
//   expect field TEXT|empty   (what the answer field holds)
//   expect verdict right|wrong|skipped|none   (of the last question answered or skipped)
//   expect refused FIELD|none   (a Launch field holds a refused value; none: no field does)
//   expect races N|some   expect accesses yes|no   (loads and stores recorded in the launch shown)
//   expect printed WORD   (what the program printed holds WORD)
//   expect compile-errors LINE,LINE...|none   (the lines the code view marks)
//   expect code saved|ran   (the code view shows the file as saved, or the version that ran)
//   print                one line: lesson, step, launch, threads, cursor, error, warning
//   quit
// Blank lines and lines starting with # are ignored.
#pragma once

#include <string>
#include <vector>

#include "app/gui/gui_app.hpp"

namespace coop::app {

class GuiWindow;

// [script_expect.cpp] `expect WHAT VALUE` (args: WHAT, VALUE): an error saying what was found
// instead, with the status line; and `print`'s status line.
Status expect_command(const std::vector<std::string>& args, GuiApp& app);
std::string status_line(const GuiApp& app);

struct ScriptCommand {
  int line = 0;
  std::string verb;
  std::vector<std::string> args;
};

// Parses a script; unknown commands and wrong argument counts are errors naming the line.
Result<std::vector<ScriptCommand>> parse_script(const std::string& text);

class ScriptRunner {
 public:
  ScriptRunner(std::vector<ScriptCommand> commands, GuiWindow& window)
      : commands_(std::move(commands)), window_(window) {}

  // Runs commands until one has to wait for a run or the script ends. Returns false when the
  // window should close (quit or an error); after the last command the window stays open.
  bool step(GuiApp& app, double now);
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  Status execute(const ScriptCommand& c, GuiApp& app, double now);
  void io_press_enter();

  std::vector<ScriptCommand> commands_;
  GuiWindow& window_;
  size_t next_ = 0;
  int frames_to_wait_ = 0;  // frames to draw before the next command
  std::string typing_;      // keys `type` sends once its field has the focus
  bool enter_down_ = false; // Enter is held for one frame
  std::string error_;
  bool quit_ = false;
  bool reported_ = false;
  // `wait saved`: the program's reruns seen when it started (-1: not waiting), and until when.
  static constexpr double kSaveWait = 300;
  int saves_seen_ = -1;
  double wait_until_ = 0;
};

}  // namespace coop::app
