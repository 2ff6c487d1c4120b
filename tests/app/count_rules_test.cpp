// Count rules (app/exercise/counts.hpp) on traces built by hand: each kind of rule counts what
// it says and only that, so an exercise's rule can state its property (no collective but
// shuffles; a neighbour read from shared memory; a tile used while the next is copied) whatever
// order a right solution does it in.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/exercise/counts.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop::app {
namespace {

namespace fs = std::filesystem;

// The rules of a counts.json holding `json`.
std::vector<CountRule> rules_of(const std::string& json) {
  const fs::path dir = coop::testing::fresh_folder("count-rules");
  std::ofstream(dir / "counts.json") << json;
  Result<std::vector<CountRule>> rules = read_count_rules(dir / "counts.json");
  EXPECT_TRUE(rules.ok()) << rules.message();
  fs::remove_all(dir);
  return rules.ok() ? *rules : std::vector<CountRule>{};
}

// The error of a counts.json holding `json`.
std::string rules_error(const std::string& json) {
  const fs::path dir = coop::testing::fresh_folder("count-rules-bad");
  std::ofstream(dir / "counts.json") << json;
  Result<std::vector<CountRule>> rules = read_count_rules(dir / "counts.json");
  EXPECT_FALSE(rules.ok()) << json;
  fs::remove_all(dir);
  return rules.ok() ? std::string() : rules.message();
}

// A launch of kernel "k": one block of 64 threads.
Trace launch_of(std::vector<Event> events) {
  Trace t;
  t.header.kernel = std::string(1, 'k');
  t.header.launch.grid = {1, 1, 1};
  t.header.launch.block = {64, 1, 1};
  t.events.assign(events.begin(), events.end());
  return t;
}

Event event(uint32_t thread, EventKind kind, Op op = Op::None, uint64_t address = 0,
            uint16_t flags = 0, uint32_t extra = 0) {
  Event e{};
  e.thread = thread;
  e.kind = kind;
  e.op = op;
  e.address = address;
  e.flags = flags;
  e.extra = extra;
  return e;
}

constexpr const char* kRule = R"("kernel": "k", "says": "S", )";

TEST(CountRules, AListOfEventKindsCountsAnyOfThem) {
  const auto rules = rules_of(std::string("[{") + kRule +
                              R"("event": ["load", "store"], "memory": "shared", "per": "launch",
                                  "at_most": 0}])");
  EXPECT_EQ(broken_count(rules, launch_of({event(3, EventKind::Store, Op::None, 8)})), "");
  const std::string shared_store =
      broken_count(rules, launch_of({event(3, EventKind::Store, Op::None, 8, kFlagShared)}));
  EXPECT_EQ(shared_store, "S: the launch made 1 load/store events, at most 0 allowed");
  EXPECT_NE(broken_count(rules, launch_of({event(5, EventKind::Load, Op::None, 8, kFlagShared)})),
            "");
}

TEST(CountRules, NotOpCountsEveryOpButThose) {
  const auto rules = rules_of(std::string("[{") + kRule +
                              R"("event": "collective", "not_op": ["shfl_down", "shfl_xor"],
                                  "per": "launch", "at_most": 0}])");
  EXPECT_EQ(broken_count(rules, launch_of({event(0, EventKind::Collective, Op::ShflDown),
                                           event(1, EventKind::Collective, Op::ShflXor)})),
            "");
  const std::string scan =
      broken_count(rules, launch_of({event(0, EventKind::Collective, Op::ShflDown),
                                     event(0, EventKind::Collective, Op::InclusiveScan)}));
  EXPECT_EQ(scan,
            "S: the launch made 1 collective (but shfl_down, shfl_xor) events, at most 0 allowed");
  // "op" with a list counts only those.
  const auto only = rules_of(std::string("[{") + kRule +
                             R"("event": "collective", "op": ["reduce", "inclusive_scan"],
                                 "per": "launch", "at_most": 0}])");
  EXPECT_EQ(broken_count(only, launch_of({event(0, EventKind::Collective, Op::ShflDown)})), "");
  EXPECT_NE(broken_count(only, launch_of({event(0, EventKind::Collective, Op::Reduce)})), "");
}

