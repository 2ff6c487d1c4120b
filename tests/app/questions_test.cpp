// Predict-then-run questions (app/questions): every lesson asks some, every one is answered from
// its step's own run, answers follow the run (launch, seed), answers are checked, the score file
// round-trips. The command line is in questions_cli_test.cpp.
#include <gtest/gtest.h>

#include <unistd.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/backend.hpp"
#include "app/questions/questions.hpp"
#include "app/questions/score.hpp"
#include "tests/support.hpp"

namespace coop::app {
namespace {

const Question& question(const std::vector<Question>& all, const std::string& id) {
  for (const Question& q : all)
    if (q.id == id) return q;
  ADD_FAILURE() << "no question " << id;
  static const Question none;
  return none;
}

// The question's true answer on the lesson run `req` asks for, on `exec`.
Result<TrueAnswer> answer_on(const Question& q, Executor& exec, const lessons::RunRequest& req,
                             lessons::LessonRun* kept = nullptr) {
  const lessons::LessonDef& l = *lessons::find_lesson(q.lesson);
  const lessons::Step& step = l.steps[size_t(q.step - 1)];
  lessons::LessonRun run = lessons::run_lesson(l, exec, req);
  std::vector<std::string> kernels;
  for (const Trace& t : run.launches) kernels.push_back(t.header.kernel);
  const int launch = step_launch_index(step, kernels);
  Result<TrueAnswer> a =
      evaluate(q, {&l, &step, launch < 0 ? nullptr : &run.launches[size_t(launch)], run.results});
  if (kept) *kept = std::move(run);
  return a;
}

lessons::RunRequest step_run_request(const Question& q) {
  const lessons::LessonDef& l = *lessons::find_lesson(q.lesson);
  return lessons::step_request(l, l.steps[size_t(q.step - 1)]);
}

TEST(Questions, EveryLessonAsksAtLeastTwoWithUniqueIdsTiedToSteps) {
  for (const lessons::LessonDef& l : lessons::registry()) {
    Result<std::vector<Question>> qs = find_questions(l.id);
    ASSERT_TRUE(qs.ok()) << qs.message();
    EXPECT_GE(qs->size(), 2u) << l.id;
    std::set<std::string> ids;
    for (const Question& q : *qs) {
      EXPECT_TRUE(ids.insert(q.id).second) << l.id << ": " << q.id;
      EXPECT_EQ(q.lesson, l.id);
      EXPECT_GE(q.step, 1);
      EXPECT_LE(q.step, int(l.steps.size())) << q.id;
      EXPECT_FALSE(q.prompt.empty()) << q.id;
    }
  }
}

TEST(Questions, EveryQuestionIsAnsweredFromItsStepsEmulatorRun) {
  auto exec = testing::emulator();
  for (const lessons::LessonDef& l : lessons::registry()) {
    Result<std::vector<AnsweredQuestion>> answered =
        answer_lesson_questions(l.id, *exec, Schedule::Lockstep, 0);
    ASSERT_TRUE(answered.ok()) << answered.message();
    for (const AnsweredQuestion& a : *answered) {
      ASSERT_TRUE(a.answer.ok()) << a.answer.message();
      EXPECT_FALSE(a.answer->value.empty()) << l.id << "/" << a.question.id;
      EXPECT_FALSE(a.answer->found.empty()) << l.id << "/" << a.question.id;
    }
  }
}

// A count over the whole launch says so, and its explanation arrives at the number it wants:
// split-barriers' arrivals are every block's, at each block's own barrier.
TEST(Questions, TheSplitBarrierArrivalsQuestionAndItsExplanationAgree) {
  Result<std::vector<Question>> qs = find_questions("split-barriers");
  ASSERT_TRUE(qs.ok()) << qs.message();
  const Question& q = question(*qs, "arrivals");
  auto exec = testing::emulator();
  lessons::LessonRun run;
  Result<TrueAnswer> a = answer_on(q, *exec, step_run_request(q), &run);
  ASSERT_TRUE(a.ok()) << a.message();
  const lessons::LessonDef& l = *lessons::find_lesson(q.lesson);
  const lessons::Step& step = l.steps[size_t(q.step - 1)];
  uint64_t blocks = 0, block_threads = 0;
  for (const Trace& t : run.launches)
    if (t.header.kernel == step.kernel) {
      blocks = t.header.launch.grid.count();
      block_threads = t.header.launch.block.count();
    }
  ASSERT_GT(blocks, 1u);
  EXPECT_EQ(a->value, std::to_string(blocks * block_threads));
  const std::string all_blocks = "all " + std::to_string(blocks) + " blocks";
  EXPECT_NE(q.prompt.find(all_blocks), std::string::npos) << q.prompt;
  EXPECT_NE(q.why.find(std::to_string(block_threads) + " threads"), std::string::npos) << q.why;
  EXPECT_NE(q.why.find(a->value), std::string::npos) << q.why;
}

TEST(Questions, QuestionsStayOutOfTheStepText) {
  const lessons::LessonDef& l = *lessons::find_lesson("occupancy");
  for (const lessons::Step& s : l.steps) {
    EXPECT_EQ(s.text.find("```question"), std::string::npos) << s.title;
    EXPECT_EQ(s.text.find("query:"), std::string::npos) << s.title;
  }
}

TEST(Questions, RanksAndShufflesAreReadFromTheTrace) {
  auto exec = testing::emulator();
  Result<std::vector<Question>> ranks = find_questions("groups-and-ranks");
  ASSERT_TRUE(ranks.ok()) << ranks.message();
  const Question& rank = question(*ranks, "rank-in-block");
  Result<TrueAnswer> a = answer_on(rank, *exec, step_run_request(rank));
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->value, "11") << "thread 75 of blocks of 64 is rank 75 - 64";
  // With blocks of 32, thread 75 is rank 11 of block 2: the answer follows the launch.
  lessons::RunRequest req = step_run_request(rank);
  req.config.block = {32, 1, 1};
  req.config.grid = {4, 1, 1};
  req.block_given = req.grid_given = true;
  Result<TrueAnswer> b = answer_on(rank, *exec, req);
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->value, "11");
  req.config.block = {48, 1, 1};
  Result<TrueAnswer> c = answer_on(rank, *exec, req);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->value, "27") << "75 - 48";

  Result<std::vector<Question>> warp = find_questions("warp-collectives");
  ASSERT_TRUE(warp.ok()) << warp.message();
  const Question& shfl = question(*warp, "shfl-lane-5");
  Result<TrueAnswer> s = answer_on(shfl, *exec, step_run_request(shfl));
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->value, "105") << "lane 5 holds 100 + 5";
}

