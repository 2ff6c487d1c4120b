// coopviz questions LESSON: the lesson's predict-then-run questions with their true answers,
// computed from this run of each step (app/questions), for teachers and tests.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/backend.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/schedule_options.hpp"
#include "app/questions/questions.hpp"

namespace coop::app {
namespace {

struct QuestionsArgs {
  std::string lesson, backend = "auto";
  ScheduleOptions schedule;
  bool json = false;
};

nlohmann::json question_json(const AnsweredQuestion& a) {
  const Question& q = a.question;
  nlohmann::json j = {
      {"lesson", q.lesson},          {"id", q.id},       {"step", q.step}, {"prompt", q.prompt},
      {"kind", to_string(q.answer)}, {"query", q.query}, {"why", q.why}};
  if (q.answer == AnswerKind::Choice) j["choices"] = q.choices;
  if (a.answer)
    j.update({{"answer", a.answer->value}, {"found", a.answer->found}});
  else
    j["error"] = a.answer.message();
  return j;
}

void print_text(const AnsweredQuestion& a) {
  const Question& q = a.question;
  std::cout << q.lesson << " step " << q.step << ", " << q.id << ": " << q.prompt << "\n";
  if (q.answer == AnswerKind::Choice) {
    std::cout << "    choices:";
    for (size_t i = 0; i < q.choices.size(); ++i)
      std::cout << (i ? " |" : "") << " " << q.choices[i];
    std::cout << "\n";
  }
  if (a.answer)
    std::cout << "    answer: " << a.answer->value << "  (" << a.answer->found << ")\n";
  else
    std::cout << "    cannot be answered: " << a.answer.message() << "\n";
}

int list_questions(const QuestionsArgs& a) {
  const Result<std::string> id = lesson_argument(a.lesson);
  if (!id) return usage_error(id.message());
  if (!lessons::find_lesson(*id))
    return usage_error("unknown lesson '" + a.lesson + "': known lessons are " +
                       lessons::lesson_ids());
  Result<BackendRequest> request = parse_backend_request(a.backend);
  if (!request) return usage_error(request.message());
  Result<BackendChoice> backend = choose_backend(*request);
  if (!backend) return usage_error(backend.message());
  Executor& exec = *backend->exec;
  Result<Schedule> schedule =
      check_schedule(a.schedule, exec.options().jobs, exec.backend() == Backend::Gpu);
  if (!schedule) return usage_error(schedule.message());
  if (!backend->banner.empty() && !a.json) std::cerr << backend->banner << "\n";
  Result<std::vector<AnsweredQuestion>> answered =
      answer_lesson_questions(*id, exec, *schedule, a.schedule.seed);
  if (!answered) {
    std::cerr << "coopviz: error: " << answered.message() << "\n";
    return 1;
  }
  bool all = true;
  nlohmann::json list = nlohmann::json::array();
  for (const AnsweredQuestion& q : *answered) {
    all = all && q.answer.ok();
    if (a.json)
      list.push_back(question_json(q));
    else
      print_text(q);
  }
  if (a.json) std::cout << list.dump(2) << "\n";
  return all ? 0 : 1;
}

}  // namespace

void register_questions(CLI::App& app, CliState& state) {
  auto a = std::make_shared<QuestionsArgs>();
  auto* cmd = app.add_subcommand(
      "questions",
      "List a lesson's predict-then-run questions with the answers this run of each step gives");
  cmd->add_option("lesson", a->lesson, "Lesson id (coopviz list) or a lesson folder")->required();
  cmd->add_flag("--json", a->json, "Print one JSON object per question, in a list");
  cmd->add_option("--backend", a->backend, "Where the steps run: " + backend_request_words())
      ->capture_default_str();
  add_schedule_options(cmd, a->schedule);
  cmd->callback([a, &state] { state.exit_code = list_questions(*a); });
}

}  // namespace coop::app
