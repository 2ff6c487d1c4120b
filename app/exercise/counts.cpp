#include "app/exercise/counts.hpp"

#include <nlohmann/json.hpp>

#include "app/exercise/exercise.hpp"
#include "device/trace/names.hpp"

namespace coop::app {
namespace {

using Json = nlohmann::json;

Result<CountRule> rule_from(const Json& j, const std::string& where) {
  if (!j.is_object()) return Status::error(where + ": a rule is a JSON object");
  const auto text = [&](const char* key) -> std::string {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
  };
  CountRule r;
  r.kernel = text("kernel");
  r.says = text("says");
  if (r.kernel.empty() || r.says.empty())
    return Status::error(where + ": needs \"kernel\" and \"says\" (strings)");
  const std::optional<EventKind> kind = event_kind_named(text("event"));
  if (!kind)
    return Status::error(where + ": \"event\" '" + text("event") +
                         "' is not an event kind (atomic, store, copy_wait, ...)");
  r.kind = *kind;
  if (j.contains("op")) {
    r.op = op_named(text("op"));
    if (!r.op) return Status::error(where + ": \"op\" '" + text("op") + "' is not an op");
  }
  if (j.contains("memory")) {
    if (text("memory") != "shared" && text("memory") != "global")
      return Status::error(where + ": \"memory\" is \"shared\" or \"global\"");
    r.shared = text("memory") == "shared";
  }
  if (j.contains("extra")) {
    if (!j["extra"].is_number_unsigned())
      return Status::error(where + ": \"extra\" is a number from 0");
    r.extra = j["extra"].get<uint32_t>();
  }
  if (j.contains("between")) {
    const std::string between = text("between");
    const size_t dots = between.find("..");
    if (dots != std::string::npos) {
      r.after = event_kind_named(between.substr(0, dots));
      r.before = event_kind_named(between.substr(dots + 2));
    }
    if (!r.after || !r.before)
      return Status::error(where +
                           ": \"between\" is two event kinds, \"FIRST..SECOND\" "
                           "(\"barrier_arrive..barrier_wait\")");
  }
  const std::string per = text("per");
  if (per == "thread")
    r.per = CountRule::Per::Thread;
  else if (per == "warp")
    r.per = CountRule::Per::Warp;
  else if (per == "block")
    r.per = CountRule::Per::Block;
  else if (per == "launch")
    r.per = CountRule::Per::Launch;
  else
    return Status::error(where + ": \"per\" is thread, warp, block or launch");
  for (const auto& [key, bound] : {std::pair{"at_most", &r.at_most}, {"at_least", &r.at_least}})
    if (j.contains(key)) {
      if (!j[key].is_number_unsigned())
        return Status::error(where + ": \"" + key + "\" is a count from 0");
      *bound = j[key].get<long>();
    }
  if (r.at_most < 0 && r.at_least < 0)
    return Status::error(where + ": needs \"at_most\" or \"at_least\"");
  return r;
}

// Whether `e` is one of the events the rule counts (the split-barrier window aside).
bool counted(const CountRule& r, const Event& e) {
  if (e.kind != r.kind) return false;
  if (r.op && e.op != *r.op) return false;
  if (r.shared && bool(e.flags & kFlagShared) != *r.shared) return false;
  return !r.extra || e.extra == *r.extra;
}

struct Units {
  uint64_t count = 0;
  std::string noun;
};

Units units_of(CountRule::Per per, const LaunchConfig& launch) {
  const uint64_t threads = launch.block.count(), blocks = launch.grid.count();
  switch (per) {
    case CountRule::Per::Thread:
      return {threads * blocks, "thread"};
    case CountRule::Per::Warp:
      return {blocks * ((threads + 31) / 32), "warp"};
    case CountRule::Per::Block:
      return {blocks, "block"};
    case CountRule::Per::Launch:
      break;
  }
  return {1, "launch"};
}

// "warp 3 of block 1", "thread 37 (block 1)", "block 2", "the launch".
std::string unit_name(CountRule::Per per, uint64_t unit, uint64_t block_threads) {
  const uint64_t warps = (block_threads + 31) / 32;
  switch (per) {
    case CountRule::Per::Thread:
      return "thread " + std::to_string(unit) + " (block " + std::to_string(unit / block_threads) +
             ")";
    case CountRule::Per::Warp:
      return "warp " + std::to_string(unit % warps) + " of block " + std::to_string(unit / warps);
    case CountRule::Per::Block:
      return "block " + std::to_string(unit);
    case CountRule::Per::Launch:
      break;
  }
  return "the launch";
}

std::string check_rule(const CountRule& r, const Trace& t) {
  const uint64_t block_threads = t.header.launch.block.count();
  if (block_threads == 0) return "";
  const Units units = units_of(r.per, t.header.launch);
  std::vector<long> counts(units.count, 0);
  std::vector<bool> open(r.after ? units_of(CountRule::Per::Thread, t.header.launch).count : 0);
  const uint64_t warps = (block_threads + 31) / 32;
  for (const Event& e : t.events) {
    if (r.after && e.thread < open.size()) {
      if (e.kind == *r.after) open[e.thread] = true;
      if (e.kind == *r.before) open[e.thread] = false;
      if (!open[e.thread]) continue;
    }
    if (!counted(r, e)) continue;
    const uint64_t block = e.thread / block_threads;
    uint64_t unit = 0;
    if (r.per == CountRule::Per::Thread) unit = e.thread;
    if (r.per == CountRule::Per::Warp) unit = block * warps + (e.thread % block_threads) / 32;
    if (r.per == CountRule::Per::Block) unit = block;
    if (unit < counts.size()) ++counts[unit];
  }
  for (uint64_t u = 0; u < counts.size(); ++u) {
    const bool many = r.at_most >= 0 && counts[u] > r.at_most;
    const bool few = r.at_least >= 0 && counts[u] < r.at_least;
    if (!many && !few) continue;
    return r.says + ": " + unit_name(r.per, u, block_threads) + " made " +
           std::to_string(counts[u]) + " " + std::string(r.op ? name_of(*r.op) : name_of(r.kind)) +
           " events" +
           (r.after ? " between " + std::string(name_of(*r.after)) + " and " +
                          std::string(name_of(*r.before))
                    : "") +
           ", " +
           (many ? "at most " + std::to_string(r.at_most)
                 : "at least " + std::to_string(r.at_least)) +
           " allowed";
  }
  return "";
}

}  // namespace

Result<std::vector<CountRule>> read_count_rules(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::vector<CountRule>{};
  Result<std::string> text = read_whole_file(file);
  if (!text) return text.status();
  const Json j = Json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_array())
    return Status::error(file.string() + ": not a JSON array of count rules");
  std::vector<CountRule> rules;
  for (size_t k = 0; k < j.size(); ++k) {
    Result<CountRule> r = rule_from(j[k], file.string() + ": rule " + std::to_string(k + 1));
    if (!r) return r.status();
    rules.push_back(*r);
  }
  return rules;
}

bool counts_need_memory(const std::vector<CountRule>& rules) {
  for (const CountRule& r : rules)
    if (r.kind == EventKind::Load || r.kind == EventKind::Store || r.kind == EventKind::Fence)
      return true;
  return false;
}

std::string broken_count(const std::vector<CountRule>& rules, const Trace& launch) {
  for (const CountRule& r : rules) {
    if (r.kernel != launch.header.kernel) continue;
    if (std::string broken = check_rule(r, launch); !broken.empty()) return broken;
  }
  return "";
}

}  // namespace coop::app
