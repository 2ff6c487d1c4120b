// coopviz bench reduce [--n N] [--block B] [--json] ...: every reduction variant checked, then
// timed against the measured copy bandwidth and cub::DeviceReduce::Sum (app/bench/reduce: the
// kernels of the reduction-performance lesson's program).
#include <cstdio>
#include <iostream>
#include <string>

#include "app/backend.hpp"
#include "app/bench/reduce/bench.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/progress_bar.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

namespace rp = lessons::reduction_performance;
using lessons::format_float;

struct ReduceCliOptions {
  std::string n = std::to_string(uint64_t(1) << 28);
  uint32_t block = 512;
  unsigned warmup = 3, runs = 9, repeat = 10;
  uint64_t seed = 1;
  std::vector<std::string> variants;
  bool sweep = false;
  bool json = false;
  bool shipped = false;
  std::string backend = "gpu";
};

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string check_text(const rp::SumCheck& c) {
  if (c.exact) return c.pass ? "exact" : "WRONG";
  return format_float(c.relative_error(), 2) + (c.pass ? " <= " : " > ") +
         format_float(c.relative_bound(), 2);
}

void print_row(const rp::VariantResult& v) {
  std::string launch = v.config.grid.x > 0 && v.family != rp::Family::Library
                           ? v.config.grid.str() + "x" + v.config.block.str() +
                                 (v.config.mode == LaunchMode::Cooperative ? " coop" : "")
                           : "library";
  std::cout << pad(v.id, 16) << pad(launch, 18);
  if (!v.error.empty()) {
    std::cout << "not run: " << v.error << "\n";
    return;
  }
  std::cout << pad(check_text(v.sum), 22) << pad(check_text(v.exact), 7)
            << pad(fixed(v.timing.median_ms, 4), 10) << pad(fixed(v.gbs, 1), 9)
            << pad(v.percent_of_copy > 0 ? fixed(v.percent_of_copy, 1) : "-", 8)
            << (v.ratio_to_cub > 0 ? fixed(v.ratio_to_cub, 3) : "-") << "\n";
}

void print_human(const rp::ReduceBenchReport& r) {
  std::cout << "reduce: " << r.n << " floats (" << fixed(double(r.bytes) / 1e6, 1) << " MB) on "
            << r.device << " (" << r.arch << ", " << r.sm_count << " SMs, " << r.backend
            << "), measured " << r.measured_at << "\n"
            << "timing: median of " << r.runs << " runs of " << r.repeat
            << " back-to-back launches after " << r.warmup << " warm-up launches ("
            << (r.backend == to_string(Backend::Gpu) ? "cudaEvents" : "host clock") << ")\n";
  for (const std::string& note : r.notes) std::cout << "note: " << note << "\n";
  if (r.copy_gbs > 0)
    std::cout << "copy bandwidth (cudaMemcpy device to device, read + write): "
              << fixed(r.copy_gbs, 1) << " GB/s\n";
  std::cout << "sum check: relative error <= bound, bound = d * 2^-24 / (1 - d * 2^-24) * sum|x| / "
               "|sum| for the variant's d chained additions; exact: integers 0..15 at n = "
            << r.exact_n << "\n\n";
  std::cout << pad("variant", 16) << pad("launch", 18) << pad("sum check", 22) << pad("exact", 7)
            << pad("ms", 10) << pad("GB/s", 9) << pad("% copy", 8) << "x CUB\n";
  for (const rp::VariantResult& v : r.variants) print_row(v);
  print_row(r.cub);
  if (const rp::VariantResult* best = r.best_result()) {
    const rp::BenchGoals g = rp::goals_of(r);
    std::cout << "\nbest: " << best->id << " " << fixed(best->gbs, 1) << " GB/s";
    if (r.copy_gbs > 0) std::cout << " = " << fixed(100 * g.best_vs_copy, 1) << " % of copy";
    if (r.cub.gbs > 0) std::cout << ", " << fixed(g.best_vs_cub, 3) << " x CUB";
    std::cout << "\n";
    if (r.copy_gbs > 0 && r.cub.gbs > 0)
      std::cout << "goal: >= CUB "
                << (g.meets_cub                  ? "met"
                    : g.within_95_percent_of_cub ? "missed (within 95 %)"
                                                 : "missed")
                << "; >= 90 % of copy " << (g.meets_copy ? "met" : "missed") << "\n";
  }
  if (r.sweep) {
    std::cout << "\nblock-size sweep of " << r.sweep->variant << ":\n"
              << pad("block", 8) << pad("grid", 8) << pad("occupancy", 11) << "GB/s\n";
    for (const rp::SweepPoint& p : r.sweep->points) {
      std::cout << pad(std::to_string(p.block), 8) << pad(std::to_string(p.grid), 8)
                << pad(fixed(100 * p.occupancy, 0) + " %", 11);
      std::cout << (p.error.empty() ? fixed(p.gbs, 1) : "not run: " + p.error) << "\n";
    }
  }
}

