// The occupancy panel as pure data (no ImGui): what one SM holds for the current configuration,
// the three occupancy charts, and, for a cooperative launch, the largest legal grid and the exact
// error a larger one gets. visual/occupancy_view.cpp draws it; tests check it without a window.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "device/launch/device_props.hpp"
#include "device/launch/launch_config.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/sweep.hpp"
#include "visual/field_text.hpp"

namespace coop::visual {

// What the app knows when it opens the panel: the device, the lesson kernel (if any) with its
// compiler-reported resources, and the launch the lesson would make.
struct OccupancyPanelInput {
  DeviceProps device;
  std::string kernel_name;  // "" when the panel is used as a free calculator
  KernelResources kernel;   // registers and static shared memory of that kernel
  LaunchConfig launch;      // block, grid, dynamic shared memory and mode (cooperative?)
};

// What the user changes with the panel's controls. `kernel_name` and `launch` remember which
// input the values were taken from, so a new lesson, step or launch resets them.
struct OccupancyPanelState {
  bool initialized = false;
  std::string kernel_name;
  LaunchConfig launch;
  int block_x = 256, block_y = 1, block_z = 1;
  int regs_per_thread = 32;
  int max_regs_cap = 0;       // 0: none
  int static_smem = 0;        // bytes
  int dynamic_smem = 0;       // bytes
  int carveout_percent = -1;  // -1: default
  int grid_blocks = 0;        // 0: not asked
  int chart = 0;              // the chart shown: 0 block size, 1 registers, 2 shared memory
  int device_preset = -1;     // index into device_presets(), -1: the input's device
  // The typed text of each field, by label; a refused value stays in its field, never in the
  // numbers above.
  std::map<std::string, FieldText> fields;
};

// Takes the input's values (kernel resources and launch) into the state.
void reset_panel_state(const OccupancyPanelInput& input, OccupancyPanelState& state);
// Whether the state's values were taken from another kernel or launch than `input`'s.
bool panel_state_is_stale(const OccupancyPanelInput& input, const OccupancyPanelState& state);

// One resource of the SM drawn as a bar of `capacity` units: `blocks` resident blocks of
// `per_block` units each, the rest free.
struct SmResourceBar {
  std::string name;  // "warp slots", "registers", "shared memory", "block slots"
  std::string unit;  // "warps", "registers", "bytes", "blocks"
  double capacity = 0;
  double per_block = 0;
  int blocks = 0;        // resident blocks
  int limit = 0;         // blocks this resource alone allows (OccupancyLimits::kNoLimit: none)
  bool limiter = false;  // this resource sets the answer
  std::string caption;   // "48 of 64 warps: 2 blocks x 24"
};

struct OccupancyPanelModel {
  DeviceProps device;
  OccupancyInput input;
  std::string error;  // input rejected (the result below is empty)
  OccupancyResult result;
  std::vector<SmResourceBar> bars;  // warp slots, registers, shared memory, block slots
  SweepSeries by_block, by_regs, by_smem;
  bool cooperative = false;
  uint64_t max_cooperative_grid = 0;
  std::string launch_error;  // validate_launch's message for the chosen grid ("" if it is legal)
  std::string summary;       // one line: "2 blocks/SM, 48 of 64 warps (75 %), limited by warps"
};

OccupancyPanelModel build_occupancy_panel_model(const OccupancyPanelInput& input,
                                                const OccupancyPanelState& state);

// A made-up input for the demo window and tests: an H100 preset, a 256-thread block with 40
// registers and 8 KB of shared memory, launched cooperatively on 1000 blocks.
OccupancyPanelInput demo_occupancy_input();

}  // namespace coop::visual
