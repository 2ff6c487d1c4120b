// coopviz ncu-compare --ncu FILE.csv --emulator FILE.json [--out ncu.json] [--json], or
// --metrics for the metrics to profile: Nsight
// Compute's memory counters of a lesson's launches beside the emulator's analysis of the same
// launches (app/ncu_compare.hpp), with the reason wherever they differ. scripts/gpu-check.sh ncu
// runs it on the GPU machine; the file written with --out is the lesson folder's ncu.json.
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli/commands.hpp"
#include "app/ncu_compare.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace {

struct NcuCompareOptions {
  std::string ncu_csv, emulator_json, out, device;
  bool json = false;
};

Result<std::string> read_file(const std::string& path, const char* what) {
  Result<std::string> text = read_user_file(path, kSourceFileLimit);
  if (!text) return Status::error(std::string(what) + ": " + text.message());
  return text;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::ostringstream out;
  out << std::put_time(std::gmtime(&t), "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

void print_human(const std::vector<LaunchComparison>& launches) {
  for (const LaunchComparison& c : launches) {
    std::cout << c.kernel << " (launch " << c.launch << ")"
              << (c.profiled ? "" : ": not profiled by Nsight Compute") << "\n";
    for (const CounterRow& r : c.rows) {
      std::cout << "  " << std::left << std::setw(36) << r.counter << " emulator " << std::setw(10)
                << r.emulator << " ncu " << std::setw(10)
                << (r.ncu ? (std::ostringstream() << *r.ncu).str() : "-")
                << (r.agree ? "agree" : "DIFFER: " + r.note) << "\n";
    }
  }
}

}  // namespace

void register_ncu_compare(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "ncu-compare",
      "Compare Nsight Compute's memory counters with the emulator's analysis of the same launches");
  auto o = std::make_shared<NcuCompareOptions>();
  cmd->add_option("--ncu", o->ncu_csv, "Output of `ncu --csv --metrics ...` for the lesson's run");
  cmd->add_option("--emulator", o->emulator_json,
                  "Output of `coopviz run LESSON --backend emu --record-memory --json`");
  auto metrics = std::make_shared<bool>(false);
  cmd->add_flag("--metrics", *metrics,
                "Print the metrics to profile (what `ncu --metrics` takes) and nothing else");
  cmd->add_option("--out", o->out, "Write the comparison as JSON (the lesson folder's ncu.json)");
  cmd->add_option("--device", o->device, "The GPU that was profiled, as its name reads");
  cmd->add_flag("--json", o->json, "Print the comparison as JSON");
  cmd->callback([o, metrics, &state] {
    if (*metrics) {
      std::cout << ncu_memory_metrics() << "\n";
      return void(state.exit_code = 0);
    }
    if (o->ncu_csv.empty() || o->emulator_json.empty())
      return void(state.exit_code = usage_error(
                      "ncu-compare needs --ncu FILE.csv and --emulator FILE.json (or --metrics)"));
    Result<std::string> csv = read_file(o->ncu_csv, "the ncu CSV");
    if (!csv) return void(state.exit_code = usage_error(csv.message()));
    Result<std::string> emu_text = read_file(o->emulator_json, "the emulator's report");
    if (!emu_text) return void(state.exit_code = usage_error(emu_text.message()));
    const nlohmann::json emu = nlohmann::json::parse(*emu_text, nullptr, false);
    if (emu.is_discarded() || !emu.is_object() || !emu.contains("memory"))
      return void(state.exit_code = usage_error(
                      o->emulator_json + " is not a `coopviz run --json` report with \"memory\""));
    Result<std::vector<NcuLaunch>> ncu = parse_ncu_csv(*csv);
    if (!ncu) return void(state.exit_code = usage_error(o->ncu_csv + ": " + ncu.message()));
    Result<std::vector<EmulatorLaunch>> emulated = emulator_launches(emu["memory"]);
    if (!emulated)
      return void(state.exit_code = usage_error(o->emulator_json + ": " + emulated.message()));
    const std::vector<LaunchComparison> launches = compare_counters(*emulated, *ncu);
    const nlohmann::json out =
        comparison_json(launches, emu.value("lesson", ""), o->device, utc_now());
    if (!o->out.empty()) {
      std::ofstream file(o->out);
      file << out.dump(2) << "\n";
      if (!file) {
        std::cerr << "coopviz: error: cannot write " << o->out << "\n";
        return void(state.exit_code = 1);
      }
    }
    if (o->json)
      std::cout << out.dump(2) << "\n";
    else
      print_human(launches);
    // 0 when every counter agrees; 1 when one differs (the output says why).
    state.exit_code = out["agree"].get<bool>() ? 0 : 1;
  });
}

}  // namespace coop::app