bool all_passed(const rp::ReduceBenchReport& r) {
  for (const rp::VariantResult& v : r.variants)
    if (!v.ok()) return false;
  return r.backend != to_string(Backend::Gpu) || r.cub.ok();
}

int show(const rp::ReduceBenchReport& r, bool json) {
  if (json)
    std::cout << rp::report_to_json(r) << "\n";
  else
    print_human(r);
  return all_passed(r) ? 0 : 1;
}

int run(const ReduceCliOptions& o, BackendRequest request) {
  if (o.shipped) {
    Result<rp::ReduceBenchReport> r = rp::shipped_report();
    if (!r) {
      std::cerr << "coopviz: error: " << r.message() << "\n";
      return 1;
    }
    return show(*r, o.json);
  }
  Result<uint64_t> n = parse_count(o.n, "--n", uint64_t(1) << 34);
  if (!n) return usage_error(n.message());
  Result<BackendChoice> backend = choose_backend(request);
  if (!backend) {
    std::cerr << "coopviz: error: bench reduce times kernels on a GPU, and there is none here: "
              << backend.message() << "\n(`coopviz bench reduce --shipped` or the "
              << "reduction-performance lesson show the last results measured on a GPU)\n";
    return 1;
  }
  rp::ReduceBenchOptions options;
  options.n = *n;
  options.block = o.block;
  options.warmup = o.warmup;
  options.runs = o.runs;
  options.repeat = o.repeat;
  options.seed = o.seed;
  options.only = o.variants;
  options.sweep = o.sweep;
  ProgressBar bar;
  Result<rp::ReduceBenchReport> report =
      rp::run_reduce_bench(*backend->exec, options, [&bar](const rp::BenchProgress& p) {
        bar.update(p.fraction, p.stage);
        return true;
      });
  bar.finish();
  if (!report) {
    std::cerr << "coopviz: error: " << report.message() << "\n";
    return 1;
  }
  return show(*report, o.json);
}

}  // namespace

void register_bench_reduce(CLI::App& bench, CliState& state) {
  auto o = std::make_shared<ReduceCliOptions>();
  auto* cmd = bench.add_subcommand(
      "reduce", "Every reduction kernel checked, then timed against the copy bandwidth and CUB");
  cmd->add_option("--n", o->n, "Floats to sum (default 268435456 = 2^28)");
  cmd->add_option("--block", o->block, "Threads per block for every kernel")->capture_default_str();
  cmd->add_option("--runs", o->runs, "Timed runs; the median is reported")->capture_default_str();
  cmd->add_option("--repeat", o->repeat, "Back-to-back launches per timed run")
      ->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "Untimed launches first")->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of the input values")->capture_default_str();
  cmd->add_option("--variant", o->variants,
                  "Only these kernels (repeatable): " + rp::variant_ids());
  cmd->add_flag("--sweep", o->sweep, "Also sweep the block size of the tuned kernel");
  cmd->add_flag("--json", o->json, "Print the report as JSON (the format of assets/bench)");
  cmd->add_flag("--shipped", o->shipped, "Show the last GPU results shipped with coopviz");
  cmd->add_option("--backend", o->backend,
                  "gpu, or emu to run the checks on the emulator (times are then meaningless)")
      ->capture_default_str();
  cmd->callback([o, &state] {
    Result<BackendRequest> request = parse_backend_request(o->backend, "--backend", kNamedBackends);
    if (!request) return void(state.exit_code = usage_error(request.message()));
    state.exit_code = run(*o, *request);
  });
}

}  // namespace coop::app
