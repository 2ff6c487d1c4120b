// [SECTION] The Benchmark tab, offered with the lessons that ask for it (LessonDef::benchmark_tab):
// every variant's bandwidth against the copy bandwidth and CUB, and "predict, then run" for the
// block size. With a GPU the benchmark runs here in the background; without one the tab shows the
// last GPU results shipped with coopviz (or a report file), labelled with the device and date they
// came from.
#include "app/gui/tab_benchmark.hpp"

#include <imgui.h>

#include "app/backend.hpp"
#include "app/gui/panels.hpp"
#include "device/gpu/device_query.hpp"
#include "visual/views/bench_chart_view.hpp"
#include "visual/views/markdown_view.hpp"
#include "visual/views/style.hpp"

namespace coop::app {
namespace {

// "2025-06-01T12:00:00Z" -> "2025-06-01"
std::string date_of(const std::string& iso) {
  return iso.substr(0, 10);
}

std::string sweep_variant() {
  return rp::ReduceBenchOptions{}.sweep_variant;
}

// The prediction the sweep starts from: theoretical occupancy of the sweep's kernel for each
// block size, on this machine's GPU or, without one, the device the emulator imitates.
void predict(BenchmarkTabState& p) {
  const rp::VariantInfo* v = rp::find_variant(sweep_variant());
  // No launch: only the emulator's device and the kernel's resources are asked for.
  Result<BackendChoice> emu = choose_backend(BackendRequest::Emu);
  if (!v || !emu) {
    p.prediction_error = v ? emu.message() : "no variant '" + sweep_variant() + "'";
    return;
  }
  const rp::ReduceBenchOptions o;
  Result<rp::BlockSweep> s =
      rp::predict_block_sweep(emu->exec->device(), *v, rp::variant_resources(*v, *emu->exec), o.n,
                              rp::default_sweep_blocks());
  if (!s) {
    p.prediction_error = s.message();
    return;
  }
  p.prediction = std::move(*s);
  p.prediction_device = emu->exec->device().name + " (" + emu->exec->device().arch_string() + ")";
}

void initialise(BenchmarkTabState& p) {
  p.initialised = true;
  if (!p.report) {
    if (Result<rp::ReduceBenchReport> shipped = rp::shipped_report(); shipped)
      p.show(std::move(*shipped), "shipped with coopviz");
    else
      p.missing = shipped.message();
  }
  if (!p.prediction) predict(p);
}

visual::BandwidthChartInput bars_of(const rp::ReduceBenchReport& r) {
  visual::BandwidthChartInput in;
  in.copy_gbs = r.copy_gbs;
  auto bar = [](const rp::VariantResult& v, bool reference) {
    visual::BandwidthBar b;
    b.label = v.id;
    b.title = v.title;
    b.gbs = v.gbs;
    b.percent_of_copy = v.percent_of_copy;
    b.ratio_to_cub = v.ratio_to_cub;
    b.reference = reference;
    if (!v.error.empty())
      b.error = v.error;
    else if (!v.sum.pass || !v.exact.pass)
      b.error = "wrong sum: not timed as a result";
    return b;
  };
  for (const rp::VariantResult& v : r.variants) in.bars.push_back(bar(v, false));
  if (!r.cub.id.empty()) in.bars.push_back(bar(r.cub, true));
  return in;
}

std::vector<visual::SweepSample> samples_of(const rp::BlockSweep& prediction,
                                            const rp::BlockSweep* measured) {
  std::vector<visual::SweepSample> out;
  for (const rp::SweepPoint& p : prediction.points) {
    visual::SweepSample s;
    s.block = p.block;
    s.occupancy = p.occupancy;
    s.error = p.error;
    if (p.error.empty()) {
      s.detail =
          std::to_string(p.active_blocks_per_sm) + " blocks per SM, grid " + std::to_string(p.grid);
      for (size_t i = 0; i < p.limiting.size(); ++i)
        s.detail += (i ? ", " : "; limited by ") + p.limiting[i];
    }
    if (measured)
      for (const rp::SweepPoint& m : measured->points)
        if (m.block == p.block && m.error.empty()) s.gbs = m.gbs;
    out.push_back(std::move(s));
  }
  return out;
}

// The run controls: Run, or a progress bar and Cancel while it runs (nothing without a GPU).
// `same_line`: continue the current line if there is anything to draw.
void run_controls(BenchmarkTabState& p, bool sweep_only, const char* label, bool same_line) {
  if (p.runner.running()) {
    if (p.sweep_only != sweep_only) return;  // the other button's run shows its own bar
    if (same_line) ImGui::SameLine();
    const rp::BenchProgress pr = p.runner.progress();
    ImGui::ProgressBar(float(pr.fraction), ImVec2(ImGui::GetFontSize() * 14, 0));
    ImGui::SameLine();
    ImGui::BeginDisabled(p.runner.cancelling());
    if (ImGui::Button(p.runner.cancelling() ? "Cancelling..." : "Cancel")) p.runner.cancel();
    ImGui::EndDisabled();
    ImGui::TextDisabled("%s", pr.stage.c_str());
    return;
  }
  if (!gpu_present()) return;
  if (same_line) ImGui::SameLine();
  if (ImGui::Button(label)) {
    rp::ReduceBenchOptions o;
    if (sweep_only) o.only = {sweep_variant()};
    o.sweep = true;
    p.sweep_only = sweep_only;
    p.run_error.clear();
    p.runner.start(o);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(sweep_only ? "Time the sweep's kernel at every block size on this GPU"
                                 : "Every variant, CUB and the copy, then the block sweep: "
                                   "about a minute with 2^28 floats");
}

// Picks up a finished run.
void collect(BenchmarkTabState& p) {
  std::optional<Result<rp::ReduceBenchReport>> done = p.runner.take();
  if (!done) return;
  if (!*done) {
    p.run_error = done->message();
    return;
  }
  rp::ReduceBenchReport& r = **done;
  if (p.sweep_only) {
    if (r.sweep) {
      p.measured = std::move(r.sweep);
      p.measured_device = r.device + " (" + r.arch + "), measured just now";
      p.prediction = p.measured;
      p.prediction_device = r.device + " (" + r.arch + ")";
      p.revealed = true;
    }
    return;
  }
  p.show(std::move(r), "measured just now");
  p.revealed = true;
}

void draw_bars(BenchmarkTabState& p) {
  const visual::ViewStyle& st = visual::view_style();
  panel_title("Bandwidth of every variant");
  if (!p.report) {
    visual::draw_rich_text(visual::parse_inline(
        "No measured results are shipped with this build. " +
        std::string(gpu_present() ? "Press Run benchmark to measure on this GPU."
                                  : "On a machine with a GPU, `coopviz bench reduce --sweep "
                                    "--json` writes a report; open it below.")));
    visual::text_dim_wrapped(p.missing);
  } else {
    const rp::ReduceBenchReport& r = *p.report;
    visual::text_wrappedf(
        "%s (%s), %s, %s: n = %llu floats (%.2f GB), block %u, median of %u runs.",
        r.device.c_str(), r.arch.c_str(), date_of(r.measured_at).c_str(), p.source.c_str(),
        (unsigned long long)r.n, double(r.bytes) / 1e9, r.block, r.runs);
    for (const std::string& note : r.notes)
      ImGui::TextColored(ImColor(st.colors.warning), "%s", note.c_str());
    const visual::BandwidthChartInput in = bars_of(r);
    visual::draw_bandwidth_chart("bars", in, visual::layout_bandwidth_chart(in));
    const rp::BenchGoals g = rp::goals_of(r);
    if (const rp::VariantResult* best = r.best_result())
      visual::text_wrappedf(
          "Fastest of the lesson's kernels: %s at %s %% of the copy bandwidth and "
          "%s times CUB's throughput.",
          best->id.c_str(), visual::format_rate(g.best_vs_copy * 100).c_str(),
          visual::format_rate(g.best_vs_cub).c_str());
  }
  run_controls(p, false, "Run benchmark", false);
  if (!p.run_error.empty() && !p.sweep_only)
    ImGui::TextColored(ImColor(st.colors.error), "%s", p.run_error.c_str());
}

void draw_sweep(BenchmarkTabState& p) {
  const visual::ViewStyle& st = visual::view_style();
  panel_title("Predict, then run: the block size");
  if (!p.prediction) {
    ImGui::TextColored(ImColor(st.colors.error), "No prediction: %s", p.prediction_error.c_str());
    return;
  }
  const rp::BlockSweep& pred = *p.prediction;
  visual::text_wrappedf(
      "Occupancy predicted for %s on %s with 2^28 floats. Which block size do you expect to "
      "read memory fastest? Pick one, then measure.",
      pred.variant.c_str(), p.prediction_device.c_str());
  const bool can_measure = gpu_present() || p.measured;
  std::vector<visual::SweepSample> samples =
      samples_of(pred, p.revealed && p.measured ? &*p.measured : nullptr);
  const visual::SweepChart chart = visual::layout_sweep_chart(samples, p.revealed);
  ImGui::TextUnformatted("Your guess:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  const std::string current = p.guess >= 0 && size_t(p.guess) < samples.size()
                                  ? std::to_string(samples[size_t(p.guess)].block)
                                  : "pick";
  if (ImGui::BeginCombo("##guess", current.c_str())) {
    for (size_t i = 0; i < samples.size(); ++i)
      if (samples[i].error.empty() &&
          ImGui::Selectable(std::to_string(samples[i].block).c_str(), int(i) == p.guess))
        p.guess = int(i);
    ImGui::EndCombo();
  }
  if (p.measured && !p.revealed) {
    ImGui::SameLine();
    ImGui::BeginDisabled(p.guess < 0);
    if (ImGui::Button("Show the measurement")) p.revealed = true;
    ImGui::EndDisabled();
  }
  run_controls(p, true, p.measured ? "Measure again on this GPU" : "Run the sweep", true);
  if (!can_measure)
    visual::text_wrappedf(
        "No GPU here and no measured sweep shipped: the prediction is all there "
        "is to see.");
  visual::draw_sweep_chart("sweep", samples, chart);
  visual::text_wrapped(chart.prediction);
  if (chart.measured) {
    visual::text_wrapped(chart.outcome);
    ImGui::TextDisabled("measured on %s", p.measured_device.c_str());
    if (p.guess >= 0 && size_t(p.guess) < samples.size() && chart.fastest < samples.size() &&
        samples[size_t(p.guess)].gbs > 0)
      visual::text_wrappedf(
          "Your guess, %u threads: %s GB/s, %s %% of the fastest.", samples[size_t(p.guess)].block,
          visual::format_rate(samples[size_t(p.guess)].gbs).c_str(),
          visual::format_rate(100 * samples[size_t(p.guess)].gbs / samples[chart.fastest].gbs)
              .c_str());
  }
  if (!p.run_error.empty() && p.sweep_only)
    ImGui::TextColored(ImColor(st.colors.error), "%s", p.run_error.c_str());
}

void draw_open_report(BenchmarkTabState& p, GuiApp& app) {
  ImGui::TextUnformatted("Report file:");
  ImGui::SameLine();
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s", p.path.c_str());
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 4);
  if (ImGui::InputTextWithHint("##report", "reduce.json from coopviz bench reduce --json", buf,
                               sizeof buf))
    p.path = buf;
  ImGui::SameLine();
  if (ImGui::Button("Open")) {
    const Status s = p.open(p.path);
    app.notice = s ? "opened " + p.path : s.message();
  }
}

}  // namespace

bool gpu_present() {
  static const bool present = query_gpus().ok();
  return present;
}

void BenchmarkTabState::show(rp::ReduceBenchReport r, std::string from) {
  source = std::move(from);
  missing.clear();
  if (r.sweep) {
    measured = r.sweep;
    measured_device = r.device + " (" + r.arch + "), " + date_of(r.measured_at);
    // The measured sweep carries the prediction for its own device.
    prediction = r.sweep;
    prediction_device = r.device + " (" + r.arch + ")";
    revealed = false;
  }
  report = std::move(r);
}

Status BenchmarkTabState::open(const std::string& file) {
  if (file.empty())
    return Status::error("give the path of a report from coopviz bench reduce --json");
  Result<rp::ReduceBenchReport> r = rp::load_report(file);
  if (!r) return r.status();
  show(std::move(*r), "opened from " + file);
  return {};
}

namespace {

void draw_benchmark_tab(GuiApp& app) {
  if (!app.bench) app.bench = std::make_shared<BenchmarkTabState>();
  BenchmarkTabState& p = *app.bench;
  if (!p.initialised) initialise(p);
  collect(p);
  ImGui::BeginChild("benchmark", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  draw_bars(p);
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::Spacing();
  draw_sweep(p);
  ImGui::Spacing();
  ImGui::Separator();
  draw_open_report(p, app);
  ImGui::EndChild();
}

// The lesson asks for the benchmark next to its traces.
bool lesson_offers(GuiApp& app) {
  return app.lesson_def() && app.lesson_def()->benchmark_tab;
}

}  // namespace

extern const TabView kBenchmarkTab = {draw_benchmark_tab, 0, lesson_offers};

}  // namespace coop::app