TEST(Questions, BlocksPerSmFollowsTheBlockSize) {
  auto exec = testing::emulator();
  Result<std::vector<Question>> qs = find_questions("occupancy");
  ASSERT_TRUE(qs.ok()) << qs.message();
  const Question& q = question(*qs, "blocks-768");
  lessons::RunRequest req = step_run_request(q);
  Result<TrueAnswer> at768 = answer_on(q, *exec, req);
  ASSERT_TRUE(at768.ok()) << at768.message();
  EXPECT_EQ(at768->value, "2");
  req.config.block = {512, 1, 1};
  req.block_given = true;
  Result<TrueAnswer> at512 = answer_on(q, *exec, req);
  ASSERT_TRUE(at512.ok()) << at512.message();
  EXPECT_EQ(at512->value, "4") << "2048 threads an SM hold, in blocks of 512";
  const Question& limiter = question(*qs, "limiter-smem");
  Result<TrueAnswer> l = answer_on(limiter, *exec, step_run_request(limiter));
  ASSERT_TRUE(l.ok()) << l.message();
  EXPECT_EQ(l->value, "shared memory") << "named as the choice is listed";
}

// The thread whose add found the largest old value: the last to land, found here independently.
uint32_t largest_old_value_thread(const Trace& t) {
  const Event* last = nullptr;
  for (const Event& e : t.events)
    if (e.kind == EventKind::Atomic && (!last || e.b > last->b)) last = &e;
  return last ? last->thread : ~0u;
}

TEST(Questions, AtomicOrderFollowsTheSeed) {
  auto exec = testing::emulator();
  Result<std::vector<Question>> qs = find_questions("atomics-and-races");
  ASSERT_TRUE(qs.ok()) << qs.message();
  const Question& q = question(*qs, "last-ticket");
  const lessons::LessonDef& l = *lessons::find_lesson(q.lesson);
  std::set<std::string> answers;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    lessons::RunRequest req = step_run_request(q);
    req.schedule = Schedule::Random;
    req.seed = seed;
    lessons::LessonRun run;
    Result<TrueAnswer> a = answer_on(q, *exec, req, &run);
    ASSERT_TRUE(a.ok()) << a.message();
    const Trace* shown = nullptr;
    for (const Trace& t : run.launches)
      if (t.header.kernel == l.steps[size_t(q.step - 1)].kernel) shown = &t;
    ASSERT_NE(shown, nullptr);
    EXPECT_EQ(a->value, std::to_string(largest_old_value_thread(*shown))) << "seed " << seed;
    answers.insert(a->value);
  }
  EXPECT_GT(answers.size(), 1u) << "six seeds, six interleavings: the last ticket moves";
}

