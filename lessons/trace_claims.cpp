#include "lessons/trace_claims.hpp"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "device/launch/launch_config.hpp"
#include "device/trace/instrumented_flag.hpp"
#include "device/trace/names.hpp"
#include "device/trace/race_detector.hpp"
#include "device/trace/time_order.hpp"
#include "lessons/lesson_checks.hpp"
#include "lessons/value_claims.hpp"

namespace coop::lessons {
namespace {

std::optional<uint64_t> number(std::string_view s) {
  Result<uint64_t> n = parse_count(s, "count", UINT64_MAX);
  return n ? std::optional<uint64_t>(*n) : std::nullopt;
}

// Splits off the first space-separated word of s.
std::string_view next_word(std::string_view& s) {
  const size_t space = s.find(' ');
  const std::string_view w = s.substr(0, space);
  s = space == std::string_view::npos ? std::string_view() : s.substr(space + 1);
  return w;
}

// Splits `s` at every `separator`.
std::vector<std::string_view> split(std::string_view s, std::string_view separator) {
  std::vector<std::string_view> parts;
  for (size_t at; (at = s.find(separator)) != std::string_view::npos;
       s.remove_prefix(at + separator.size()))
    parts.push_back(s.substr(0, at));
  parts.push_back(s);
  return parts;
}

// [SECTION] Threads whose own events hold a sequence of kinds, in order

size_t threads_with(const Counted& counted, const std::vector<EventSpec>& chain) {
  size_t n = 0;
  for (const Trace* t : counted.launches) {
    std::unordered_map<uint32_t, size_t> reached;  // per thread: how much of the chain it holds
    for (const Event& e : t->events) {
      size_t& r = reached[e.thread];
      if (r < chain.size() && chain[r].matches(e, *t)) ++r;
    }
    n += std::count_if(reached.begin(), reached.end(),
                       [&](const auto& kv) { return kv.second == chain.size(); });
  }
  return n;
}

// [SECTION] Races, as the emulator's detector finds them in a trace of every load and store

// "write line 17" for one side of a race.
std::string access_text(const RaceAccess& a) {
  return std::string(to_string(a.kind)) + " line " + std::to_string(a.line);
}

// Why the launches cannot settle a race claim, or "".
std::string races_unseen(const Counted& counted) {
  for (const Trace* t : counted.launches) {
    if (t->header.backend == Backend::Gpu)
      return "skipped: races are found on the emulator only (a GPU records neither every load "
             "and store nor the order they happened in)";
    if (t->dropped())
      return "skipped: the launch dropped events: some loads and stores are missing (raise "
             "--trace-capacity)";
    if (std::none_of(t->events.begin(), t->events.end(),
                     [](const Event& e) { return (e.flags & kFlagInstrumented) != 0; }))
      return "skipped: the launch recorded only its traced loads and stores; races are found "
             "where the emulator records every one (lesson.json's records_memory or --races)";
  }
  return "";
}

// "N race[s][ of A line L and B line M]"; nullopt when `what` is no such claim.
std::optional<SettledItem> settle_races(uint64_t n, std::string_view what, const Counted& counted) {
  const std::string_view word = next_word(what);
  if (word != "race" && word != "races") return std::nullopt;
  std::string sides[2];
  if (!what.empty()) {
    if (!what.starts_with("of ")) return std::nullopt;
    const std::vector<std::string_view> two = split(what.substr(3), " and ");
    if (two.size() != 2) return std::nullopt;
    for (int i = 0; i < 2; ++i) {
      std::string_view side = two[i];
      const std::string_view kind = next_word(side);
      if ((kind != "read" && kind != "write" && kind != "atomic") || !side.starts_with("line ") ||
          !number(side.substr(5)))
        return std::nullopt;
      sides[i] = std::string(two[i]);
    }
  }
  SettledItem s;
  if (const std::string why = races_unseen(counted); !why.empty()) {
    s.got = why;
    s.skipped = true;
    return s;
  }
  size_t found = 0;
  for (const Trace* t : counted.launches)
    for (const Race& r : find_races(*t)) {
      const std::string a = access_text(r.first), b = access_text(r.second);
      found += sides[0].empty() || (a == sides[0] && b == sides[1]) ||
               (a == sides[1] && b == sides[0]);
    }
  s.got = std::to_string(found) + (found == 1 ? " race" : " races") +
          (sides[0].empty() ? "" : " of " + sides[0] + " and " + sides[1]);
  s.holds = found == n;
  return s;
}

// [SECTION] Barrier phases left only after their last arrival

SettledItem settle_phases(uint64_t n, const Counted& counted) {
  TimeOrderReport order;
  for (const Trace* t : counted.launches) merge(order, check_time_order(*t));
  SettledItem s;
  s.holds = order.instances == n && order.early_departures == 0;
  s.got = std::to_string(order.instances) + " barrier phases" +
          (order.early_departures == 0
               ? std::string(" kept")
               : ", " + std::to_string(order.early_departures) +
                     " left before their last arrival (first: " + order.first_early + ")");
  return s;
}

}  // namespace

SettledItem not_a_claim(std::string_view item, const char* what) {
  SettledItem s;
  s.error = true;
  s.got = std::string("'").append(item).append("' is no ").append(what);
  return s;
}

bool EventSpec::matches(const Event& e, const Trace& t) const {
  return e.kind == kind && (!group || e.group_kind == *group) &&
         (sizes.empty() || std::find(sizes.begin(), sizes.end(), e.group_size) != sizes.end()) &&
         (!scope || (e.flags & (kFlagScopeThread | kFlagScopeBlock | kFlagScopeSystem)) ==
                        *scope) &&
         (!rank || e.rank == *rank) && (!phase || e.extra == *phase) &&
         (!line || e.line == *line) &&
         (!stuck || (e.flags & kFlagStuck) != 0) && (!open || e.b <= e.time) &&
         (buffer.empty() || in_buffer(e, t, buffer)) && (!found || found_value(e) == *found);
}

std::optional<EventSpec> read_spec(std::string_view s) {
  EventSpec spec;
  const std::optional<EventKind> kind = event_kind_named(next_word(s));
  if (!kind) return std::nullopt;
  spec.kind = *kind;
  if (s.starts_with("of ")) {
    next_word(s);
    const std::optional<GroupKind> group = group_kind_named(next_word(s));
    if (!group) return std::nullopt;
    spec.group = *group;
    if (!s.empty() && s[0] >= '0' && s[0] <= '9')
      for (std::string_view size : split(next_word(s), "|")) {
        const std::optional<uint64_t> n = number(size);
        if (!n) return std::nullopt;
        spec.sizes.push_back(*n);
      }
  }
  // An atomic_ref's thread scope: thread, block, device or system.
  constexpr std::pair<std::string_view, uint16_t> kScopes[] = {{"at thread scope", kFlagScopeThread},
                                                               {"at block scope", kFlagScopeBlock},
                                                               {"at device scope", 0},
                                                               {"at system scope", kFlagScopeSystem}};
  while (!s.empty()) {
    bool scoped = false;
    for (const auto& [words, flag] : kScopes)
      if (!scoped && (s == words || s.starts_with(std::string(words) + " "))) {
        if (spec.scope) return std::nullopt;
        spec.scope = flag;
        s.remove_prefix(std::min(s.size(), words.size() + 1));
        scoped = true;
      }
    if (scoped) continue;
    std::optional<uint64_t>* filter = nullptr;
    if (s.starts_with("phase ")) filter = &spec.phase;
    if (s.starts_with("at rank ")) filter = &spec.rank;
    if (s.starts_with("at line ")) filter = &spec.line;
    if (s == "stuck" || s.starts_with("stuck ") || s == "open" || s.starts_with("open ")) {
      (next_word(s) == "stuck" ? spec.stuck : spec.open) = true;
      continue;
    }
    if (s.starts_with("on ") || s.starts_with("finding ")) {
      const bool on = next_word(s) == "on";
      const std::string_view value = next_word(s);
      if (on ? !spec.buffer.empty() || value.empty() : spec.found.has_value())
        return std::nullopt;
      if (on) spec.buffer = value;
      else if (!(spec.found = read_value(value))) return std::nullopt;
      continue;
    }
    if (!filter || filter->has_value()) return std::nullopt;
    s.remove_prefix(s.starts_with("phase ") ? 6 : 8);
    *filter = number(next_word(s));
    if (!*filter) return std::nullopt;
  }
  return spec;
}

size_t Counted::count(const EventSpec& spec) const {
  size_t n = 0;
  for (const Trace* t : launches)
    n += count_events(*t, [&](const Event& e) { return spec.matches(e, *t); });
  return n;
}

Counted launches_named(std::string_view named, const std::vector<Trace>& launches) {
  std::string kernel(named);
  size_t which = 0;
  if (const size_t at = kernel.rfind(" launch "); at != std::string::npos) {
    which = std::strtoull(kernel.c_str() + at + 8, nullptr, 10);
    kernel.resize(at);
  }
  Counted c;
  for (const Trace& t : launches)
    if (t.header.kernel == kernel) c.launches.push_back(&t);
  if (which > 0)
    c.launches = which <= c.launches.size() ? std::vector{c.launches[which - 1]}
                                            : std::vector<const Trace*>{};
  if (c.launches.empty())
    c.missing = "no launch of " + kernel + (which ? " number " + std::to_string(which) : "");
  return c;
}

SettledItem settle_item(std::string_view item, const Counted& counted) {
  if (std::optional<SettledItem> values = settle_value_item(item, counted)) return *values;
  SettledItem s;
  if (item.starts_with("as many ") && item.find(" as ", 8) != std::string_view::npos) {
    const size_t as = item.find(" as ", 8);
    const std::string_view a = item.substr(8, as - 8), b = item.substr(as + 4);
    const std::optional<EventSpec> sa = read_spec(a), sb = read_spec(b);
    if (!sa || !sb) return not_a_claim(item, "comparison of event counts");
    const size_t na = counted.count(*sa), nb = counted.count(*sb);
    s.got = std::to_string(na) + " " + std::string(a) + ", " + std::to_string(nb) + " " +
            std::string(b);
    s.holds = na == nb;
    return s;
  }
  std::string_view what = item;
  const std::optional<uint64_t> n = number(next_word(what));
  if (!n) return not_a_claim(item, "count of an event kind");
  if (what == "barrier phases kept") return settle_phases(*n, counted);
  if (std::optional<SettledItem> races = settle_races(*n, what, counted)) return *races;
  if (what.starts_with("threads with ")) {
    std::vector<EventSpec> chain;
    for (std::string_view one : split(what.substr(13), " then ")) {
      const std::optional<EventSpec> spec = read_spec(one);
      if (!spec) return not_a_claim(item, "order of event kinds");
      chain.push_back(*spec);
    }
    const size_t found = threads_with(counted, chain);
    s.got = std::to_string(found) + " " + std::string(what);
    s.holds = found == *n;
    return s;
  }
  const std::optional<EventSpec> spec = read_spec(what);
  if (!spec) return not_a_claim(item, "count of an event kind");
  const size_t found = counted.count(*spec);
  s.got = std::to_string(found) + " " + std::string(what);
  s.holds = found == *n;
  return s;
}

}  // namespace coop::lessons
