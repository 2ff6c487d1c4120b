// ReduceBenchReport <-> JSON. The same text is what `coopviz bench reduce --json` prints, what
// assets/bench/reduce-last.json ships, and what the GUI loads.
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/bench/reduce/bench.hpp"
#include "device/trace/user_file.hpp"
#include "lessons/lesson.hpp"

extern const char coop_shipped_reduce_bench[];

namespace coop::lessons::reduction_performance {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "coopviz-reduce-bench";
constexpr int kVersion = 1;

// JSON has no infinity: an unbounded error bound is written as null.
json number_or_null(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}
double number_or_inf(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::numeric_limits<double>::infinity();
  return j[key].get<double>();
}

json timing_json(const Timing& t) {
  return {{"median_ms", t.median_ms}, {"min_ms", t.min_ms}, {"max_ms", t.max_ms}, {"runs", t.runs}};
}
Timing timing_from(const json& j) {
  Timing t;
  t.median_ms = j.value("median_ms", 0.0);
  t.min_ms = j.value("min_ms", 0.0);
  t.max_ms = j.value("max_ms", 0.0);
  t.runs = j.value("runs", 0u);
  return t;
}

json check_json(const SumCheck& c) {
  return {{"got", c.got},
          {"reference", c.reference},
          {"error", c.error},
          {"bound", number_or_null(c.bound)},
          {"relative_error", c.relative_error()},
          {"relative_bound", number_or_null(c.relative_bound())},
          {"depth", c.depth},
          {"exact", c.exact},
          {"pass", c.pass}};
}
SumCheck check_from(const json& j) {
  SumCheck c;
  c.got = j.value("got", 0.0);
  c.reference = j.value("reference", 0.0);
  c.error = j.value("error", 0.0);
  c.bound = number_or_inf(j, "bound");
  c.depth = j.value("depth", uint64_t(0));
  c.exact = j.value("exact", false);
  c.pass = j.value("pass", false);
  return c;
}

Family family_from(const std::string& s) {
  for (Family f : {Family::Seed, Family::Progression, Family::Tuned, Family::Library})
    if (s == to_string(f)) return f;
  return Family::Progression;
}

json variant_json(const VariantResult& v) {
  json j = {{"id", v.id},
            {"title", v.title},
            {"family", to_string(v.family)},
            {"launch",
             {{"grid", v.config.grid.x},
              {"block", v.config.block.x},
              {"mode", to_string(v.config.mode)}}},
            {"sum", check_json(v.sum)},
            {"exact", check_json(v.exact)},
            {"timing", timing_json(v.timing)},
            {"gbs", v.gbs},
            {"percent_of_copy", v.percent_of_copy},
            {"ratio_to_cub", v.ratio_to_cub},
            {"ok", v.ok()}};
  if (!v.error.empty()) j["error"] = v.error;
  return j;
}
VariantResult variant_from(const json& j) {
  VariantResult v;
  v.id = j.value("id", "");
  v.title = j.value("title", "");
  v.family = family_from(j.value("family", ""));
  if (j.contains("launch")) {
    const json& l = j["launch"];
    v.config.grid.x = l.value("grid", 1u);
    v.config.block.x = l.value("block", 1u);
    v.config.mode = l.value("mode", "") == to_string(LaunchMode::Cooperative)
                        ? LaunchMode::Cooperative
                        : LaunchMode::Normal;
  }
  if (j.contains("sum")) v.sum = check_from(j["sum"]);
  if (j.contains("exact")) v.exact = check_from(j["exact"]);
  if (j.contains("timing")) v.timing = timing_from(j["timing"]);
  v.gbs = j.value("gbs", 0.0);
  v.percent_of_copy = j.value("percent_of_copy", 0.0);
  v.ratio_to_cub = j.value("ratio_to_cub", 0.0);
  v.error = j.value("error", "");
  return v;
}

json sweep_json(const BlockSweep& s) {
  json points = json::array();
  for (const SweepPoint& p : s.points) {
    json jp = {{"block", p.block},
               {"grid", p.grid},
               {"occupancy", p.occupancy},
               {"active_blocks_per_sm", p.active_blocks_per_sm},
               {"limiting", p.limiting},
               {"gbs", p.gbs},
               {"timing", timing_json(p.timing)}};
    if (!p.error.empty()) jp["error"] = p.error;
    points.push_back(jp);
  }
  return {{"variant", s.variant}, {"n", s.n}, {"points", points}};
}
BlockSweep sweep_from(const json& j) {
  BlockSweep s;
  s.variant = j.value("variant", "");
  s.n = j.value("n", uint64_t(0));
  for (const json& jp : j.value("points", json::array())) {
    SweepPoint p;
    p.block = jp.value("block", 0u);
    p.grid = jp.value("grid", 0u);
    p.occupancy = jp.value("occupancy", 0.0);
    p.active_blocks_per_sm = jp.value("active_blocks_per_sm", 0);
    p.limiting = jp.value("limiting", std::vector<std::string>{});
    p.gbs = jp.value("gbs", 0.0);
    if (jp.contains("timing")) p.timing = timing_from(jp["timing"]);
    p.error = jp.value("error", "");
    s.points.push_back(std::move(p));
  }
  return s;
}

}  // namespace