TEST(Questions, AnUnanswerableQueryNamesTheQuestionAndWhy) {
  auto exec = testing::emulator();
  Result<std::vector<Question>> qs = find_questions("groups-and-ranks");
  ASSERT_TRUE(qs.ok()) << qs.message();
  Question q = question(*qs, "rank-in-block");
  q.query = "rank of thread 5000 in block";
  Result<TrueAnswer> a = answer_on(q, *exec, step_run_request(q));
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.message().find("question 'rank-in-block'"), std::string::npos) << a.message();
  EXPECT_NE(a.message().find("thread 5000 is not in this launch of 128 threads"), std::string::npos)
      << a.message();
  q.query = "result no-such-result";
  a = answer_on(q, *exec, step_run_request(q));
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.message().find("no result \"no-such-result\""), std::string::npos) << a.message();
  q.query = "rank of thread 3 in coalesced";  // on the step's lines no coalesced group is made
  a = answer_on(q, *exec, step_run_request(q));
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.message().find("has no coalesced event on lines"), std::string::npos) << a.message();
}

TEST(Questions, AnswersAreCheckedRightOrWrongWithTheTrueValue) {
  Question q;
  q.id = "x";
  q.answer = AnswerKind::Integer;
  q.why = "because.";  // written as a clause, it starts a sentence in the verdict
  const TrueAnswer truth{"11", "thread 75's rank"};
  Result<Verdict> right = check_answer(q, truth, " 11 ");
  ASSERT_TRUE(right.ok());
  EXPECT_TRUE(right->right);
  EXPECT_EQ(right->line, "Right: 11. Because.");
  Result<Verdict> wrong = check_answer(q, truth, "75");
  ASSERT_TRUE(wrong.ok());
  EXPECT_FALSE(wrong->right);
  EXPECT_EQ(wrong->line, "Not quite: it is 11, not 75 (thread 75's rank). Because.");
  Result<Verdict> text = check_answer(q, truth, "eleven");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.message().find("'eleven' is not a whole number"), std::string::npos);

  const TrueAnswer mask{"0x55555555", "the ballot"};
  EXPECT_TRUE(check_answer(q, mask, "0x55555555")->right);
  EXPECT_TRUE(check_answer(q, mask, "1431655765")->right) << "the same number in decimal";

  q.answer = AnswerKind::Lane;
  EXPECT_FALSE(check_answer(q, truth, "32").ok()) << "a lane is 0 to 31";

  q.answer = AnswerKind::Number;
  EXPECT_TRUE(check_answer(q, {"4", "sectors"}, "4.0")->right);
  EXPECT_FALSE(check_answer(q, {"4", "sectors"}, "8")->right);

  q.answer = AnswerKind::Choice;
  q.choices = {"warps", "registers", "shared memory", "blocks"};
  EXPECT_TRUE(check_answer(q, {"shared memory", ""}, "Shared_Memory")->right);
  EXPECT_TRUE(check_answer(q, {"shared memory", ""}, "3")->right) << "by its number in the list";
  EXPECT_FALSE(check_answer(q, {"shared memory", ""}, "warps")->right);
  Result<Verdict> none = check_answer(q, {"shared memory", ""}, "cache");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("1. warps, 2. registers"), std::string::npos) << none.message();
}

// A lesson whose lesson.md is `md`, to test how question blocks are read.
Result<std::vector<Question>> questions_of(const std::string& md) {
  static std::deque<std::string> texts;
  lessons::LessonDef l;
  l.id = "probe";
  Result<lessons::LessonMarkdown> parsed =
      lessons::parse_lesson_markdown(texts.emplace_back(md), "probe.md");
  if (!parsed) return parsed.status();
  l.steps = parsed->steps;
  return lesson_questions(l);
}

std::string step_with(const std::string& question_body) {
  return "Text.\n\n## Steps\n\n### One\n```step\nkernel: k\nmoment: end\ncolour: block\ntab: "
         "events\nline: x\n```\nStep text.\n\n```question\n" +
         question_body + "```\n";
}

