// The Occupancy tab: the occupancy calculator for the kernel of the shown launch (its compiled
// registers and shared memory, its launch), or for the launch being edited when nothing ran.
#include <imgui.h>

#include "app/gui/panels.hpp"
#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/presets.hpp"
#include "visual/occupancy_view.hpp"

namespace coop::app {
namespace {

void draw_occupancy_tab(GuiApp& app) {
  // What the student set in the calculator stays when another launch is shown.
  static visual::OccupancyPanelState state;
  visual::OccupancyPanelInput in;
  if (const Trace* t = app.shown_trace()) {
    in.device = t->header.device;
    in.kernel_name = t->header.kernel;
    in.launch = t->header.launch;
    const int arch = in.device.cc_major * 10 + in.device.cc_minor;
    if (const CompiledKernelResources* row = find_compiled_resources(nullptr, in.kernel_name, arch))
      in.kernel = to_kernel_resources(*row, in.device);
  } else {
    in.device = default_emulated_device();
    in.launch = app.config;
  }
  visual::draw_occupancy_panel(in, state);
}

}  // namespace

// Every launch, and none, has an occupancy to work out.
extern const TabView kOccupancyTab = {draw_occupancy_tab};

}  // namespace coop::app