TEST(CountRules, DistinctCountsAddressesNotEvents) {
  const auto rules = rules_of(std::string("[{") + kRule +
                              R"("event": "load", "memory": "global", "distinct": "address",
                                  "per": "thread", "at_most": 1}])");
  // Its own element read twice is one address; a shared read is not counted.
  EXPECT_EQ(broken_count(rules, launch_of({event(7, EventKind::Load, Op::None, 0x1000),
                                           event(7, EventKind::Load, Op::None, 0x1000),
                                           event(7, EventKind::Load, Op::None, 4, kFlagShared),
                                           event(8, EventKind::Load, Op::None, 0x1004)})),
            "");
  const std::string neighbour =
      broken_count(rules, launch_of({event(7, EventKind::Load, Op::None, 0x1000),
                                     event(7, EventKind::Load, Op::None, 0x1004)}));
  EXPECT_EQ(neighbour,
            "S: thread 7 (block 0) made load events at 2 distinct addresses, at most 1 allowed");
}

// The shared loads of one thread of the block, in an order of issues and waits.
std::string tile_used(const std::vector<Event>& order) {
  const auto rules = rules_of(std::string("[{") + kRule +
                              R"("event": "load", "memory": "shared",
                                  "while": "copies_in_flight >= 1", "per": "block",
                                  "at_least": 1}])");
  return broken_count(rules, launch_of(order));
}

TEST(CountRules, WhileCopiesInFlightFollowsIssuesAndWaitsNotTheirOrder) {
  const Event issue = event(2, EventKind::CopyIssue, Op::None, 0, kFlagShared);
  const Event wait = event(2, EventKind::CopyWait, Op::None, 0, 0, 0);
  const Event wait_prior_1 = event(2, EventKind::CopyWait, Op::None, 0, 0, 1);
  const Event use = event(2, EventKind::Load, Op::None, 16, kFlagShared);
  // The reference: wait for this tile, issue the next, use this one.
  EXPECT_EQ(tile_used({issue, wait, issue, use}), "");
  // Issue the next, wait_prior<1> (this tile has landed, the next is still on its way), use.
  EXPECT_EQ(tile_used({issue, issue, wait_prior_1, use}), "");
  // Issue the next and wait for both, or use the tile before issuing the next: nothing overlaps.
  const std::string none = tile_used({issue, issue, wait, use, wait});
  EXPECT_EQ(none,
            "S: block 0 made 0 load events while at least 1 of its async copies were in flight, "
            "at least 1 allowed");
  EXPECT_NE(tile_used({issue, wait, use, issue, wait}), "");
  // Another thread's copy in flight is not this thread's.
  EXPECT_NE(tile_used({event(9, EventKind::CopyIssue), issue, wait, use}), "");
}

TEST(CountRules, TheNewFieldsMalformedAreErrorsNamingTheField) {
  const std::string rule = std::string("[{") + kRule + R"("per": "block", "at_least": 1, )";
  std::string m = rules_error(rule + R"("event": "load", "while": "copies >= 1"}])");
  EXPECT_NE(m.find("counts.json: rule 1: \"while\" is \"copies_in_flight >= N\""),
            std::string::npos)
      << m;
  m = rules_error(rule + R"("event": "load", "while": "copies_in_flight >= -1"}])");
  EXPECT_NE(m.find("\"while\""), std::string::npos) << m;
  m = rules_error(rule + R"("event": "load", "distinct": "value"}])");
  EXPECT_NE(m.find("\"distinct\" is \"address\""), std::string::npos) << m;
  m = rules_error(rule + R"("event": "collective", "not_op": ["shfl", "shufl"]}])");
  EXPECT_NE(m.find("\"not_op\" 'shufl' is not an op"), std::string::npos) << m;
  m = rules_error(rule + R"("event": "collective", "op": "reduce", "not_op": "shfl"}])");
  EXPECT_NE(m.find("not both"), std::string::npos) << m;
  m = rules_error(rule + R"("event": []}])");
  EXPECT_NE(m.find("\"event\" is an empty list"), std::string::npos) << m;
  m = rules_error(rule + R"("event": ["load", 7]}])");
  EXPECT_NE(m.find("\"event\" '7' is not an event kind"), std::string::npos) << m;
  m = rules_error(rule + R"("memory": "shared"}])");
  EXPECT_NE(m.find("needs \"event\""), std::string::npos) << m;
}

}  // namespace
}  // namespace coop::app