std::string report_to_json(const ReduceBenchReport& r, int indent) {
  json variants = json::array();
  for (const VariantResult& v : r.variants) variants.push_back(variant_json(v));
  const BenchGoals g = goals_of(r);
  json j = {{"format", kFormat},
            {"version", kVersion},
            {"device",
             {{"name", r.device},
              {"arch", r.arch},
              {"sm_count", r.sm_count},
              {"theoretical_gbs", r.theoretical_gbs}}},
            {"backend", r.backend},
            {"measured_at", r.measured_at},
            {"coopviz_version", r.coopviz_version},
            {"n", r.n},
            {"bytes", r.bytes},
            {"exact_n", r.exact_n},
            {"block", r.block},
            {"warmup", r.warmup},
            {"runs", r.runs},
            {"repeat", r.repeat},
            {"seed", r.seed},
            {"copy", {{"gbs", r.copy_gbs}, {"timing", timing_json(r.copy)}}},
            {"variants", variants},
            {"cub", variant_json(r.cub)},
            {"best", r.best},
            // Derived from the fields above; written for readers, recomputed on load.
            {"goals",
             {{"best_vs_cub", g.best_vs_cub},
              {"best_vs_copy", g.best_vs_copy},
              {"meets_cub", g.meets_cub},
              {"within_95_percent_of_cub", g.within_95_percent_of_cub},
              {"meets_90_percent_of_copy", g.meets_copy}}},
            {"notes", r.notes}};
  if (r.sweep) j["sweep"] = sweep_json(*r.sweep);
  return j.dump(indent);
}

Result<ReduceBenchReport> report_from_json(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Status::error("not a JSON object (expected a coopviz reduction benchmark report)");
  if (j.value("format", "") != kFormat)
    return Status::error("format is '" + j.value("format", "") + "', expected '" + kFormat + "'");
  if (j.value("version", 0) != kVersion)
    return Status::error("report version " + std::to_string(j.value("version", 0)) +
                         " is not the supported version " + std::to_string(kVersion));
  try {
    ReduceBenchReport r;
    const json& d = j.at("device");
    r.device = d.value("name", "");
    r.arch = d.value("arch", "");
    r.sm_count = d.value("sm_count", 0);
    r.theoretical_gbs = d.value("theoretical_gbs", 0.0);
    r.backend = j.value("backend", "");
    r.measured_at = j.value("measured_at", "");
    r.coopviz_version = j.value("coopviz_version", "");
    r.n = j.value("n", uint64_t(0));
    r.bytes = j.value("bytes", uint64_t(0));
    r.exact_n = j.value("exact_n", uint64_t(0));
    r.block = j.value("block", 0u);
    r.warmup = j.value("warmup", 0u);
    r.runs = j.value("runs", 0u);
    r.repeat = j.value("repeat", 0u);
    r.seed = j.value("seed", uint64_t(0));
    r.copy_gbs = j.at("copy").value("gbs", 0.0);
    r.copy = timing_from(j.at("copy").value("timing", json::object()));
    for (const json& v : j.at("variants")) r.variants.push_back(variant_from(v));
    r.cub = variant_from(j.at("cub"));
    r.best = j.value("best", "");
    r.notes = j.value("notes", std::vector<std::string>{});
    if (j.contains("sweep")) r.sweep = sweep_from(j["sweep"]);
    return r;
  } catch (const json::exception& e) {
    return Status::error(std::string("malformed reduction benchmark report: ") + e.what());
  }
}

Result<ReduceBenchReport> load_report(const std::string& path) {
  Result<std::string> text = read_user_file(path, kSourceFileLimit);
  if (!text) return text.status();
  Result<ReduceBenchReport> r = report_from_json(*text);
  if (!r) return Status::error(path + ": " + r.message());
  return r;
}

Result<ReduceBenchReport> shipped_report() {
  const std::string text = coop_shipped_reduce_bench;
  if (text.empty())
    return Status::error(
        "no measured GPU results are available yet (assets/bench/reduce-last.json "
        "is produced by `coopviz bench reduce --sweep --json` on a GPU)");
  Result<ReduceBenchReport> r = report_from_json(text);
  if (!r) return Status::error("assets/bench/reduce-last.json: " + r.message());
  if (r->backend != "gpu")
    return Status::error("assets/bench/reduce-last.json was not measured on a GPU");
  return r;
}

std::string shipped_summary() {
  Result<ReduceBenchReport> r = shipped_report();
  if (!r) return r.message();
  const VariantResult* best = r->best_result();
  std::string s = r->device + ", " + r->measured_at.substr(0, 10) + ", n = " + std::to_string(r->n);
  if (best)
    s += ": " + best->id + " " + format_float(best->gbs, 4) +
         " GB/s = " + format_float(best->percent_of_copy, 3) + " % of copy, " +
         format_float(best->ratio_to_cub, 3) + " x CUB";
  return s;
}

}  // namespace coop::lessons::reduction_performance
