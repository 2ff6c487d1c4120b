#include "app/ncu_compare.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace coop::app {
namespace {

constexpr const char* kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kGlobalStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kSharedLoadConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
constexpr const char* kSharedLoadWavefronts =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreWavefronts =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";

// One line of CSV: fields split at commas outside quotes, quotes removed, "" read as ".
std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

// "1,024" or "4096" or "12.5"; nothing for "n/a" and other text.
std::optional<double> metric_value(std::string text) {
  std::erase(text, ',');
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> metric(const NcuLaunch& l, const char* name) {
  auto it = l.metrics.find(name);
  if (it == l.metrics.end()) return std::nullopt;
  return it->second;
}

// "8,1,1" of "(8, 1, 1)" (ncu's Grid Size and Block Size): the digits and commas.
std::string dims_of(std::string_view text) {
  std::string out;
  for (char c : text)
    if ((c >= '0' && c <= '9') || c == ',') out += c;
  return out;
}

std::string dims_of_json(const nlohmann::json& xyz) {
  if (!xyz.is_array() || xyz.size() != 3) return "";
  std::string out;
  for (const nlohmann::json& v : xyz) {
    if (!v.is_number_unsigned()) return "";
    out += (out.empty() ? "" : ",") + std::to_string(v.get<uint64_t>());
  }
  return out;
}

double per_request(double sectors, double requests) {
  return requests > 0 ? sectors / requests : 0;
}

std::string number(double v) {
  std::ostringstream out;
  out << (std::abs(v - std::round(v)) < 1e-9 ? std::round(v) : v);
  return out.str();
}

// Why the GPU's global requests or sectors differ from the emulator's, where the counts say it.
std::string global_note(double emu_requests, double emu_sectors, double ncu_requests,
                        double ncu_sectors, bool requests_row) {
  // k narrower accesses each touching the same sectors on the emulator's side, one wide access
  // on the GPU's: requests and sectors both k times fewer.
  // (Half as many could as well be a load the compiler made once instead of twice.)
  if (ncu_requests > 0 && ncu_requests * 4 == emu_requests && ncu_sectors * 4 == emu_sectors)
    return "the GPU moved each lane's value in one 16-byte access (a vector type such as float4, "
           "or the compiler's widening) where the emulator records four 4-byte accesses over the "
           "same sectors: 4 times the requests and sectors";
  if (requests_row) {
    if (ncu_requests < emu_requests && ncu_sectors == emu_sectors)
      return "the compiler vectorized: " + number(emu_requests) +
             " requests of the source became " + number(ncu_requests) +
             " wider ones (8- or 16-byte accesses) over the same sectors";
    if (ncu_requests < emu_requests)
      return "the GPU made fewer requests than the source's accesses: the compiler merged or "
             "hoisted accesses (a value loaded once and kept in a register)";
    return "the GPU made more requests than the source's accesses: the compiler split or repeated "
           "accesses, or the profiled launch is not the emulated one";
  }
  if (ncu_sectors < emu_sectors)
    return "the GPU touched fewer sectors: the compiler hoisted or merged accesses, so some of "
           "the source's accesses never reached memory";
  return "the GPU touched more sectors than the source's accesses: accesses the compiler added, "
         "or a profiled launch that is not the emulated one";
}

std::string shared_note(double emu_wavefronts, double ncu_wavefronts, bool conflicts_row) {
  if (conflicts_row && emu_wavefronts == ncu_wavefronts)
    return "the wavefronts agree: Nsight Compute counts the extra wavefronts as conflicts "
           "differently from the 32-bank rule";
  if (ncu_wavefronts < emu_wavefronts)
    return "the GPU needed fewer passes: the compiler removed, merged or widened shared accesses "
           "(a value kept in a register, 8- or 16-byte shared accesses)";
  return "the GPU needed more passes than the 32-bank rule predicts: shared accesses the compiler "
         "added or widened, or wavefronts the hardware spends beyond bank conflicts";
}

CounterRow row(std::string counter, double emu, std::optional<double> ncu, std::string note) {
  CounterRow r;
  r.counter = std::move(counter);
  r.emulator = emu;
  r.ncu = ncu;
  r.agree = ncu && std::abs(*ncu - emu) < 1e-9;
  if (!ncu)
    r.note = "not measured: Nsight Compute gave no value";
  else if (!r.agree)
    r.note = std::move(note);
  return r;
}

void add_global(LaunchComparison& c, const char* kind, double emu_req, double emu_sec,
                std::optional<double> ncu_req, std::optional<double> ncu_sec) {
  if (emu_req == 0 && ncu_req.value_or(0) == 0) return;  // no such accesses on either side
  const std::string what = std::string("global ") + kind;
  const double nr = ncu_req.value_or(0), ns = ncu_sec.value_or(0);
  c.rows.push_back(
      row(what + " requests", emu_req, ncu_req, global_note(emu_req, emu_sec, nr, ns, true)));
  c.rows.push_back(
      row(what + " sectors", emu_sec, ncu_sec, global_note(emu_req, emu_sec, nr, ns, false)));
  std::optional<double> ncu_ratio;
  if (ncu_req && ncu_sec) ncu_ratio = per_request(*ncu_sec, *ncu_req);
  c.rows.push_back(row(what + " sectors per request", per_request(emu_sec, emu_req), ncu_ratio,
                       nr != emu_req ? "follows from the requests above"
                                     : global_note(emu_req, emu_sec, nr, ns, false)));
}

void add_shared(LaunchComparison& c, const char* kind, double emu_wf, double emu_conf,
                std::optional<double> ncu_wf, std::optional<double> ncu_conf) {
  if (emu_wf == 0 && ncu_wf.value_or(0) == 0) return;
  const std::string what = std::string("shared ") + kind;
  const double nw = ncu_wf.value_or(0);
  c.rows.push_back(row(what + " wavefronts", emu_wf, ncu_wf, shared_note(emu_wf, nw, false)));
  c.rows.push_back(
      row(what + " bank conflicts", emu_conf, ncu_conf, shared_note(emu_wf, nw, true)));
}

}  // namespace

const std::string& ncu_memory_metrics() {
  static const std::string list = [] {
    std::string out;
    for (const char* m : {kGlobalLoadSectors, kGlobalLoadRequests, kGlobalStoreSectors,
                          kGlobalStoreRequests, kSharedLoadConflicts, kSharedStoreConflicts,
                          kSharedLoadWavefronts, kSharedStoreWavefronts})
      out += (out.empty() ? "" : ",") + std::string(m);
    return out;
  }();
  return list;
}

std::string kernel_base_name(std::string_view name) {
  // Parameters and template arguments go first (they may hold "::" themselves), then the
  // namespaces and a return type.
  if (const size_t paren = name.find('('); paren != std::string_view::npos)
    name = name.substr(0, paren);
  if (const size_t angle = name.find('<'); angle != std::string_view::npos)
    name = name.substr(0, angle);
  if (const size_t colons = name.rfind("::"); colons != std::string_view::npos)
    name = name.substr(colons + 2);
  if (const size_t space = name.rfind(' '); space != std::string_view::npos)
    name = name.substr(space + 1);
  return std::string(name);
}

Result<std::vector<NcuLaunch>> parse_ncu_csv(std::string_view csv) {
  std::istringstream in{std::string(csv)};
  std::string line;
  std::vector<std::string> header;
  int id_col = -1, kernel_col = -1, metric_col = -1, value_col = -1, grid_col = -1, block_col = -1;
  std::vector<NcuLaunch> out;
  std::map<std::string, size_t> by_id;     // ncu's launch ID: its index in `out`
  std::map<std::string, int> launches_of;  // per kernel, how many launches so far
  while (std::getline(in, line)) {
    if (line.empty() || line.starts_with("==")) continue;  // ncu's progress lines
    std::vector<std::string> f = csv_fields(line);
    if (header.empty()) {
      // The profiled program's own output may come first (without --log-file): the header is
      // the first line that names the metric columns.
      if (std::find(f.begin(), f.end(), "Metric Name") == f.end()) continue;
      header = f;
      for (int i = 0; i < int(f.size()); ++i) {
        if (f[size_t(i)] == "ID") id_col = i;
        if (f[size_t(i)] == "Kernel Name") kernel_col = i;
        if (f[size_t(i)] == "Metric Name") metric_col = i;
        if (f[size_t(i)] == "Metric Value") value_col = i;
        if (f[size_t(i)] == "Grid Size") grid_col = i;
        if (f[size_t(i)] == "Block Size") block_col = i;
      }
      if (id_col < 0 || kernel_col < 0 || value_col < 0)
        return Status::error(
            "ncu CSV: the header lacks one of the columns \"ID\", \"Kernel Name\", "
            "\"Metric Value\" (run ncu with --csv and without --page raw)");
      continue;
    }
    const size_t needed = size_t(std::max({id_col, kernel_col, metric_col, value_col})) + 1;
    if (f.size() < needed) continue;  // a line that is not a metric row
    auto [it, added] = by_id.try_emplace(f[size_t(id_col)], out.size());
    if (added) {
      out.push_back({kernel_base_name(f[size_t(kernel_col)]), 0, "", {}});
      out.back().launch = ++launches_of[out.back().kernel];
      if (grid_col >= 0 && block_col >= 0 && size_t(std::max(grid_col, block_col)) < f.size())
        out.back().shape = dims_of(f[size_t(grid_col)]) + " x " + dims_of(f[size_t(block_col)]);
    }
    NcuLaunch* launch = &out[it->second];
    if (std::optional<double> v = metric_value(f[size_t(value_col)]))
      launch->metrics[f[size_t(metric_col)]] = *v;
  }
  if (header.empty())
    return Status::error(
        "ncu CSV: no header line naming \"Metric Name\" (is this `ncu --csv` "
        "output?)");
  if (out.empty()) return Status::error("ncu CSV: no profiled launch (did ncu find the kernels?)");
  return out;
}

Result<std::vector<EmulatorLaunch>> emulator_launches(const nlohmann::json& memory) {
  if (!memory.is_array())
    return Status::error(
        "emulator report: \"memory\" must be a list (coopviz run --record-memory "
        "--json)");
  std::map<size_t, EmulatorLaunch> by_launch;
  for (const nlohmann::json& m : memory) {
    for (const char* key : {"kernel", "launch", "space", "kind", "requests"})
      if (!m.contains(key))
        return Status::error(std::string("emulator report: a memory entry lacks \"") + key + "\"");
    EmulatorLaunch& l = by_launch[m["launch"].get<size_t>()];
    // Nsight Compute's names lose their template arguments (kernel_base_name): so do these.
    l.kernel = kernel_base_name(m["kernel"].get<std::string>());
    if (m.contains("grid") && m.contains("block"))
      l.shape = dims_of_json(m["grid"]) + " x " + dims_of_json(m["block"]);
    const bool shared = m["space"] == "shared", store = m["kind"] == "store";
    const double requests = m["requests"].get<double>();
    if (shared) {
      (store ? l.shared_store_wavefronts : l.shared_load_wavefronts) += m.value("wavefronts", 0.0);
      (store ? l.shared_store_conflicts : l.shared_load_conflicts) +=
          m.value("bank_conflicts", 0.0);
    } else {
      (store ? l.global_store_requests : l.global_load_requests) += requests;
      (store ? l.global_store_sectors : l.global_load_sectors) += m.value("sectors", 0.0);
    }
  }
  std::vector<EmulatorLaunch> out;
  std::map<std::string, int> launches_of;
  for (auto& [index, l] : by_launch) {
    l.launch = ++launches_of[l.kernel];
    out.push_back(l);
  }
  return out;
}

std::vector<LaunchComparison> compare_counters(const std::vector<EmulatorLaunch>& emulator,
                                               const std::vector<NcuLaunch>& ncu) {
  std::vector<LaunchComparison> out;
  // Both sides number their launches by kernel and, where both know it, by shape too.
  const bool by_shape =
      std::all_of(emulator.begin(), emulator.end(), [](auto& e) { return !e.shape.empty(); }) &&
      std::all_of(ncu.begin(), ncu.end(), [](auto& l) { return !l.shape.empty(); });
  auto key = [&](const std::string& kernel, const std::string& shape) {
    return by_shape ? kernel + " " + shape : kernel;
  };
  std::map<std::string, int> emulated_so_far;
  for (const EmulatorLaunch& e : emulator) {
    LaunchComparison c;
    c.kernel = e.kernel;
    c.launch = e.launch;
    const std::string k = key(e.kernel, e.shape);
    const int nth = by_shape ? ++emulated_so_far[k] : e.launch;
    const NcuLaunch none;
    const NcuLaunch* n = &none;
    int seen = 0;
    for (const NcuLaunch& l : ncu)
      if (key(l.kernel, l.shape) == k && ++seen == nth) {
        n = &l;
        break;
      }
    c.profiled = n != &none;
    add_global(c, "load", e.global_load_requests, e.global_load_sectors,
               metric(*n, kGlobalLoadRequests), metric(*n, kGlobalLoadSectors));
    add_global(c, "store", e.global_store_requests, e.global_store_sectors,
               metric(*n, kGlobalStoreRequests), metric(*n, kGlobalStoreSectors));
    add_shared(c, "load", e.shared_load_wavefronts, e.shared_load_conflicts,
               metric(*n, kSharedLoadWavefronts), metric(*n, kSharedLoadConflicts));
    add_shared(c, "store", e.shared_store_wavefronts, e.shared_store_conflicts,
               metric(*n, kSharedStoreWavefronts), metric(*n, kSharedStoreConflicts));
    if (!c.profiled)
      for (CounterRow& r : c.rows) r.note = "not measured: Nsight Compute profiled no such launch";
    out.push_back(std::move(c));
  }
  return out;
}

nlohmann::json comparison_json(const std::vector<LaunchComparison>& launches,
                               const std::string& lesson, const std::string& device,
                               const std::string& measured_at) {
  nlohmann::json out = {{"lesson", lesson},
                        {"device", device},
                        {"measured_at", measured_at},
                        {"launches", nlohmann::json::array()}};
  bool all_agree = true;
  for (const LaunchComparison& c : launches) {
    nlohmann::json counters = nlohmann::json::array();
    for (const CounterRow& r : c.rows) {
      counters.push_back({{"counter", r.counter},
                          {"emulator", r.emulator},
                          {"ncu", r.ncu ? nlohmann::json(*r.ncu) : nlohmann::json()},
                          {"agree", r.agree},
                          {"note", r.note}});
      all_agree = all_agree && r.agree;
    }
    out["launches"].push_back({{"kernel", c.kernel},
                               {"launch", c.launch},
                               {"profiled", c.profiled},
                               {"counters", counters}});
  }
  out["agree"] = all_agree;
  return out;
}

Result<std::vector<LaunchComparison>> read_comparison(std::string_view json_text,
                                                      std::string* device) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("launches") || !j["launches"].is_array())
    return Status::error("ncu.json: not an object with a \"launches\" list");
  if (device) *device = j.value("device", std::string());
  std::vector<LaunchComparison> out;
  try {
    for (const nlohmann::json& l : j["launches"]) {
      LaunchComparison c;
      c.kernel = l.at("kernel").get<std::string>();
      c.launch = l.at("launch").get<int>();
      c.profiled = l.value("profiled", false);
      for (const nlohmann::json& r : l.at("counters")) {
        CounterRow row;
        row.counter = r.at("counter").get<std::string>();
        row.emulator = r.at("emulator").get<double>();
        if (!r.at("ncu").is_null()) row.ncu = r["ncu"].get<double>();
        row.agree = r.at("agree").get<bool>();
        row.note = r.value("note", std::string());
        c.rows.push_back(std::move(row));
      }
      out.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::error(std::string("ncu.json: ") + e.what());
  }
  return out;
}

}  // namespace coop::app
