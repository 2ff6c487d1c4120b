// What a lesson teaches does not change unnoticed: every lesson's traces, on the default launch
// and on every step's request, digest to what tests/lessons/trace_digests.txt recorded (the
// fields compare_deterministic compares, lines by their text).
//
// After a deliberate change of a lesson's kernels, write the file again:
//   COOPVIZ_WRITE_TRACE_DIGESTS=tests/lessons/trace_digests.txt build/tests/coopviz_tests \
//     --gtest_filter='TraceDigests*'   (from the source tree; it appends, so remove it first)
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "device/trace/compare.hpp"
#include "lessons/lesson.hpp"
#include "tests/lessons/lesson_test_support.hpp"
#include "tests/support.hpp"

namespace coop::lessons {
namespace {

// One line of the digest file: "<lesson>\t<request>\t<launch>\t<kernel>\t<digest>".
std::string request_key(const RunRequest& r) {
  std::string key = "grid=" + r.config.grid.str() + " block=" + r.config.block.str() +
                    " mode=" + std::string(to_string(r.config.mode));
  if (r.config.mode == LaunchMode::Cluster) key += " cluster=" + r.config.cluster.str();
  if (r.config.dynamic_smem) key += " smem=" + std::to_string(r.config.dynamic_smem);
  key += " schedule=" + std::string(to_string(r.schedule)) + " seed=" + std::to_string(r.seed);
  for (const auto& [name, value] : r.params) key += " " + name + "=" + std::to_string(value);
  return key;
}

// The default request and every step's, each once.
std::vector<RunRequest> requests_of(const LessonDef& l) {
  std::vector<RunRequest> all{testing::lesson_request(l)};
  for (const Step& s : l.steps) all.push_back(step_request(l, s));
  std::vector<RunRequest> distinct;
  std::set<std::string> seen;
  for (const RunRequest& r : all)
    if (seen.insert(request_key(r)).second) distinct.push_back(r);
  return distinct;
}

std::vector<std::string> digest_lines(const LessonDef& l) {
  std::vector<std::string> text{""};  // line numbers count from 1
  std::istringstream in{std::string(l.source)};
  for (std::string line; std::getline(in, line);) {
    const size_t start = line.find_first_not_of(" \t");
    text.push_back(start == std::string::npos ? "" : line.substr(start));
  }
  const auto line_text = [&text](uint32_t line) { return line < text.size() ? text[line] : ""; };
  std::vector<std::string> lines;
  auto exec = testing::emulator();
  for (const RunRequest& r : requests_of(l)) {
    const LessonRun run = run_lesson(l, *exec, r);
    for (size_t k = 0; k < run.launches.size(); ++k) {
      char digest[17];
      std::snprintf(digest, sizeof digest, "%016" PRIx64,
                    deterministic_digest(run.launches[k], line_text));
      lines.push_back(l.id + "\t" + request_key(r) + "\t" + std::to_string(k) + "\t" +
                      run.launches[k].header.kernel + "\t" + digest);
    }
    if (!run.status.ok())
      lines.push_back(l.id + "\t" + request_key(r) + "\terror\t" + run.status.message().substr(0, 60));
  }
  return lines;
}

std::vector<std::string> recorded_lines(const std::string& id) {
  std::ifstream in(std::string(COOPVIZ_SOURCE_DIR) + "/tests/lessons/trace_digests.txt");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(id + "\t")) lines.push_back(line);
  return lines;
}

class TraceDigests : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceDigests, EveryRequestOfTheLessonTracesWhatItDidBefore) {
  const LessonDef* l = find_lesson(GetParam());
  ASSERT_NE(l, nullptr);
  const std::vector<std::string> now = digest_lines(*l);
  if (const char* out = std::getenv("COOPVIZ_WRITE_TRACE_DIGESTS")) {
    std::ofstream file(out, std::ios::app);
    for (const std::string& line : now) file << line << "\n";
    GTEST_SKIP() << "wrote " << now.size() << " digests of " << l->id << " to " << out;
  }
  const std::vector<std::string> before = recorded_lines(l->id);
  ASSERT_FALSE(before.empty()) << l->id << " has no recorded digests (see this file's header)";
  const std::set<std::string> a(before.begin(), before.end()), b(now.begin(), now.end());
  for (const std::string& line : before)
    EXPECT_TRUE(b.count(line)) << "recorded, not traced now: " << line;
  for (const std::string& line : now) EXPECT_TRUE(a.count(line)) << "traced now, not recorded: " << line;
}

std::vector<std::string> ids() {
  std::vector<std::string> v;
  for (const LessonDef& l : registry()) v.push_back(l.id);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Registry, TraceDigests, ::testing::ValuesIn(ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

}  // namespace
}  // namespace coop::lessons
