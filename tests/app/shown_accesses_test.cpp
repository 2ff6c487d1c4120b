// Shown accesses (--show-stores, --show-loads; tools/frontend/shown_edits.hpp): the front end
// builds a program's plain stores and loads of the buffers named as traced(...) ones, so they
// trace exactly as the same accesses written through traced(...) by hand, on every deterministic
// field, and are step points of the emulator's schedules as those are. What it leaves plain is
// said, with its line; and the names are part of the build's identity. A name may be limited to
// the lines that hold a text ("sum on the line with // the race"): the accesses elsewhere stay
// plain, and an entry whose text no line holds is said.
// tests/programs/shown/shown_accesses.cu holds each kernel twice, written plainly and by hand.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "device/trace/compare.hpp"
#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;
using coop::Event;
using coop::EventKind;
using coop::Trace;

const std::string kShownProgram =
    std::string(COOPVIZ_SOURCE_DIR) + "/tests/programs/shown/shown_accesses.cu";
// `sum` on the race's line alone; and an entry whose text no line holds, which shows nothing.
const std::string kOnTheRace = "sum on the line with // the race";
const std::string kShowAll = "--show-stores 'out,ring,tally," + kOnTheRace +
                             "' --show-loads 'ring,tally," + kOnTheRace +
                             ",ring on the line with no such text'";

// The front end coopviz finds (device/paths/data_dirs.hpp): the build's, or COOPVIZ_FRONTEND's.
// Without it nothing is shown, and coopviz says so (front_end_note).
using coop::testing::have_front_end;

// The line of the program whose text starts with `start`.
int line_of(const std::string& start) {
  std::ifstream in(kShownProgram);
  int number = 0;
  for (std::string line; std::getline(in, line);)
    if (++number, line.starts_with(start)) return number;
  return 0;
}

struct ShownRun {
  nlohmann::json report;
  std::map<std::string, Trace> launches;  // by kernel
  std::string err;
};

// `coopviz run --json` of the program with `shown`, and the traces of its launches.
ShownRun run(const std::string& backend, const std::string& shown) {
  const fs::path dir = coop::testing::fresh_folder("shown-" + backend);
  const std::string trace = (dir / "t.cvt").string();
  const coop::testing::Ran r =
      coop::testing::coopviz("run --json --backend " + backend + " --trace-launches all --trace " +
                             trace + " " + shown + " " + kShownProgram);
  ShownRun out;
  out.err = r.err;
  out.report = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  if (auto traces = coop::load_traces(trace))
    for (Trace& t : *traces) out.launches[t.header.kernel] = std::move(t);
  fs::remove_all(dir);
  return out;
}

// `by_hand`'s trace as `plain`'s kernel would record it: its name, and its lines moved by the
// distance between the two kernels' first lines.
Trace as_plain(Trace by_hand, const std::string& plain, const std::string& hand) {
  const int distance =
      line_of("__global__ void " + hand + "(") - line_of("__global__ void " + plain + "(");
  by_hand.header.kernel = plain;
  for (Event& e : by_hand.events)
    if (e.line != 0) e.line = uint16_t(e.line - distance);
  return by_hand;
}

// The traced loads and stores of a trace in the order recorded: which thread, which kind, which
// value. Equal lists mean the threads interleaved alike.
std::vector<std::tuple<uint32_t, EventKind, uint64_t, uint64_t>> accesses(const Trace& t) {
  std::vector<std::tuple<uint32_t, EventKind, uint64_t, uint64_t>> out;
  for (const Event& e : t.events)
    if (e.kind == EventKind::Load || e.kind == EventKind::Store)
      out.emplace_back(e.thread, e.kind, e.a, e.b);
  return out;
}

// The two kernels of a pair equal on every deterministic field, shown accesses there.
void expect_alike(const ShownRun& r, const std::string& plain, const std::string& hand,
                  size_t accesses_each) {
  ASSERT_TRUE(r.launches.count(plain) && r.launches.count(hand)) << r.report.dump(2) << r.err;
  const Trace& shown = r.launches.at(plain);
  const Trace reference = as_plain(r.launches.at(hand), plain, hand);
  const coop::TraceDiff diff = coop::compare_deterministic(reference, shown);
  EXPECT_TRUE(diff.equal()) << plain << ": "
                            << (diff.examples.empty() ? "" : diff.examples.front());
  EXPECT_EQ(accesses(shown).size(), accesses_each) << plain;
  EXPECT_EQ(accesses(shown), accesses(reference)) << plain << ": recorded in another order";
}

