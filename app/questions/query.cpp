// Parsing and evaluating question queries: each kind reads one thing from the step's run.
#include "app/questions/query.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/trace/memory_access.hpp"
#include "device/trace/names.hpp"
#include "visual/event_text.hpp"
#include "visual/memory_order.hpp"

namespace coop::app {
namespace {

constexpr std::string_view kGrammar =
    "rank of thread N in GROUP, size of GROUP of thread N, meta rank of thread N in GROUP, "
    "output of thread N, input of thread N, first atomic thread, last atomic thread, count of "
    "KIND [of thread N], threads of KIND, blocks per SM, warps per SM, blocks at once, waves, "
    "occupancy limiter, sectors per request, bank conflict ways, result NAME";

std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> w;
  for (size_t i = 0; i < s.size();) {
    const size_t end = std::min(s.find(' ', i), s.size());
    if (end > i) w.push_back(s.substr(i, end - i));
    i = end + 1;
  }
  return w;
}

bool words_are(std::span<const std::string_view> w, std::initializer_list<std::string_view> want) {
  return w.size() == want.size() && std::equal(w.begin(), w.end(), want.begin());
}

Result<uint32_t> thread_number(std::string_view w) {
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size())
    return Status::error("'" + std::string(w) + "' is not a thread number (0, 1, 2, ...)");
  return v;
}

Result<GroupKind> group_word(std::string_view w) {
  const std::optional<GroupKind> g = group_kind_named(w);
  if (!g || *g == GroupKind::None || *g == GroupKind::Thread)
    return Status::error("'" + std::string(w) +
                         "' is not a group kind (block, grid, cluster, tile, coalesced, labeled, "
                         "binary, stride, warp, barrier)");
  return *g;
}

Result<EventKind> kind_word(std::string_view w) {
  const std::optional<EventKind> k = event_kind_named(w);
  if (!k || *k == EventKind::None)
    return Status::error("'" + std::string(w) +
                         "' is not an event kind (group_create, barrier, collective, atomic, "
                         "load, store, ...)");
  return *k;
}

// "of loads" / "of stores" after a memory query.
Status memory_filter(std::span<const std::string_view> rest, Query& q) {
  if (rest.empty()) return {};
  if (words_are(rest, {"of", "loads"}))
    q.store = false;
  else if (words_are(rest, {"of", "stores"}))
    q.store = true;
  else
    return Status::error("after a memory query write 'of loads' or 'of stores'");
  return {};
}

Result<Query> parse_words(std::span<const std::string_view> w) {
  Query q;
  using K = Query::Kind;
  auto with_thread = [&](K kind, std::string_view thread) -> Result<Query> {
    Result<uint32_t> t = thread_number(thread);
    if (!t) return t.status();
    q.kind = kind;
    q.thread = *t;
    return q;
  };
  auto with_group = [&](K kind, std::string_view thread, std::string_view group) -> Result<Query> {
    Result<GroupKind> g = group_word(group);
    if (!g) return g.status();
    q.group = *g;
    return with_thread(kind, thread);
  };
  if (w.size() == 6 && words_are(w.first(3), {"rank", "of", "thread"}) && w[4] == "in")
    return with_group(K::Rank, w[3], w[5]);
  if (w.size() == 7 && words_are(w.first(4), {"meta", "rank", "of", "thread"}) && w[5] == "in")
    return with_group(K::MetaRank, w[4], w[6]);
  if (w.size() == 6 && w[0] == "size" && w[1] == "of" &&
      words_are(w.subspan(3, 2), {"of", "thread"}))
    return with_group(K::GroupSize, w[5], w[2]);
  if (w.size() == 4 && words_are(w.subspan(1, 2), {"of", "thread"}) &&
      (w[0] == "output" || w[0] == "input"))
    return with_thread(w[0] == "output" ? K::Output : K::Input, w[3]);
  if (words_are(w, {"first", "atomic", "thread"}) || words_are(w, {"last", "atomic", "thread"})) {
    q.kind = w[0] == "first" ? K::FirstAtomic : K::LastAtomic;
    return q;
  }
  if (w.size() == 3 && w[1] == "of" && (w[0] == "count" || w[0] == "threads")) {
    Result<EventKind> k = kind_word(w[2]);
    if (!k) return k.status();
    q.kind = w[0] == "count" ? K::Count : K::Threads;
    q.event = *k;
    return q;
  }
  if (w.size() == 6 && w[0] == "count" && w[1] == "of" &&
      words_are(w.subspan(3, 2), {"of", "thread"})) {
    Result<EventKind> k = kind_word(w[2]);
    if (!k) return k.status();
    q.event = *k;
    q.one_thread = true;
    return with_thread(K::Count, w[5]);
  }
  if (words_are(w, {"blocks", "at", "once"}) || words_are(w, {"waves"})) {
    q.kind = w[0] == "waves" ? K::Waves : K::BlocksAtOnce;
    return q;
  }
  if (words_are(w, {"blocks", "per", "SM"}) || words_are(w, {"warps", "per", "SM"})) {
    q.kind = w[0] == "blocks" ? K::BlocksPerSm : K::WarpsPerSm;
    return q;
  }
  if (words_are(w, {"occupancy", "limiter"})) {
    q.kind = K::Limiter;
    return q;
  }
  if (w.size() >= 3 && words_are(w.first(3), {"sectors", "per", "request"})) {
    q.kind = K::Sectors;
    if (Status s = memory_filter(w.subspan(3), q); !s) return s;
    return q;
  }
  if (w.size() >= 3 && words_are(w.first(3), {"bank", "conflict", "ways"})) {
    q.kind = K::BankWays;
    if (Status s = memory_filter(w.subspan(3), q); !s) return s;
    return q;
  }
  if (w.size() >= 2 && w[0] == "result") {
    q.kind = K::Result;
    for (size_t i = 1; i < w.size(); ++i) q.name += (i > 1 ? " " : "") + std::string(w[i]);
    return q;
  }
  return Status::error("write one of: " + std::string(kGrammar));
}

