#include "app/exercise/counts.hpp"

#include <algorithm>
#include <tuple>

#include <nlohmann/json.hpp>

#include "app/exercise/exercise.hpp"
#include "device/trace/names.hpp"

namespace coop::app {
namespace {

using Json = nlohmann::json;

// The names under `key`, one string or a list of strings, each looked up by `named`; `words`
// names what they must be for the error.
template <class T, class Named>
Result<std::vector<T>> names_under(const Json& j, const char* key, Named named,
                                   const std::string& where, const char* words) {
  const Json& v = j[key];
  std::vector<Json> items = v.is_array() ? std::vector<Json>(v.begin(), v.end()) : std::vector{v};
  std::vector<T> out;
  for (const Json& item : items) {
    const std::string name = item.is_string() ? item.get<std::string>() : item.dump();
    const std::optional<T> found = item.is_string() ? named(name) : std::nullopt;
    if (!found)
      return Status::error(where + ": \"" + key + "\" '" + name + "' is not " + words +
                           " (one name, or a list of names)");
    out.push_back(*found);
  }
  if (out.empty()) return Status::error(where + ": \"" + key + "\" is an empty list");
  return out;
}

// "copies_in_flight >= N" (N a whole number): the N.
std::optional<uint32_t> in_flight_bound(const std::string& text) {
  const std::string head = "copies_in_flight >= ";
  if (!text.starts_with(head) || text.size() == head.size() || text.size() > head.size() + 6)
    return std::nullopt;
  uint32_t n = 0;
  for (size_t k = head.size(); k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return std::nullopt;
    n = n * 10 + uint32_t(text[k] - '0');
  }
  return n;
}

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
  if (!j.contains("event"))
    return Status::error(where + ": needs \"event\", an event kind (atomic, store, copy_wait, ...)");
  Result<std::vector<EventKind>> kinds = names_under<EventKind>(
      j, "event", event_kind_named, where, "an event kind (atomic, store, copy_wait, ...)");
  if (!kinds) return kinds.status();
  r.kinds = *kinds;
  if (j.contains("op") && j.contains("not_op"))
    return Status::error(where + ": \"op\" or \"not_op\", not both");
  for (const char* key : {"op", "not_op"}) {
    if (!j.contains(key)) continue;
    Result<std::vector<Op>> ops =
        names_under<Op>(j, key, op_named, where, "an op (atomic_add, shfl_down, reduce, ...)");
    if (!ops) return ops.status();
    r.ops = *ops;
    r.ops_excluded = std::string(key) == "not_op";
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
  if (j.contains("while")) {
    r.in_flight_at_least = in_flight_bound(text("while"));
    if (!r.in_flight_at_least)
      return Status::error(where +
                           ": \"while\" is \"copies_in_flight >= N\" (N a whole number below "
                           "1000000: the async copies a thread issued and has not waited for)");
  }
  if (j.contains("distinct")) {
    if (text("distinct") != "address")
      return Status::error(where + ": \"distinct\" is \"address\" (count the addresses, not the "
                                   "events)");
    r.distinct_addresses = true;
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

// Whether `e` is one of the events the rule counts (the windows of "between" and "while" aside).
bool counted(const CountRule& r, const Event& e) {
  if (std::find(r.kinds.begin(), r.kinds.end(), e.kind) == r.kinds.end()) return false;
  if (!r.ops.empty() &&
      (std::find(r.ops.begin(), r.ops.end(), e.op) != r.ops.end()) == r.ops_excluded)
    return false;
  if (r.shared && bool(e.flags & kFlagShared) != *r.shared) return false;
  return !r.extra || e.extra == *r.extra;
}

// "load/store", "collective (shfl_down)", "collective (but shfl, shfl_xor)".
std::string counted_words(const CountRule& r) {
  std::string words;
  for (EventKind k : r.kinds) {
    if (!words.empty()) words += '/';
    words += name_of(k);
  }
  if (r.ops.empty()) return words;
  words += r.ops_excluded ? " (but " : " (";
  for (size_t k = 0; k < r.ops.size(); ++k) {
    if (k > 0) words += ", ";
    words += name_of(r.ops[k]);
  }
  return words + ")";
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

// Which unit of `r.per` thread `thread` belongs to.
uint64_t unit_of(CountRule::Per per, uint64_t thread, uint64_t block_threads) {
  const uint64_t block = thread / block_threads, warps = (block_threads + 31) / 32;
  switch (per) {
    case CountRule::Per::Thread:
      return thread;
    case CountRule::Per::Warp:
      return block * warps + (thread % block_threads) / 32;
    case CountRule::Per::Block:
      return block;
    case CountRule::Per::Launch:
      break;
  }
  return 0;
}

std::string check_rule(const CountRule& r, const Trace& t) {
  const uint64_t block_threads = t.header.launch.block.count();
  if (block_threads == 0) return "";
  const Units units = units_of(r.per, t.header.launch);
  std::vector<long> counts(units.count, 0);
  // Per thread: inside the "between" window; the copies issued and not yet waited for.
  const uint64_t threads = units_of(CountRule::Per::Thread, t.header.launch).count;
  std::vector<bool> open(r.after ? threads : 0);
  std::vector<uint32_t> in_flight(r.in_flight_at_least ? threads : 0);
  // With "distinct": (unit, address) once per access; a shared offset is its block's own.
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> accesses;
  for (const Event& e : t.events) {
    if (e.thread >= threads) continue;
    if (r.after) {
      if (e.kind == *r.after) open[e.thread] = true;
      if (e.kind == *r.before) open[e.thread] = false;
      if (!open[e.thread]) continue;
    }
    if (r.in_flight_at_least) {
      uint32_t& flying = in_flight[e.thread];
      if (e.kind == EventKind::CopyIssue) ++flying;
      if (e.kind == EventKind::CopyWait) flying = std::min(flying, e.extra);
      if (flying < *r.in_flight_at_least) continue;
    }
    if (!counted(r, e)) continue;
    const uint64_t unit = unit_of(r.per, e.thread, block_threads);
    if (unit >= counts.size()) continue;
    if (!r.distinct_addresses) {
      ++counts[unit];
      continue;
    }
    const uint64_t owner = e.flags & kFlagShared ? e.thread / block_threads : ~uint64_t(0);
    accesses.emplace_back(unit, owner, e.address);
  }
  std::sort(accesses.begin(), accesses.end());
  accesses.erase(std::unique(accesses.begin(), accesses.end()), accesses.end());
  for (const auto& access : accesses) ++counts[std::get<0>(access)];
  for (uint64_t u = 0; u < counts.size(); ++u) {
    const bool many = r.at_most >= 0 && counts[u] > r.at_most;
    const bool few = r.at_least >= 0 && counts[u] < r.at_least;
    if (!many && !few) continue;
    const std::string made = r.distinct_addresses
                                 ? counted_words(r) + " events at " + std::to_string(counts[u]) +
                                       " distinct addresses"
                                 : std::to_string(counts[u]) + " " + counted_words(r) + " events";
    return r.says + ": " + unit_name(r.per, u, block_threads) + " made " + made +
           (r.after ? " between " + std::string(name_of(*r.after)) + " and " +
                          std::string(name_of(*r.before))
                    : "") +
           (r.in_flight_at_least ? " while at least " + std::to_string(*r.in_flight_at_least) +
                                       " of its async copies were in flight"
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
    for (EventKind k : r.kinds)
      if (k == EventKind::Load || k == EventKind::Store || k == EventKind::Fence) return true;
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
