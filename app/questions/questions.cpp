#include "app/questions/questions.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "app/questions/lesson_check.hpp"
#include "app/questions/query.hpp"
#include "device/launch/trim.hpp"

namespace coop::app {
namespace {

constexpr std::string_view kKeys = "id, ask, answer, query, why";

// A choice as the student may type it: case aside, '_' read as a space ("shared_memory").
std::string normal_choice(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = c == '_' ? ' ' : char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// An id is a short slug: lower-case letters, digits and '-'.
bool is_slug(std::string_view id) {
  return !id.empty() && id.size() <= 40 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

// "integer", "number", "thread", "lane", or "choice: A | B | C".
Status parse_answer_kind(std::string_view v, Question& q) {
  const std::string_view head = trim(v.substr(0, v.find(':')));
  for (AnswerKind k :
       {AnswerKind::Integer, AnswerKind::Number, AnswerKind::Thread, AnswerKind::Lane})
    if (v == to_string(k)) {
      q.answer = k;
      return {};
    }
  if (head != "choice" || v.find(':') == std::string_view::npos)
    return Status::error("answer '" + std::string(v) +
                         "': integer, number, thread, lane, or choice: A | B | ...");
  q.answer = AnswerKind::Choice;
  std::string_view rest = v.substr(v.find(':') + 1);
  for (size_t i = 0; i <= rest.size();) {
    const size_t bar = std::min(rest.find('|', i), rest.size());
    if (const std::string_view c = trim(rest.substr(i, bar - i)); !c.empty())
      q.choices.emplace_back(c);
    i = bar + 1;
  }
  if (q.choices.size() < 2)
    return Status::error("answer '" + std::string(v) + "': list at least two choices, A | B");
  return {};
}

// One ```question block of step `step` (from 1) into a Question.
Result<Question> parse_block(const lessons::LessonDef& l, int step,
                             const lessons::StepQuestionBlock& b, const std::string& file) {
  Question q;
  q.lesson = l.id;
  q.step = step;
  q.md_line = b.md_line;
  int line_no = b.md_line;
  auto fail = [&](const std::string& what) {
    return Status::error(file + ":" + std::to_string(line_no) + ": question" +
                         (q.id.empty() ? "" : " '" + q.id + "'") + ": " + what);
  };
  std::string_view body = b.body;
  for (size_t pos = 0; pos < body.size();) {
    ++line_no;
    const size_t end = std::min(body.find('\n', pos), body.size());
    const std::string_view line = trim(body.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty()) continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos)
      return fail("'" + std::string(line) + "' is not a key: value line (" + std::string(kKeys) +
                  ")");
    const std::string_view key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (key == "id") {
      if (!is_slug(value))
        return fail("id '" + std::string(value) +
                    "': a short slug of a-z, 0-9 and '-', at most 40 characters");
      q.id = std::string(value);
    } else if (key == "ask") {
      q.prompt = std::string(value);
    } else if (key == "answer") {
      if (Status s = parse_answer_kind(value, q); !s) return fail(s.message());
    } else if (key == "query") {
      if (Result<Query> parsed = parse_query(value); !parsed) return fail(parsed.message());
      q.query = std::string(value);
      q.query_line = line_no;
    } else if (key == "why") {
      q.why = std::string(value);
    } else {
      return fail("unknown key '" + std::string(key) + "' (" + std::string(kKeys) + ")");
    }
  }
  line_no = b.md_line;
  std::string missing;
  for (auto [ok, key] :
       {std::pair{!q.id.empty(), "id"}, {!q.prompt.empty(), "ask"}, {!q.query.empty(), "query"}})
    if (!ok) missing += (missing.empty() ? "" : ", ") + std::string(key);
  if (!missing.empty()) return fail("the question block lacks " + missing);
  return q;
}

std::optional<int64_t> whole(std::string_view s) {
  s = trim(s);
  int base = 10;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return negative ? -v : v;
}

std::optional<double> number(std::string_view s) {
  s = trim(s);
  if (std::optional<int64_t> w = whole(s)) return double(*w);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// The listed choice `typed` names (its text, case aside, or its number from 1), or -1.
int choice_index(const Question& q, std::string_view typed) {
  const std::string t = normal_choice(trim(typed));
  for (size_t i = 0; i < q.choices.size(); ++i)
    if (normal_choice(q.choices[i]) == t) return int(i);
  if (std::optional<int64_t> n = whole(t); n && *n >= 1 && size_t(*n) <= q.choices.size())
    return int(*n - 1);
  return -1;
}

std::string choices_text(const Question& q) {
  std::string out;
  for (size_t i = 0; i < q.choices.size(); ++i)
    out += (i ? ", " : "") + std::to_string(i + 1) + ". " + q.choices[i];
  return out;
}

// Whether `value` reads as the question's kind of answer: a query whose true answer the student
// could not type is the lesson's mistake, reported as such.
Status fits_kind(const Question& q, const std::string& value) {
  switch (q.answer) {
    case AnswerKind::Integer:
    case AnswerKind::Thread:
      if (whole(value)) return {};
      return Status::error("its true answer '" + value + "' is not a whole number");
    case AnswerKind::Lane:
      if (std::optional<int64_t> v = whole(value); v && *v >= 0 && *v < 32) return {};
      return Status::error("its true answer '" + value + "' is not a lane (0 to 31)");
    case AnswerKind::Number:
      if (number(value)) return {};
      return Status::error("its true answer '" + value + "' is not a number");
    case AnswerKind::Choice:
      if (choice_index(q, value) >= 0) return {};
      return Status::error("its true answer '" + value + "' is not among its choices (" +
                           choices_text(q) + ")");
  }
  return {};
}

}  // namespace

const char* to_string(AnswerKind kind) {
  switch (kind) {
    case AnswerKind::Integer:
      return "integer";
    case AnswerKind::Number:
      return "number";
    case AnswerKind::Thread:
      return "thread";
    case AnswerKind::Lane:
      return "lane";
    case AnswerKind::Choice:
      return "choice";
  }
  return "?";
}

Result<std::vector<Question>> lesson_questions(const lessons::LessonDef& l) {
  if (std::string errors = lesson_errors(l); !errors.empty()) return Status::error(errors);
  std::string none;
  return parse_lesson_questions(l, none);
}

std::vector<Question> parse_lesson_questions(const lessons::LessonDef& l, std::string& errors) {
  std::string file = l.text_file;
  if (file.empty()) {  // a lesson made in code: its folder is its id with '-' written '_'
    std::string folder = l.id;
    std::replace(folder.begin(), folder.end(), '-', '_');
    file = "lessons/" + folder + "/lesson.md";
  }
  std::vector<Question> out;
  std::set<std::string> ids;
  auto fail = [&](const std::string& what) { errors += (errors.empty() ? "" : "\n") + what; };
  for (size_t s = 0; s < l.steps.size(); ++s)
    for (const lessons::StepQuestionBlock& b : l.steps[s].questions) {
      Result<Question> q = parse_block(l, int(s + 1), b, file);
      if (!q) {
        fail(q.message());
      } else if (!ids.insert(q->id).second) {
        fail(file + ":" + std::to_string(b.md_line) + ": question id '" + q->id +
             "' is used twice in lesson " + l.id);
      } else {
        out.push_back(std::move(*q));
      }
    }
  return out;
}

Result<std::vector<Question>> find_questions(const std::string& lesson_id) {
  const lessons::LessonDef* l = lessons::find_lesson(lesson_id);
  if (!l)
    return Status::error("unknown lesson '" + lesson_id + "': known lessons are " +
                         lessons::lesson_ids());
  return lesson_questions(*l);
}

Result<TrueAnswer> evaluate(const Question& q, const QuestionRun& run) {
  auto fail = [&](const std::string& why) {
    return Status::error("question '" + q.id + "' of " + q.lesson + " step " +
                         std::to_string(q.step) + " (" + q.query + "): " + why);
  };
  Result<Query> query = parse_query(q.query);
  if (!query) return fail(query.message());
  if (!run.lesson || !run.step) return fail("no lesson step to evaluate it on");
  Result<TrueAnswer> truth = evaluate_query(*query, run);
  if (!truth) return fail(truth.message());
  if (Status s = fits_kind(q, truth->value); !s) return fail(s.message());
  // A choice is named as it is listed, whatever the query's spelling.
  if (q.answer == AnswerKind::Choice)
    truth->value = q.choices[size_t(choice_index(q, truth->value))];
  return truth;
}

Result<Verdict> check_answer(const Question& q, const TrueAnswer& truth, std::string_view typed) {
  const std::string said(trim(typed));
  bool right = false;
  switch (q.answer) {
    case AnswerKind::Integer:
    case AnswerKind::Thread:
    case AnswerKind::Lane: {
      const std::optional<int64_t> v = whole(said);
      if (!v)
        return Status::error("'" + said + "' is not a whole number; type one, e.g. 5" +
                             (q.answer == AnswerKind::Lane ? " (a lane is 0 to 31)" : ""));
      if (q.answer == AnswerKind::Lane && (*v < 0 || *v > 31))
        return Status::error("lane " + said + " does not exist: a lane is 0 to 31");
      right = *v == whole(truth.value);
      break;
    }
    case AnswerKind::Number: {
      const std::optional<double> v = number(said), t = number(truth.value);
      if (!v) return Status::error("'" + said + "' is not a number; type one, e.g. 4 or 2.5");
      right = t && std::fabs(*v - *t) <= 0.005 * std::max(1.0, std::fabs(*t));
      break;
    }
    case AnswerKind::Choice: {
      const int i = choice_index(q, said);
      if (i < 0)
        return Status::error("'" + said + "' is not one of the choices: " + choices_text(q));
      right = q.choices[size_t(i)] == truth.value;
      break;
    }
  }
  Verdict v;
  v.right = right;
  // The why is written as a clause ("a tile of 4 ranks ..."): it starts a sentence here.
  std::string why = q.why.empty() ? "" : " " + q.why;
  if (why.size() > 1) why[1] = char(std::toupper(static_cast<unsigned char>(why[1])));
  v.line =
      right ? "Right: " + truth.value + "." + why
            : "Not quite: it is " + truth.value + ", not " + said + " (" + truth.found + ")." + why;
  return v;
}

int step_launch_index(const lessons::Step& step, std::span<const std::string> kernels) {
  for (int i = 0, seen = 0; i < int(kernels.size()); ++i)
    if (kernels[size_t(i)] == step.kernel && ++seen == step.launch) return i;
  return -1;
}

Result<std::vector<AnsweredQuestion>> answer_lesson_questions(const std::string& lesson_id,
                                                              Executor& exec, Schedule schedule,
                                                              uint64_t seed) {
  Result<std::vector<Question>> questions = find_questions(lesson_id);
  if (!questions) return questions.status();
  const lessons::LessonDef& l = *lessons::find_lesson(lesson_id);
  std::vector<AnsweredQuestion> out;
  int ran_step = 0;
  lessons::LessonRun run;
  for (const Question& q : *questions) {
    const lessons::Step& step = l.steps[size_t(q.step - 1)];
    if (ran_step != q.step) {  // questions come in step order: one run per step
      lessons::RunRequest req = lessons::step_request(l, step);
      req.schedule = schedule;
      req.seed = seed;
      run = lessons::run_lesson(l, exec, req);
      ran_step = q.step;
    }
    std::vector<std::string> kernels;
    for (const Trace& t : run.launches) kernels.push_back(t.header.kernel);
    const int launch = step_launch_index(step, kernels);
    const QuestionRun on{&l, &step, launch < 0 ? nullptr : &run.launches[size_t(launch)],
                         run.results};
    out.push_back({q, evaluate(q, on)});
  }
  return out;
}

}  // namespace coop::app