// The kernel lines a query looks at: the snippet's, else the step's highlighted ones. They are
// found in the text the launch ran (its trace's source), which for a trace recorded from an older
// text of the lesson (a shipped GPU trace of a lesson since moved to a program) is not the
// lesson's own.
Result<std::set<int>> query_lines(const Query& q, const QuestionRun& run) {
  std::set<int> lines;
  const std::string_view source =
      run.launch && !run.launch->header.source.empty() ? run.launch->header.source
                                                        : run.lesson->source;
  if (!q.snippet.empty()) {
    for (int l : lessons::lines_with(source, q.snippet)) lines.insert(l);
    if (lines.empty()) return Status::error("no kernel line holds \"" + q.snippet + "\"");
    return lines;
  }
  for (const std::string& s : run.step->code)
    for (int l : lessons::lines_with(source, s)) lines.insert(l);
  return lines;
}

std::string lines_text(const std::set<int>& lines) {
  std::string out = lines.size() == 1 ? "line " : "lines ";
  for (int l : lines) out += (out.back() == ' ' ? "" : ", ") + std::to_string(l);
  return out;
}

Status check_thread(const Query& q, const Trace& t) {
  const uint64_t threads = t.header.launch.total_threads();
  if (q.thread < threads) return {};
  return Status::error("thread " + std::to_string(q.thread) + " is not in this launch of " +
                       visual::count_of(threads, "thread"));
}

// Thread q.thread's first event on `lines` that `fits`.
template <class Fits>
Result<const Event*> first_event_of_thread(const Query& q, const Trace& t,
                                           const std::set<int>& lines, std::string_view what,
                                           Fits fits) {
  if (Status s = check_thread(q, t); !s) return s;
  for (const Event& e : t.events)
    if (e.thread == q.thread && lines.count(e.line) && fits(e)) return &e;
  return Status::error("thread " + std::to_string(q.thread) + " has no " + std::string(what) +
                       " on " + lines_text(lines) + " in this run");
}

Result<TrueAnswer> group_answer(const Query& q, const Trace& t, const std::set<int>& lines) {
  using K = Query::Kind;
  const bool need_create = q.kind == K::MetaRank;
  Result<const Event*> e = first_event_of_thread(
      q, t, lines, std::string(name_of(q.group)) + (need_create ? " creation" : " event"),
      [&](const Event& ev) {
        return ev.group_kind == q.group && (!need_create || ev.kind == EventKind::GroupCreate);
      });
  if (!e) return e.status();
  const Event& ev = **e;
  const uint32_t value = q.kind == K::Rank        ? ev.rank
                         : q.kind == K::GroupSize ? ev.group_size
                                                  : meta_rank_of(ev.extra);
  const char* what = q.kind == K::Rank        ? "thread_rank()"
                     : q.kind == K::GroupSize ? "num_threads()"
                                              : "meta_group_rank()";
  return TrueAnswer{std::to_string(value), std::string(what) + " of thread " +
                                               std::to_string(q.thread) + " in " +
                                               visual::group_label(q.group, ev.group_id) +
                                               ", line " + std::to_string(ev.line)};
}

