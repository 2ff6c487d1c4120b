#include "lessons/value_claims.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "device/launch/launch_config.hpp"
#include "device/trace/value.hpp"
#include "lessons/lesson_protocol/lesson_ids.h"
#include "lessons/race_chain.hpp"

namespace coop::lessons {
namespace {

constexpr std::string_view kSumTo = " whose old values sum to ";
constexpr std::string_view kChain = "a chain of reads and writes from 0 to ";
constexpr std::string_view kInRace = " in the race to ";

// A whole number of `text`, all of it, as an int; none for anything else.
std::optional<int> whole_int(std::string_view text) {
  if (text.empty() || text.size() > 11) return std::nullopt;
  const std::string s(text);
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || v < INT32_MIN || v > INT32_MAX) return std::nullopt;
  return int(v);
}

// The one launch a race reads, or why there is none.
const Trace* one_launch(const Counted& c, std::string& why) {
  if (c.launches.size() == 1) return c.launches[0];
  why = c.missing.empty() ? std::to_string(c.launches.size()) +
                                " launches: a race is one launch's (name it: KERNEL launch K)"
                          : c.missing;
  return nullptr;
}

SettledItem not_a_claim(std::string_view item, const char* what) {
  SettledItem s;
  s.error = true;
  s.got = std::string("'").append(item).append("' is no ").append(what);
  return s;
}

// "N SPEC whose old values sum to S": N events, and the values they found add up to S (what
// each atomic returned, which the program kept, against what the trace recorded).
SettledItem settle_value_sum(std::string_view item, size_t at, const Counted& counted) {
  const std::string_view head = item.substr(0, at);
  const size_t space = head.find(' ');
  const Result<uint64_t> want_n = parse_count(head.substr(0, space), "count", UINT64_MAX);
  const std::string_view spec_text =
      space == std::string_view::npos ? std::string_view() : head.substr(space + 1);
  const std::optional<EventSpec> spec = read_spec(spec_text);
  const std::optional<double> want = read_value(item.substr(at + kSumTo.size()));
  if (!want_n || !spec || !want) return not_a_claim(item, "sum of the values events found");
  size_t events = 0;
  double sum = 0;
  for (const Trace* t : counted.launches)
    for (const Event& e : t->events)
      if (spec->matches(e, *t)) {
        ++events;
        sum += found_value(e).value_or(0);
      }
  char sum_text[32];
  std::snprintf(sum_text, sizeof sum_text, "%.17g", sum);
  SettledItem s;
  s.holds = events == *want_n && sum == *want;
  s.got = std::to_string(events) + " " + std::string(spec_text) + std::string(kSumTo) + sum_text;
  return s;
}

// "a chain of reads and writes from 0 to F" on the one launch counted.
SettledItem settle_race_chain(std::string_view item, const Counted& counted) {
  const std::optional<int> final_value = whole_int(item.substr(kChain.size()));
  if (!final_value) return not_a_claim(item, "chain of reads and writes to a final int");
  SettledItem s;
  const Trace* launch = one_launch(counted, s.got);
  if (!launch) return s;
  const RaceReport r = analyse_race(*launch, *final_value);
  s.holds = r.problem.empty();
  s.got = s.holds ? std::to_string(r.kept.size()) + " of " + std::to_string(r.racers()) +
                        " shares kept along the chain"
                  : r.problem;
  return s;
}

// The racers' ids: threads as recorded, or with `blocks` their blocks (block_threads each).
std::vector<uint32_t> racers_of(std::vector<uint32_t> ids, bool blocks, uint64_t block_threads) {
  if (blocks && block_threads > 0)
    for (uint32_t& id : ids) id = uint32_t(id / block_threads);
  return ids;
}

}  // namespace

std::optional<double> found_value(const Event& e) {
  if (e.kind != EventKind::Atomic && e.kind != EventKind::Load) return std::nullopt;
  switch (e.value_type) {
    case ValueType::I32:
      return double(from_bits<int32_t>(e.b));
    case ValueType::U32:
      return double(from_bits<uint32_t>(e.b));
    case ValueType::I64:
      return double(from_bits<int64_t>(e.b));
    case ValueType::U64:
      return double(from_bits<uint64_t>(e.b));
    case ValueType::F32:
      return double(from_bits<float>(e.b));
    case ValueType::F64:
      return from_bits<double>(e.b);
    default:
      return std::nullopt;
  }
}

bool in_buffer(const Event& e, const Trace& t, std::string_view buffer) {
  for (const BufferInfo& b : t.header.buffers)
    if (b.name == buffer && b.shared == in_shared_memory(e) && e.address >= b.base &&
        e.address < b.base + b.bytes)
      return true;
  return false;
}

std::optional<double> read_value(std::string_view text) {
  if (text.empty() || text.size() > 40) return std::nullopt;
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (*end != '\0') return std::nullopt;
  return v;
}

std::optional<SettledItem> settle_value_item(std::string_view item, const Counted& counted) {
  if (item.starts_with(kChain)) return settle_race_chain(item, counted);
  if (const size_t at = item.find(kSumTo); at != std::string_view::npos)
    return settle_value_sum(item, at, counted);
  return std::nullopt;
}

std::optional<std::string> count_in_race(std::string_view what, const Counted& counted) {
  const size_t at = what.find(kInRace);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view asked = what.substr(0, at);
  const std::optional<int> final_value = whole_int(what.substr(at + kInRace.size()));
  if (!final_value) return "'" + std::string(what) + "' names no final value";
  std::string why;
  const Trace* launch = one_launch(counted, why);
  if (!launch) return why;
  const RaceReport r = analyse_race(*launch, *final_value);
  if (!r.problem.empty()) return r.problem;
  if (asked == "updates lost")
    return std::to_string(r.racers() - r.kept.size()) + " of " + std::to_string(r.racers()) +
           " (" + std::to_string(r.missing) + " missing)";
  const std::string unknown = "'" + std::string(asked) +
                              "' is none of updates lost, threads kept, threads overwritten "
                              "unread, threads read only by the lost (or blocks ...)";
  const bool blocks = asked.starts_with("blocks ");
  if (!blocks && !asked.starts_with("threads ")) return unknown;
  const std::string_view which = asked.substr(blocks ? 7 : 8);
  const uint64_t block_threads = launch->header.launch.block.count();
  const auto counted_ids = [&](const std::vector<uint32_t>& ids) {
    return ids.empty() ? std::string("0")
                       : std::to_string(ids.size()) + ": " +
                             std::string(asked.substr(0, blocks ? 6 : 7)) + " " +
                             describe_ids(racers_of(ids, blocks, block_threads));
  };
  if (which == "kept") return describe_ids(racers_of(r.kept, blocks, block_threads));
  if (which == "overwritten unread") return counted_ids(r.lost_unread);
  if (which == "read only by the lost") return counted_ids(r.lost_later);
  return unknown;
}

}  // namespace coop::lessons
