// `coopviz questions LESSON`: the real binary lists a lesson's questions with the answers its run
// gives, as JSON or text, follows --schedule and --seed, and refuses what it cannot do in one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/app/run_coopviz.hpp"

namespace {

using coop::testing::run_coopviz;

void expect_questions_usage_error(const coop::testing::Ran& r, const std::string& words) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("coopviz: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
}

TEST(QuestionsCli, JsonListsEveryQuestionWithItsAnswer) {
  const coop::testing::Ran r = run_coopviz("questions occupancy --backend emu --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_GE(j.size(), 2u);
  for (const nlohmann::json& q : j) {
    for (const char* key : {"lesson", "id", "step", "prompt", "kind", "query", "answer", "found"})
      EXPECT_TRUE(q.contains(key)) << key << " in " << q.dump();
    EXPECT_EQ(q["lesson"], "occupancy");
  }
  EXPECT_EQ(j[0]["id"], "blocks-768");
  EXPECT_EQ(j[0]["answer"], "2");
  EXPECT_EQ(j[1]["id"], "warps-768");
  EXPECT_EQ(j[1]["answer"], "48");
  bool choice = false;  // the limiter of 100 KB blocks, a choice named as it is listed
  for (const nlohmann::json& q : j)
    if (q["id"] == "limiter-smem") {
      choice = true;
      EXPECT_EQ(q["kind"], "choice");
      EXPECT_EQ(q["answer"], "shared memory");
      EXPECT_EQ(q["choices"].size(), 4u);
    }
  EXPECT_TRUE(choice);
}

TEST(QuestionsCli, TextNamesStepQuestionAndAnswer) {
  const coop::testing::Ran r = run_coopviz("questions warp-collectives --backend emu");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("warp-collectives step 1, shfl-lane-5:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    answer: 105  ("), std::string::npos) << r.out;
}

TEST(QuestionsCli, TheAtomicOrderFollowsTheSeed) {
  std::set<std::string> last;
  for (int seed : {1, 2, 3, 4, 5, 6}) {
    const coop::testing::Ran r =
        run_coopviz("questions atomics-and-races --backend emu --schedule random --seed " +
                    std::to_string(seed) + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const nlohmann::json& q : nlohmann::json::parse(r.out))
      if (q["id"] == "last-ticket") last.insert(q["answer"].get<std::string>());
  }
  EXPECT_GT(last.size(), 1u);
}

TEST(QuestionsCli, UsageErrors) {
  expect_questions_usage_error(run_coopviz("questions no-such-lesson"),
                               "unknown lesson 'no-such-lesson'");
  expect_questions_usage_error(run_coopviz("questions occupancy --backend cpu"), "--backend 'cpu'");
  expect_questions_usage_error(run_coopviz("questions occupancy --backend emu --schedule sideways"),
                               "--schedule");
}

}  // namespace