Result<TrueAnswer> value_answer(const Query& q, const Trace& t, const std::set<int>& lines) {
  const bool output = q.kind == Query::Kind::Output;
  Result<const Event*> e = first_event_of_thread(
      q, t, lines, output ? "value it receives" : "value it gives", [&](const Event& ev) {
        if (output) {
          uint64_t bits = 0;
          return visual::event_value(ev, bits) && ev.kind != EventKind::Store;
        }
        return ev.kind == EventKind::Collective || ev.kind == EventKind::Atomic ||
               ev.kind == EventKind::Store;
      });
  if (!e) return e.status();
  const Event& ev = **e;
  uint64_t bits = ev.a;
  if (output) visual::event_value(ev, bits);
  // A vote's or match's result is a mask of lanes, written as the views write it.
  const bool mask =
      output && (ev.op == Op::Ballot || ev.op == Op::MatchAny || ev.op == Op::MatchAll);
  return TrueAnswer{visual::format_value(bits, mask ? ValueType::Mask : ev.value_type),
                    "what thread " + std::to_string(q.thread) +
                        (output ? " got from " : " gave to ") +
                        visual::describe_event(ev, t.header) + ", line " + std::to_string(ev.line)};
}

// Whose atomic landed first or last at the address of the first atomic on the lines, in the
// landing order the old values give (the order of this very run, whatever its schedule).
Result<TrueAnswer> atomic_order_answer(const Query& q, const Trace& t, const std::set<int>& lines) {
  const Event* first = nullptr;
  for (const Event& e : t.events)
    if (e.kind == EventKind::Atomic && lines.count(e.line)) {
      first = &e;
      break;
    }
  if (!first) return Status::error("no atomic on " + lines_text(lines) + " in this run");
  const uint32_t block_threads =
      std::max<uint32_t>(1, uint32_t(t.header.launch.threads_per_block()));
  const bool shared = first->flags & kFlagShared;
  const visual::TimelineModel model{Trace(t)};
  for (const visual::AddressHistory& h : visual::build_memory_histories(model)) {
    if (h.address != first->address || bool(h.flags & kFlagShared) != shared ||
        (shared && h.block != first->thread / block_threads) || h.atomics.empty())
      continue;
    // The address's other atomics (a later load of the total, say) are not the ones asked about.
    std::vector<const visual::AtomicLanding*> asked;
    for (const visual::AtomicLanding& a : h.atomics)
      if (lines.count(a.line)) asked.push_back(&a);
    if (asked.empty()) continue;
    const bool last = q.kind == Query::Kind::LastAtomic;
    const visual::AtomicLanding& a = last ? *asked.back() : *asked.front();
    return TrueAnswer{std::to_string(a.thread),
                      "thread " + std::to_string(a.thread) + "'s " + visual::op_label(a.op) +
                          " landed " + (last ? "last" : "first") + " of " +
                          std::to_string(asked.size()) + " on " +
                          visual::address_name(h.address, h.flags, t.header) +
                          (h.order_exact ? ", as the old values say" : ", in recorded order")};
  }
  return Status::error("the atomics on " + lines_text(lines) + " have no landing order");
}

Result<TrueAnswer> count_answer(const Query& q, const Trace& t, const std::set<int>& lines) {
  if (q.one_thread)
    if (Status s = check_thread(q, t); !s) return s;
  uint64_t events = 0;
  std::set<uint32_t> threads;
  for (const Event& e : t.events)
    if (e.kind == q.event && lines.count(e.line) && (!q.one_thread || e.thread == q.thread)) {
      ++events;
      threads.insert(e.thread);
    }
  const std::string kind(name_of(q.event));
  if (q.kind == Query::Kind::Count)
    return TrueAnswer{std::to_string(events),
                      visual::count_of(events, kind + " event") +
                          (q.one_thread ? " of thread " + std::to_string(q.thread) : "") + " on " +
                          lines_text(lines)};
  return TrueAnswer{std::to_string(threads.size()), visual::count_of(threads.size(), "thread") +
                                                        " with " + kind + " events on " +
                                                        lines_text(lines)};
}

Result<TrueAnswer> occupancy_answer(const Query& q, const Trace& t) {
  const TraceHeader& h = t.header;
  const int arch = h.device.cc_major * 10 + h.device.cc_minor;
  Result<const CompiledKernelResources*> row = find_compiled_resources_by_name(
      h.lesson.empty() ? h.kernel : h.lesson + "/" + h.kernel, arch);
  if (!row) return row.status();
  Result<OccupancyResult> r =
      launch_occupancy(h.device, h.launch, to_kernel_resources(**row, h.device));
  if (!r) return r.status();
  const std::string found = "the occupancy of " + h.kernel + " with " +
                            visual::count_of(r->threads_per_block, "thread") + " per block on " +
                            h.device.name + ": " +
                            visual::count_of(r->active_blocks_per_sm, "block") + " per SM";
  switch (q.kind) {
    case Query::Kind::BlocksPerSm:
      return TrueAnswer{std::to_string(r->active_blocks_per_sm), found};
    case Query::Kind::WarpsPerSm:
      return TrueAnswer{std::to_string(r->active_warps_per_sm), found};
    case Query::Kind::BlocksAtOnce:
      return TrueAnswer{std::to_string(r->max_cooperative_grid),
                        found + ", on " + visual::count_of(uint64_t(h.device.sm_count), "SM")};
    case Query::Kind::Waves:
      return TrueAnswer{std::to_string(r->full_waves), waves_text(*r)};
    default:
      break;
  }
  std::string limiter;
  for (const std::string& l : r->limiting) limiter += (limiter.empty() ? "" : " and ") + l;
  return TrueAnswer{limiter, found + ", limited by " + limiter};
}

