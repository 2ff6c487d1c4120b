// Class packs: a good pack read item by item, every kind of error with its file, line and the
// limit it broke, the shipped example, and the classroom summary from a progress book.
#include "app/pack/pack.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "app/exercise/exercise.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

// The errors of `text` as a pack file named "class.pack".
std::vector<std::string> errors_of(const std::string& text) {
  return parse_pack(text, "class.pack").errors;
}

// The one error of a pack whose title is fine and whose line 2 is `line`.
std::string error_of_line(const std::string& line) {
  const std::vector<std::string> errors = errors_of("title: T\n" + line + "\n");
  EXPECT_EQ(errors.size(), 1u) << line;
  return errors.empty() ? "" : errors.front();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Pack, ReadsItemsInOrderWithStepsPresetsAndNotes) {
  const std::string text =
      "# a comment\n"
      "title:  Week one \n"
      "\n"
      "lesson tiled-partitions step 2 grid 4 block 128 param tile=8 backend emu schedule random "
      "seed 7\n"
      "note: eight colours per warp\n"
      "  note: on the projector\n"
      "exercise tile-ranks\n"
      "question groups-and-ranks/rank-in-block\n"
      "lesson groups-and-ranks\n";
  PackParse parsed = parse_pack(text, "week.pack");
  ASSERT_TRUE(parsed.errors.empty()) << parsed.errors.front();
  const Pack& p = parsed.pack;
  EXPECT_EQ(p.title, "Week one");
  ASSERT_EQ(p.items.size(), 4u);

  const PackItem& lesson = p.items[0];
  EXPECT_EQ(lesson.kind, PackItemKind::Lesson);
  EXPECT_EQ(lesson.line, 4);
  EXPECT_EQ(lesson.lesson, "tiled-partitions");
  EXPECT_EQ(lesson.step, 1) << "steps are written from 1 and kept from 0";
  EXPECT_EQ(lesson.preset.grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(lesson.preset.block, (Dim3{128, 1, 1}));
  EXPECT_EQ(lesson.preset.params, (lessons::Params{{"tile", 8}}));
  EXPECT_EQ(lesson.preset.backend, BackendRequest::Emu);
  EXPECT_EQ(lesson.preset.schedule, Schedule::Random);
  EXPECT_EQ(lesson.preset.seed, 7u);
  EXPECT_EQ(lesson.notes, "eight colours per warp\non the projector");
  EXPECT_EQ(lesson.label(), "lesson tiled-partitions, step 2");

  const PackItem& exercise = p.items[1];
  EXPECT_EQ(exercise.kind, PackItemKind::Exercise);
  EXPECT_EQ(exercise.exercise, "tile-ranks");
  Result<Exercise> known = find_exercise("tile-ranks");
  ASSERT_TRUE(known.ok());
  EXPECT_EQ(exercise.lesson, known->lesson) << "an exercise opens its own lesson";
  EXPECT_EQ(exercise.title, known->title);
  EXPECT_TRUE(exercise.notes.empty());

  const PackItem& question = p.items[2];
  EXPECT_EQ(question.kind, PackItemKind::Question);
  EXPECT_EQ(question.lesson, "groups-and-ranks");
  EXPECT_EQ(question.question, "rank-in-block");
  EXPECT_EQ(question.label(), "question groups-and-ranks/rank-in-block");

  const PackItem& plain = p.items[3];
  EXPECT_EQ(plain.step, 0);
  EXPECT_FALSE(plain.preset.grid || plain.preset.block || plain.preset.backend ||
               plain.preset.schedule || plain.preset.seed);
  EXPECT_TRUE(plain.preset.params.empty());
}

TEST(Pack, UnknownNamesAreErrorsThatNameTheKnownOnes) {
  const std::string lesson = error_of_line("lesson no-such-lesson");
  EXPECT_TRUE(has(lesson, "class.pack:2: unknown lesson 'no-such-lesson'")) << lesson;
  EXPECT_TRUE(has(lesson, lessons::lesson_ids())) << lesson;

  const std::string exercise = error_of_line("exercise no-such-exercise");
  EXPECT_TRUE(has(exercise, "class.pack:2: ")) << exercise;
  EXPECT_TRUE(has(exercise, "no-such-exercise")) << exercise;
  EXPECT_TRUE(has(exercise, "tile-ranks")) << "the known exercises are named: " << exercise;

  const std::string question = error_of_line("question nowhere/which-lane");
  EXPECT_TRUE(has(question, "class.pack:2: question 'nowhere/which-lane': unknown lesson"))
      << question;
  EXPECT_TRUE(has(question, lessons::lesson_ids())) << question;
}

TEST(Pack, LaunchPresetsBeyondALimitNameTheLimit) {
  // CUDA's limit on threads per block, checked as every launch is.
  const std::string threads = error_of_line("lesson block-reduce block 2048");
  EXPECT_TRUE(has(threads, "class.pack:2: ")) << threads;
  EXPECT_TRUE(has(threads, "limit of 1024 threads per block")) << threads;
  const std::string grid_y = error_of_line("lesson groups-and-ranks grid 1,70000");
  EXPECT_TRUE(has(grid_y, "grid y = 70000 exceeds the device limit of 65535")) << grid_y;
  // A parameter's own range, and its power-of-two rule.
  const std::string range = error_of_line("lesson tiled-partitions param tile=64");
  EXPECT_TRUE(has(range, "parameter tile = 64 is outside 1..32")) << range;
  const std::string pow2 = error_of_line("lesson tiled-partitions param tile=3");
  EXPECT_TRUE(has(pow2, "must be a power of two in 1..32")) << pow2;
  const std::string unknown_param = error_of_line("lesson tiled-partitions param width=3");
  EXPECT_TRUE(has(unknown_param, "has no parameter 'width' (it takes tile)")) << unknown_param;
  // The lesson's own rules for its kernels.
  const std::string rule = error_of_line("lesson block-reduce block 96");
  EXPECT_TRUE(has(rule, "lesson block-reduce cannot run grid")) << rule;
  EXPECT_TRUE(has(rule, "power-of-two block of at most 1024")) << rule;
  // Steps the lesson has.
  const lessons::LessonDef& gr = *lessons::find_lesson("groups-and-ranks");
  const std::string step = error_of_line("lesson groups-and-ranks step 99");
  EXPECT_TRUE(has(
      step, "step 99: lesson groups-and-ranks has steps 1 to " + std::to_string(gr.steps.size())))
      << step;
  const std::string step0 = error_of_line("lesson groups-and-ranks step 0");
  EXPECT_TRUE(has(step0, "has steps 1 to")) << step0;
}

TEST(Pack, MalformedLinesAreErrorsWithTheirLine) {
  EXPECT_TRUE(has(error_of_line("lesson groups-and-ranks grid 0"), "at least 1"));
  EXPECT_TRUE(has(error_of_line("lesson groups-and-ranks grid"), "grid needs a value"));
  EXPECT_TRUE(has(error_of_line("lesson groups-and-ranks zoom 3"),
                  "a lesson line has no 'zoom': it takes step, grid, block, param, backend, "
                  "schedule and seed"));
  EXPECT_TRUE(has(error_of_line("lesson groups-and-ranks backend cuda"),
                  "backend 'cuda': choose auto, gpu or emu"));
  EXPECT_TRUE(has(error_of_line("lesson groups-and-ranks schedule fast"), "schedule"));
  EXPECT_TRUE(has(error_of_line("lesson groups-and-ranks seed -1"), "must not be negative"));
  EXPECT_TRUE(has(error_of_line("lesson groups-and-ranks grid 2 grid 4"), "grid is given twice"));
  EXPECT_TRUE(has(error_of_line("lesson tiled-partitions param tile"),
                  "param 'tile' is not of the form NAME=VALUE"));
  EXPECT_TRUE(has(error_of_line("lesson tiled-partitions param tile=two"), "not a whole number"));
  EXPECT_TRUE(has(error_of_line("question groups-and-ranks"), "LESSON-ID/QUESTION-ID"));
  EXPECT_TRUE(has(error_of_line("question groups-and-ranks/Rank_37"),
                  "lowercase letters, digits and dashes"));
  EXPECT_TRUE(has(error_of_line("exercise a b"), "exercise takes one exercise id"));
  EXPECT_TRUE(has(error_of_line("lessons groups-and-ranks\nlesson groups-and-ranks"),
                  "class.pack:2: unknown line 'lessons'"));
  EXPECT_TRUE(has(error_of_line("title: Again\nlesson groups-and-ranks"), "has a title already"));
}

TEST(Pack, EveryErrorIsReportedWithItsOwnLine) {
  const std::vector<std::string> errors = errors_of(
      "note: too early\n"
      "lesson groups-and-ranks\n"
      "lesson nope\n"
      "exercise nope\n");
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_TRUE(has(errors[0], "class.pack:1: a note belongs under")) << errors[0];
  EXPECT_TRUE(has(errors[1], "class.pack:3: unknown lesson 'nope'")) << errors[1];
  EXPECT_TRUE(has(errors[2], "class.pack:4: ")) << errors[2];
  EXPECT_TRUE(has(errors[3], "class.pack:1: the pack has no title")) << errors[3];
  const std::vector<std::string> empty = errors_of("title: Nothing yet\n# to do\n");
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_TRUE(has(empty[0], "class.pack:2: the pack lists no lesson, exercise or question"));
}

TEST(Pack, LoadNamesAFileItCannotRead) {
  Result<Pack> p = load_pack("/nonexistent/class.pack");
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(has(p.message(), "/nonexistent/class.pack")) << p.message();
}

TEST(Pack, TheShippedExamplePackChecks) {
  const std::string path = std::string(COOPVIZ_SOURCE_DIR) + "/packs/first-week.pack";
  Result<Pack> p = load_pack(path);
  ASSERT_TRUE(p.ok()) << p.message();
  int kinds[3] = {};
  for (const PackItem& item : p->items) ++kinds[int(item.kind)];
  EXPECT_GE(kinds[int(PackItemKind::Lesson)], 2);
  EXPECT_GE(kinds[int(PackItemKind::Exercise)], 2);
  EXPECT_GE(kinds[int(PackItemKind::Question)], 2);
}

// lessons/README.md's complete example is the shipped pack, less its comment lines.
TEST(Pack, TheReadmeExampleIsTheShippedPack) {
  const std::string source = COOPVIZ_SOURCE_DIR;
  Result<std::string> readme = read_whole_file(source + "/lessons/README.md");
  Result<std::string> pack = read_whole_file(source + "/packs/first-week.pack");
  ASSERT_TRUE(readme.ok() && pack.ok());
  const size_t start = readme->find("\ntitle: First week");
  ASSERT_NE(start, std::string::npos) << "the README's example is gone";
  const std::string example = readme->substr(start + 1, readme->find("```", start) - start - 1);
  std::string uncommented;
  std::istringstream lines(*pack);
  for (std::string line; std::getline(lines, line);)
    if (!line.starts_with("#")) uncommented += line + "\n";
  EXPECT_EQ(example, uncommented);
}

TEST(Pack, SummaryCountsTheProgressOfThePacksExercisesOnly) {
  PackParse parsed = parse_pack(
      "title: Week\nlesson groups-and-ranks step 2\nexercise tile-ranks\nexercise block-sum\n"
      "question tiled-partitions/which-tile\nexercise tile-shuffle-sum\n",
      "week.pack");
  ASSERT_TRUE(parsed.errors.empty()) << parsed.errors.front();
  ProgressBook book;
  book.exercises["tile-ranks"] = {3, true, "a.cu"};
  book.exercises["block-sum"] = {2, false, "b.cu"};
  book.exercises["fix-the-race"] = {5, true, "c.cu"};  // not in the pack
  const PackSummary s = summarize_pack(parsed.pack, book);
  EXPECT_EQ(s.title, "Week");
  ASSERT_EQ(s.exercises.size(), 3u);
  EXPECT_EQ(s.exercises[0].id, "tile-ranks");
  EXPECT_TRUE(s.exercises[0].solved);
  EXPECT_EQ(s.exercises[0].attempts, 3);
  EXPECT_FALSE(s.exercises[1].solved);
  EXPECT_EQ(s.exercises[1].attempts, 2);
  EXPECT_EQ(s.exercises[2].attempts, 0) << "never checked";
  EXPECT_EQ(s.solved, 1);
  EXPECT_EQ(s.attempted, 2);
  ASSERT_EQ(s.lessons.size(), 1u);
  EXPECT_EQ(s.lessons[0].id, "groups-and-ranks");
  EXPECT_EQ(s.lessons[0].step, 1);
  ASSERT_EQ(s.questions.size(), 1u);
  EXPECT_EQ(s.questions[0].id, "which-tile");

  const nlohmann::json j = nlohmann::json::parse(summary_json(s));
  EXPECT_EQ(j["counts"]["exercises"], 3);
  EXPECT_EQ(j["counts"]["solved"], 1);
  EXPECT_EQ(j["counts"]["attempted"], 2);
  EXPECT_EQ(j["exercises"][1]["id"], "block-sum");
  EXPECT_EQ(j["exercises"][1]["solved"], false);
  EXPECT_EQ(j["lessons"][0]["step"], 2) << "written from 1, as in the pack";
  EXPECT_EQ(j["questions"][0]["lesson"], "tiled-partitions");
}

}  // namespace
}  // namespace coop::app
