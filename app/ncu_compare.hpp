// Nsight Compute's memory counters of a lesson's kernels beside the emulator's access analysis
// (device/trace/memory_access.hpp) of the same launches: global sectors per request, shared-memory
// wavefronts and bank conflicts, launch by launch, with the reason where they differ.
//
// `scripts/gpu-check.sh ncu` profiles a lesson under `ncu --csv --metrics ...` on a GPU and runs
// the same launches on the emulator (`coopviz run ID --record-memory --json`); `coopviz
// ncu-compare` reads both and writes the comparison, which the lesson folder keeps as ncu.json and
// the Memory tab shows.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "device/launch/result.hpp"

namespace coop::app {

// The metrics the comparison reads, comma-separated as `ncu --metrics` takes them.
const std::string& ncu_memory_metrics();

// One profiled launch: its kernel's name (the function's own, without namespace, template
// arguments or parameters), which launch of that kernel it was (from 1), and its metrics.
struct NcuLaunch {
  std::string kernel;
  int launch = 1;
  std::string shape;  // "8,1,1 x 256,1,1" (grid x block), "" when the CSV has no size columns
  std::map<std::string, double> metrics;  // by metric name; "n/a" values are left out
};

// The launches in `ncu --csv` output (the details page: one row per launch and metric, columns
// found by their names, "==PROF==" lines and values' thousands separators allowed). Errors name
// what is missing.
Result<std::vector<NcuLaunch>> parse_ncu_csv(std::string_view csv);

// "strided_read" of "void coop::lessons::x::strided_read<4>(const float *, float *, int)".
std::string kernel_base_name(std::string_view demangled);

// What the emulator's analysis says of one launch, summed over its lines.
struct EmulatorLaunch {
  std::string kernel;
  int launch = 1;     // which launch of this kernel, from 1
  std::string shape;  // as NcuLaunch::shape; "" in a report without "grid" and "block"
  double global_load_requests = 0, global_load_sectors = 0;
  double global_store_requests = 0, global_store_sectors = 0;
  double shared_load_wavefronts = 0, shared_load_conflicts = 0;
  double shared_store_wavefronts = 0, shared_store_conflicts = 0;
};

// Per launch, from the "memory" list of `coopviz run --json` (memory_report()).
Result<std::vector<EmulatorLaunch>> emulator_launches(const nlohmann::json& memory);

// One counter of one launch on both sides.
struct CounterRow {
  std::string counter;  // "global load sectors per request", ...
  double emulator = 0;
  std::optional<double> ncu;  // not measured (the metric was n/a or missing)
  bool agree = false;
  std::string note;  // why they differ, in words ("" when they agree)
};

struct LaunchComparison {
  std::string kernel;
  int launch = 1;
  bool profiled = false;  // Nsight Compute had this launch
  std::vector<CounterRow> rows;
};

// Each emulated launch against the profiled launch of the same kernel and number. Where both sides
// know the grid and block, the number counts launches of that kernel with that shape only, so
// launches that run on the GPU alone (a lesson's timing runs) take no emulated launch's place.
std::vector<LaunchComparison> compare_counters(const std::vector<EmulatorLaunch>& emulator,
                                               const std::vector<NcuLaunch>& ncu);

// The comparison as ncu.json holds it: {"lesson", "device", "measured_at", "launches": [{"kernel",
// "launch", "profiled", "counters": [{"counter", "emulator", "ncu" (null: not measured),
// "agree", "note"}]}], "agree": all agree}.
nlohmann::json comparison_json(const std::vector<LaunchComparison>& launches,
                               const std::string& lesson, const std::string& device,
                               const std::string& measured_at);

// Reads an ncu.json back (the Memory tab's table); errors say what is malformed.
Result<std::vector<LaunchComparison>> read_comparison(std::string_view json_text,
                                                      std::string* device = nullptr);

}  // namespace coop::app