TEST(Questions, BlocksThatDoNotParseNameTheLineAndTheProblem) {
  Result<std::vector<Question>> ok = questions_of(
      step_with("id: a\nask: Which?\nanswer: choice: one | two\nquery: occupancy limiter\n"));
  ASSERT_TRUE(ok.ok()) << ok.message();
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_EQ((*ok)[0].choices, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ((*ok)[0].step, 1);

  auto error_of = [](const std::string& body) {
    Result<std::vector<Question>> r = questions_of(step_with(body));
    return r.ok() ? std::string("no error") : r.message();
  };
  // Line 18 of the probe's lesson.md is the query line.
  EXPECT_NE(error_of("id: a\nask: ?\nquery: rank of thread x in block\n")
                .find("lessons/probe/lesson.md:18: question 'a': query 'rank of thread x in "
                      "block': 'x' is not a thread number"),
            std::string::npos)
      << error_of("id: a\nask: ?\nquery: rank of thread x in block\n");
  EXPECT_NE(error_of("id: a\nask: ?\nquery: the answer\n").find("write one of: rank of thread"),
            std::string::npos);
  EXPECT_NE(error_of("id: a\nhint: ?\n").find("unknown key 'hint'"), std::string::npos);
  EXPECT_NE(error_of("id: a\n").find("lacks ask, query"), std::string::npos);
  EXPECT_NE(error_of("id: A B\n").find("a short slug"), std::string::npos);
  EXPECT_NE(error_of("id: a\nask: ?\nanswer: choice: only\nquery: blocks per SM\n")
                .find("at least two choices"),
            std::string::npos);
  Result<std::vector<Question>> twice =
      questions_of(step_with("id: a\nask: ?\nquery: blocks per SM\n```\n\n```question\nid: a\nask: "
                             "?\nquery: warps per SM\n"));
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.message().find("question id 'a' is used twice"), std::string::npos);
  Result<lessons::LessonMarkdown> open = lessons::parse_lesson_markdown(
      "T\n## Steps\n### One\n```step\nkernel: k\nmoment: end\ncolour: block\ntab: e\nline: "
      "x\n```\n```question\nid: a\n",
      "probe.md");
  ASSERT_FALSE(open.ok());
  EXPECT_NE(open.message().find("its ```question block is not closed"), std::string::npos);
}

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          ("coopviz-questions-" + std::to_string(::getpid()) + name))
      .string();
}

TEST(QuestionScoreFile, RoundTripsAndStartsEmpty) {
  const std::string path = temp_path("/sub/questions.json");
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
  Result<QuestionScore> first = load_score(path);
  ASSERT_TRUE(first.ok()) << "a missing file is a fresh score";
  EXPECT_EQ(first->asked, 0u);
  QuestionScore s;
  Question q;
  q.lesson = "occupancy";
  q.id = "blocks-768";
  record_answer(s, q, true);
  q.id = "limiter-768";
  record_answer(s, q, false);
  EXPECT_EQ(s.right, 1u);
  EXPECT_EQ(s.asked, 2u);
  ASSERT_TRUE(save_score(path, s).ok()) << "creates the folder too";
  Result<QuestionScore> back = load_score(path);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(*back, s);
  EXPECT_FALSE(back->latest.at("occupancy/limiter-768"));
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST(QuestionScoreFile, ADamagedFileIsAClearError) {
  const std::string path = temp_path("-damaged.json");
  auto load_text = [&](const std::string& text) {
    std::ofstream(path) << text;
    Result<QuestionScore> r = load_score(path);
    return r.ok() ? std::string("loaded") : r.message();
  };
  EXPECT_NE(load_text("{not json").find(path + " is not valid JSON; delete it"), std::string::npos);
  EXPECT_NE(load_text(R"({"version": 1, "asked": 3})").find("lacks \"right\""), std::string::npos);
  EXPECT_NE(load_text(R"({"version": 1, "right": 4, "asked": 3})").find("says 4 right of 3 asked"),
            std::string::npos);
  EXPECT_NE(load_text(R"({"version": 1, "right": -1, "asked": 3})").find("lacks \"right\""),
            std::string::npos);
  EXPECT_NE(load_text(R"({"version": 1, "right": 1, "asked": 3, "latest": {"a/b": 2}})")
                .find("\"latest\".a/b that is not true or false"),
            std::string::npos);
  EXPECT_NE(load_text(R"({"version": 7, "right": 1, "asked": 3})").find("is not version 1"),
            std::string::npos);
  std::filesystem::remove(path);
}

TEST(QuestionsGpu, EveryQuestionIsAnsweredFromItsStepsGpuRun) {
  Result<BackendChoice> gpu = choose_backend(BackendRequest::Gpu);
  if (!gpu) GTEST_SKIP() << gpu.message();
  Executor& exec = *gpu->exec;
  const DeviceProps& d = exec.device();
  for (const lessons::LessonDef& l : lessons::registry()) {
    if (!l.runs_on_gpu || l.min_cc > d.cc_major * 10 + d.cc_minor) continue;
    Result<std::vector<AnsweredQuestion>> answered =
        answer_lesson_questions(l.id, exec, Schedule::Lockstep, 0);
    ASSERT_TRUE(answered.ok()) << answered.message();
    for (const AnsweredQuestion& a : *answered) {
      // A GPU records only traced(...) loads and stores: a question on the memory analysis of
      // untraced accesses is the emulator's, and must say so.
      const bool memory = a.question.query.starts_with("sectors per request") ||
                          a.question.query.starts_with("bank conflict ways");
      if (memory && !a.answer.ok()) {
        EXPECT_NE(a.answer.message().find("memory is recorded on the emulator"), std::string::npos)
            << a.answer.message();
        continue;
      }
      EXPECT_TRUE(a.answer.ok()) << a.answer.message();
    }
  }
}

}  // namespace
}  // namespace coop::app
