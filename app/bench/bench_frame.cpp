// coopviz bench frame [--threads N] [--frames F] [--size WxH] [--tab NAME] [--json]:
// how fast the app draws a large trace. A synthetic block reduction of N threads (about 16
// events a thread: 65,536 threads make ~1 M events) is scrubbed from start to end over F
// offscreen frames of the full window; reported are the median and 95th percentile of the
// whole frame (rasterising included) and of the CPU time spent building ImGui draw lists.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/gui/gui_app.hpp"
#include "app/gui/window.hpp"
#include "visual/synthetic_trace.hpp"

namespace coop::app {
namespace {

constexpr double kFrameTargetMs = 33.0;    // 30 frames a second on the software renderer
constexpr double kDrawListTargetMs = 5.0;  // CPU building draw lists, per frame

struct FrameOptions {
  uint64_t threads = 65536;
  int frames = 120;
  std::string size = "1280x800";
  std::string tab = "checks";
  bool json = false;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

}  // namespace

void register_bench_frame(CLI::App& bench, CliState& state) {
  auto o = std::make_shared<FrameOptions>();
  auto* cmd = bench.add_subcommand("frame", "Frame time of the app on a large synthetic trace");
  cmd->add_option("--threads", o->threads, "Threads in the synthetic trace (256 .. 1048576)")
      ->capture_default_str();
  cmd->add_option("--frames", o->frames, "Frames to measure (10 .. 10000)")->capture_default_str();
  cmd->add_option("--size", o->size, "Window size WIDTHxHEIGHT")->capture_default_str();
  cmd->add_option("--tab", o->tab, "Tab open under the grid: checks, barriers, atomics, memory")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, &state] {
    if (o->threads < 256 || o->threads > (1u << 20))
      return void(state.exit_code = usage_error("--threads " + std::to_string(o->threads) +
                                                " must be between 256 and 1048576"));
    if (o->frames < 10 || o->frames > 10000)
      return void(state.exit_code = usage_error("--frames " + std::to_string(o->frames) +
                                                " must be between 10 and 10000"));
    int width = 0, height = 0;
    if (std::sscanf(o->size.c_str(), "%dx%d", &width, &height) != 2 || width < 200 ||
        height < 200 || width > 8192 || height > 8192)
      return void(state.exit_code = usage_error("--size '" + o->size +
                                                "': WIDTHxHEIGHT, each between 200 and 8192"));
    const std::pair<const char*, ResultTab> tabs[] = {{"checks", ResultTab::Checks},
                                                      {"barriers", ResultTab::Barriers},
                                                      {"atomics", ResultTab::Atomics},
                                                      {"memory", ResultTab::Memory}};
    ResultTab tab = ResultTab::None;
    for (const auto& [name, id] : tabs)
      if (o->tab == name) tab = id;
    if (tab == ResultTab::None)
      return void(state.exit_code = usage_error("--tab '" + o->tab +
                                                "': choose checks, barriers, atomics or memory"));
    Result<std::unique_ptr<GuiWindow>> window =
        GuiWindow::open({.width = 320, .height = 240, .visible = false});
    if (!window) return void(state.exit_code = usage_error(window.message()));

    visual::SyntheticTraceSpec spec;
    spec.block_threads = 256;
    spec.blocks = uint32_t((o->threads + 255) / 256);
    GuiApp app;
    std::vector<Trace> traces;
    traces.push_back(visual::make_synthetic_trace(spec));
    const size_t events = traces.front().events.size();
    app.show_traces(std::move(traces), "synthetic");
    app.tab_request = tab;
    const visual::TimelineModel& model = *app.model();
    // Scrub from start to end: every frame moves the cursor, so the snapshot, the code view's
    // counts and the grid's colours all change as they do while playing.
    std::vector<double> frame_ms, build_ms, build_cpu_ms, update_ms, render_ms, render_cpu_ms,
        vertices, calls;
    const int warmup = 5;
    for (int i = -warmup; i < o->frames; ++i) {
      const size_t cursor = i < 0 ? 0 : model.size() * size_t(i + 1) / size_t(o->frames);
      visual::seek(app.playback, model, cursor);
      if (i < 0) app.tab_request = tab;
      const GuiWindow::FrameTiming t = (*window)->timed_frame(app, width, height);
      if (i < 0) continue;
      frame_ms.push_back(t.frame_ms);
      build_ms.push_back(t.build_ms);
      build_cpu_ms.push_back(t.build_cpu_ms);
      update_ms.push_back(t.update_ms);
      render_ms.push_back(t.render_ms);
      render_cpu_ms.push_back(t.render_cpu_ms);
      vertices.push_back(t.vertices);
      calls.push_back(t.draw_calls);
    }
    nlohmann::json out = {
        {"benchmark", "frame"},
        {"threads", model.thread_count()},
        {"events", events},
        {"frames", o->frames},
        {"size", o->size},
        {"tab", o->tab},
        {"renderer", (*window)->renderer()},
        {"frame_ms", {{"median", percentile(frame_ms, 0.5)}, {"p95", percentile(frame_ms, 0.95)}}},
        {"draw_list_cpu_ms",
         {{"median", percentile(build_cpu_ms, 0.5)}, {"p95", percentile(build_cpu_ms, 0.95)}}},
        {"draw_list_wall_ms",
         {{"median", percentile(build_ms, 0.5)}, {"p95", percentile(build_ms, 0.95)}}},
        {"update_ms",
         {{"median", percentile(update_ms, 0.5)}, {"p95", percentile(update_ms, 0.95)}}},
        {"render_ms",
         {{"median", percentile(render_ms, 0.5)}, {"p95", percentile(render_ms, 0.95)}}},
        {"render_cpu_ms",
         {{"median", percentile(render_cpu_ms, 0.5)}, {"p95", percentile(render_cpu_ms, 0.95)}}},
        {"vertices", {{"median", percentile(vertices, 0.5)}, {"max", percentile(vertices, 1.0)}}},
        {"draw_calls", {{"median", percentile(calls, 0.5)}, {"max", percentile(calls, 1.0)}}},
        {"targets", {{"frame_ms", kFrameTargetMs}, {"draw_list_cpu_ms", kDrawListTargetMs}}}};
    const bool ok = percentile(frame_ms, 0.5) <= kFrameTargetMs &&
                    percentile(build_cpu_ms, 0.5) <= kDrawListTargetMs;
    out["within_targets"] = ok;
    if (o->json) {
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << "frame benchmark: " << model.thread_count() << " threads, " << events
                << " events, " << o->size << ", " << (*window)->renderer() << "\n"
                << "  frame:      median " << percentile(frame_ms, 0.5) << " ms, p95 "
                << percentile(frame_ms, 0.95) << " ms (target " << kFrameTargetMs << ")\n"
                << "  draw lists: median " << percentile(build_cpu_ms, 0.5) << " ms CPU, p95 "
                << percentile(build_cpu_ms, 0.95) << " ms (target " << kDrawListTargetMs << ")\n";
    }
    state.exit_code = 0;
  });
}

}  // namespace coop::app
