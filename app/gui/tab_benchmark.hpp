// What the Benchmark tab (app/gui/tab_benchmark.cpp) holds between frames: the report
// its bar chart shows (a run made here, a file opened, or the results shipped with coopviz),
// the block-size sweep predicted for a device and, once revealed or run, measured, and the
// background run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/gui/bench_runner.hpp"

namespace coop::app {

struct BenchmarkTabState {
  BenchRunner runner;
  bool sweep_only = false;  // the run in progress measures only the block sweep

  // [bars] The report shown, where it came from, or why there is none.
  std::optional<rp::ReduceBenchReport> report;
  std::string source;     // "measured just now", "shipped with coopviz", "opened from FILE"
  std::string missing;    // why no report is shown
  std::string run_error;  // the last run's failure (cancelled, no GPU, a GPU error)

  // [sweep] Predicted occupancy for the device the measurement is (or would be) from, and the
  // measurement, hidden until the student has made a guess and asks for it.
  std::optional<rp::BlockSweep> prediction;
  std::string prediction_device, prediction_error;
  std::optional<rp::BlockSweep> measured;
  std::string measured_device;
  bool revealed = false;
  int guess = -1;  // index into the sweep's block sizes; -1: none yet

  std::string path;  // the "open a report" field
  bool initialised = false;

  // Shows `r` (from `source`); its sweep, if any, becomes the measurement to reveal.
  void show(rp::ReduceBenchReport r, std::string source);
  // Loads a `coopviz bench reduce --json` report.
  Status open(const std::string& file);
};

// Whether a CUDA device can be used (asked once; the answer cannot change while running).
bool gpu_present();

}  // namespace coop::app