std::string decimal(double v) {
  if (v == std::floor(v)) return std::to_string(int64_t(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

Result<TrueAnswer> memory_answer(const Query& q, const Trace& t, const std::set<int>& lines) {
  const bool global = q.kind == Query::Kind::Sectors;
  const MemorySpace space = global ? MemorySpace::Global : MemorySpace::Shared;
  std::vector<LineMemoryStats> found;
  for (const LineMemoryStats& s : analyze_memory(t))
    if (s.space == space && lines.count(s.line) && (!q.store || *q.store == s.store))
      found.push_back(s);
  const std::string what =
      std::string(to_string(space)) + (q.store ? (*q.store ? " store" : " load") : " access");
  if (found.empty())
    return Status::error("no " + what + " was recorded on " + lines_text(lines) +
                         " in this run (memory is recorded on the emulator)");
  auto value = [&](const LineMemoryStats& s) {
    return global ? decimal(s.sectors_per_request()) : std::to_string(s.bank_conflict_ways);
  };
  for (const LineMemoryStats& s : found)
    if (value(s) != value(found.front()))
      return Status::error("the " + what + "es on " + lines_text(lines) +
                           " differ (loads and stores, or several lines): add 'of loads', 'of "
                           "stores' or on \"snippet\"");
  const LineMemoryStats& s = found.front();
  const std::string line = "line " + std::to_string(s.line) + " (" + to_string(space) +
                           (s.store ? " store" : " load") + "): ";
  if (global)
    return TrueAnswer{value(s), line + std::to_string(s.sectors) + " sectors in " +
                                    visual::count_of(s.requests, "request")};
  return TrueAnswer{value(s), line + "the worst of " + visual::count_of(s.requests, "request") +
                                  " is " + value(s) + "-way"};
}

Result<TrueAnswer> result_answer(const Query& q, const QuestionRun& run) {
  std::string names;
  for (const auto& [name, value] : run.results) {
    if (name == q.name) return TrueAnswer{value, "the run's result \"" + name + "\""};
    names += (names.empty() ? "" : ", ") + name;
  }
  return Status::error("the run has no result \"" + q.name +
                       "\" (it has: " + (names.empty() ? "none" : names) + ")");
}

}  // namespace

Result<Query> parse_query(std::string_view text) {
  std::string_view rest = text;
  std::string snippet;
  // `on "snippet"` ends the query; the snippet may hold spaces.
  if (const size_t on = rest.find(" on \""); on != std::string_view::npos) {
    if (rest.size() < on + 6 || rest.back() != '"')
      return Status::error("query '" + std::string(text) + "': on \"snippet\" must end it");
    snippet = std::string(rest.substr(on + 5, rest.size() - on - 6));
    rest = rest.substr(0, on);
  }
  const std::vector<std::string_view> w = words_of(rest);
  Result<Query> q = parse_words(w);
  if (!q) return Status::error("query '" + std::string(text) + "': " + q.message());
  q->snippet = snippet;
  return q;
}

Result<TrueAnswer> evaluate_query(const Query& q, const QuestionRun& run) {
  using K = Query::Kind;
  if (q.kind == K::Result) return result_answer(q, run);
  if (!run.launch)
    return Status::error("the run has no launch " + std::to_string(run.step->launch) + " of " +
                         run.step->kernel);
  const Trace& t = *run.launch;
  if (q.kind == K::BlocksPerSm || q.kind == K::WarpsPerSm || q.kind == K::BlocksAtOnce ||
      q.kind == K::Waves || q.kind == K::Limiter)
    return occupancy_answer(q, t);
  Result<std::set<int>> lines = query_lines(q, run);
  if (!lines) return lines.status();
  switch (q.kind) {
    case K::Rank:
    case K::GroupSize:
    case K::MetaRank:
      return group_answer(q, t, *lines);
    case K::Output:
    case K::Input:
      return value_answer(q, t, *lines);
    case K::FirstAtomic:
    case K::LastAtomic:
      return atomic_order_answer(q, t, *lines);
    case K::Count:
    case K::Threads:
      return count_answer(q, t, *lines);
    case K::Sectors:
    case K::BankWays:
      return memory_answer(q, t, *lines);
    default:
      break;
  }
  return Status::error("query kind not evaluated");
}

}  // namespace coop::app
