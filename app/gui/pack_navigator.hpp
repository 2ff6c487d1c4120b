// The class pack open in the window: which item is shown, and going to an item as a teacher
// would (a lesson at its step with its launch preset, an exercise, a question at its step).
// No ImGui here: scripts, tests and the window drive it alike; panel_pack.cpp draws it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/pack/pack.hpp"
#include "visual/field_text.hpp"

namespace coop::app {

struct GuiApp;

struct PackNavigator {
  std::optional<Pack> pack;  // none open
  std::string path;          // the file it was read from
  int current = -1;          // the item shown, -1: none yet
  // What the app ran on before the pack set anything: an item's backend, schedule and seed hold
  // for that item only, the next one starts again from these (and closing the pack restores
  // them).
  struct RunChoice {
    BackendRequest backend = BackendRequest::Auto;
    Schedule schedule = Schedule::Lockstep;
    uint64_t seed = 0;
  } before;
  std::string progress_path;  // the summary's progress file ("": default_progress_path())
  bool show_summary = false;  // the classroom summary window
  bool show_open = false;     // the "Open a class pack" window
  visual::FieldText path_field;

  const PackItem* item() const {
    return pack && current >= 0 && size_t(current) < pack->items.size()
               ? &pack->items[size_t(current)]
               : nullptr;
  }
};

// Reads the pack at `path` and makes it the open one at item `index` (from 0). With `go`, that
// item is opened; without it the lesson shown stays (a remembered pack coming back). An error
// lists everything wrong with the file, and the pack open before stays open.
Status open_pack(GuiApp& app, const std::string& path, int index, bool go, double now);
void close_pack(GuiApp& app);
// Opens item `index` of the pack: a lesson at its step with its launch preset applied, an
// exercise, or a question's lesson at the question's step. Out of range: nothing happens.
void go_to_pack_item(GuiApp& app, int index, double now);
// Next (+1) or previous (-1) item.
void step_pack(GuiApp& app, int delta, double now);
// The open pack's classroom summary from the progress file, or why it could not be read.
Result<PackSummary> open_pack_summary(const GuiApp& app);

// A script's `pack` line: `pack FILE`, `pack next`, `pack prev`, `pack item N`, `pack summary`,
// `pack close`.
Status run_pack_command(GuiApp& app, const std::vector<std::string>& args, double now);

}  // namespace coop::app
