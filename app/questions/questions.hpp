// Predict, then run: the questions a lesson asks before it shows a step ("what will thread 37's
// rank in its tile be?"), and their true answers, computed from the step's own run, never stored.
//
// A question is lesson data: a ```question block in a step of the lesson's lesson.md (see
// lessons/README.md, "Questions"). Its query names what to look up in the run: an event of the
// step's launch (a rank, a collective's output, which atomic landed last, a count), the launch's
// occupancy, the memory analysis of a line, or a named result of the lesson. Answers that depend
// on the schedule (atomic order) are read from the run they are checked against, so they are
// true on every seed and on the GPU. The command line (`coopviz questions`) and the window both
// use this library; the window only draws what it returns.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "device/launch/result.hpp"
#include "device/trace/trace.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {

// What the student types: a whole number, a decimal number, a thread or lane number, or one
// of the listed choices.
enum class AnswerKind : uint8_t { Integer, Number, Thread, Lane, Choice };

struct Question {
  std::string lesson, id, prompt;  // id: a short slug, unique in its lesson
  int step = 0;                    // the step it is asked before, from 1 (as `coopviz steps`)
  AnswerKind answer = AnswerKind::Integer;
  std::vector<std::string> choices;  // AnswerKind::Choice: the options, in the order shown
  std::string query;                 // what the true answer is, in the query grammar
  std::string why;                   // the concept behind the answer, one line (may be "")
  int md_line = 0;                   // its block's line in lesson.md
  int query_line = 0;                // its query's line in lesson.md
};

// Every question of the lesson, in step order; an error names the lesson.md line of a block that
// does not parse (an unknown key, a missing one, a query that is not in the grammar, a repeated
// id) or an unknown lesson.
Result<std::vector<Question>> find_questions(const std::string& lesson_id);
Result<std::vector<Question>> lesson_questions(const lessons::LessonDef& lesson);
// The questions of the lesson's steps that parse, whatever else is wrong with the lesson; every
// block's mistake goes to `errors`, one "FILE:LINE: what" a line (lesson_errors() gathers all).
std::vector<Question> parse_lesson_questions(const lessons::LessonDef& lesson, std::string& errors);

// "integer", "number", "thread", "lane", "choice".
const char* to_string(AnswerKind kind);

// The run a question is evaluated on: the step's launch and the lesson run's named results.
struct QuestionRun {
  const lessons::LessonDef* lesson = nullptr;
  const lessons::Step* step = nullptr;
  const Trace* launch = nullptr;  // the step's launch (null: the run has none)
  std::span<const std::pair<std::string, std::string>> results;  // LessonRun::results
};

// The true answer and where in the run it was found ("thread 37's tile, line 20").
struct TrueAnswer {
  std::string value;
  std::string found;
};

// Evaluates the question's query on `run`. An error names the question and why it cannot be
// answered from this run (no such thread, no such event on the step's lines, ...).
Result<TrueAnswer> evaluate(const Question& q, const QuestionRun& run);

// The student's answer against the true one.
struct Verdict {
  bool right = false;
  std::string line;  // "Right: 5. <why>" or "Not quite: it is 5 (you said 4): <found>. <why>"
};
// An answer that does not read as the question's kind (text for a number, a choice not listed)
// is an error naming what was expected, and is not counted.
Result<Verdict> check_answer(const Question& q, const TrueAnswer& truth, std::string_view typed);

// The index in `kernels` (the run's launches, by kernel name) of the step's launch: the
// `launch`-th launch of its kernel; -1 when the run has none.
int step_launch_index(const lessons::Step& step, std::span<const std::string> kernels);

// A question with its true answer on one run of its step (or why there is none).
struct AnsweredQuestion {
  Question question;
  Result<TrueAnswer> answer;
};

// Runs every step of the lesson that asks questions, as the window would (the step's launch and
// parameters; `schedule` and `seed` as asked), and answers its questions from that run.
Result<std::vector<AnsweredQuestion>> answer_lesson_questions(const std::string& lesson_id,
                                                              Executor& exec, Schedule schedule,
                                                              uint64_t seed);

}  // namespace coop::app