TEST(ShownAccesses, TraceAsTheirTracedFormOnTheEmulator) {
  if (!have_front_end()) GTEST_SKIP() << "no C++ front end (built with COOPVIZ_FRONTEND=OFF)";
  const ShownRun r = run("emu", kShowAll);
  EXPECT_NE(r.report.value("stdout", "").find("PASSED"), std::string::npos) << r.report.dump(2);
  EXPECT_FALSE(r.report.contains("front_end_note")) << r.report["front_end_note"];
  expect_alike(r, "plain_accesses", "by_hand", 64 * 3);
  // 1 store by thread 0, then a load and a store each, and thread 0's load of the total.
  expect_alike(r, "plain_tally", "by_hand_tally", 1 + 64 * 2 + 1);
  // On the race's line alone: the reset and the read of the total stay plain, as by hand.
  expect_alike(r, "plain_line", "by_hand_line", 64 * 2);
  // The lanes of a warp interleave at a traced load and store (a step point, as on a GPU): the
  // plain tally loses updates as the traced one does.
  const std::string printed = r.report.value("stdout", "");
  const size_t at = printed.find("tallies ");
  ASSERT_NE(at, std::string::npos) << printed;
  int plain = 0, hand = 0;
  ASSERT_EQ(std::sscanf(printed.c_str() + at, "tallies %d %d", &plain, &hand), 2) << printed;
  EXPECT_EQ(plain, hand);
  EXPECT_LT(plain, 64) << "no update lost: the shown load and store were no step points";
}

TEST(ShownAccesses, WhatStaysPlainIsSaidWithItsLine) {
  if (!have_front_end()) GTEST_SKIP() << "no C++ front end (built with COOPVIZ_FRONTEND=OFF)";
  const ShownRun r = run("emu", kShowAll);
  ASSERT_TRUE(r.report.contains("not_shown")) << r.report.dump(2);
  std::vector<std::string> said = r.report["not_shown"];
  const std::string file = fs::path(kShownProgram).string();
  for (const std::string& start :
       {std::string("__global__ void plain_accesses("), std::string("__global__ void by_hand(")}) {
    const std::string where = file + ":" + std::to_string(line_of(start) + 7) + ": not shown: ";
    const auto found = std::find_if(said.begin(), said.end(), [&](const std::string& s) {
      return s.starts_with(where) && s.find("`out[t] += 1`") != std::string::npos;
    });
    EXPECT_NE(found, said.end()) << where << " in:\n" << r.report["not_shown"].dump(2);
  }
  // The entry whose text no line holds is said, at the file's first line.
  EXPECT_NE(std::find(said.begin(), said.end(),
                      file + ":1: not shown: `ring on the line with no such text`: no line that "
                             "holds `no such text` loads from ring"),
            said.end())
      << r.report["not_shown"].dump(2);
  EXPECT_EQ(said.size(), 3u) << r.report["not_shown"].dump(2);
  // Without --json, one line each on stderr.
  const coop::testing::Ran text =
      coop::testing::coopviz("run --backend emu " + kShowAll + " " + kShownProgram);
  EXPECT_NE(text.err.find("coopviz: " + said[0] + "\n"), std::string::npos) << text.err;
}

// The names are part of the build: a build with other names is not reused, so each run shows
// exactly what it names (ring's 64 stores alone, or every shown access).
TEST(ShownAccesses, OtherNamesAreAnotherBuild) {
  if (!have_front_end()) GTEST_SKIP() << "no C++ front end (built with COOPVIZ_FRONTEND=OFF)";
  const ShownRun ring = run("emu", "--show-stores ring");
  const ShownRun all = run("emu", kShowAll);
  ASSERT_TRUE(ring.launches.count("plain_accesses") && all.launches.count("plain_accesses"));
  EXPECT_EQ(accesses(ring.launches.at("plain_accesses")).size(), 64u) << "ring's stores alone";
  EXPECT_EQ(accesses(all.launches.at("plain_accesses")).size(), 64u * 3);
  EXPECT_FALSE(ring.report.contains("not_shown")) << "no update of ring";
}

// On a GPU the shown accesses trace as the hand-written ones there, and as on the emulator.
TEST(ShownAccesses, TraceAlikeOnTheGpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no GPU here";
  ASSERT_TRUE(have_front_end()) << "the GPU script carries coopviz-frontend (scripts/gpu-check.sh)";
  const ShownRun gpu = run("gpu", kShowAll);
  EXPECT_NE(gpu.report.value("stdout", "").find("PASSED"), std::string::npos) << gpu.report.dump(2);
  ASSERT_TRUE(gpu.launches.count("plain_accesses") && gpu.launches.count("by_hand"));
  const coop::TraceDiff hand =
      coop::compare_deterministic(as_plain(gpu.launches.at("by_hand"), "plain_accesses", "by_hand"),
                                  gpu.launches.at("plain_accesses"));
  EXPECT_TRUE(hand.equal()) << (hand.examples.empty() ? "" : hand.examples.front());
  ASSERT_TRUE(gpu.launches.count("plain_line") && gpu.launches.count("by_hand_line"));
  const coop::TraceDiff line = coop::compare_deterministic(
      as_plain(gpu.launches.at("by_hand_line"), "plain_line", "by_hand_line"),
      gpu.launches.at("plain_line"));
  EXPECT_TRUE(line.equal()) << (line.examples.empty() ? "" : line.examples.front());
  const ShownRun emu = run("emu", kShowAll);
  const coop::TraceDiff backends = coop::compare_deterministic(emu.launches.at("plain_accesses"),
                                                               gpu.launches.at("plain_accesses"));
  EXPECT_TRUE(backends.equal()) << (backends.examples.empty() ? "" : backends.examples.front());
  EXPECT_GE(backends.events_compared, 64u * 3) << "the shown accesses among them";
}

}  // namespace
