// coopviz exercise list|start|check|hint|solution: the lessons' exercises (app/exercise).
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/commands.hpp"
#include "app/cli/progress_bar.hpp"
#include "app/exercise/exercise.hpp"
#include "app/exercise/progress.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace fs = std::filesystem;
namespace {

// What the subcommands are given.
struct ExerciseArgs {
  std::string id, file, out;
  std::string progress = default_progress_path();  // where checks are counted
  int hint = 0;
  bool json = false, force = false, teacher = false;
};

// Copies `from` into the folder `out` (made if needed); an existing file is kept unless `force`.
int write_copy(const fs::path& from, const std::string& out, bool force) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return usage_error("--out " + out + ": cannot create the folder: " + ec.message());
  const fs::path to = fs::path(out) / from.filename();
  if (fs::exists(to, ec) && !force)
    return usage_error(to.string() + " exists; give --force to overwrite it");
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    std::cerr << "coopviz: error: cannot write " << to.string() << ": " << ec.message() << "\n";
    return 1;
  }
  std::cout << "wrote " << to.string() << "\n";
  return 0;
}

int list_exercises(const ExerciseArgs& a) {
  Result<std::vector<Exercise>> all = find_exercises();
  if (!all) return usage_error(all.message());
  // A damaged progress file does not hide the list: it is said, and nothing counts as done.
  Result<ProgressBook> book = load_progress(a.progress);
  if (!book) std::cerr << "coopviz: warning: " << book.message() << "\n";
  const auto progress_of = [&](const Exercise& e) {
    if (!book) return ExerciseProgress{};
    auto it = book->exercises.find(e.id);
    return it == book->exercises.end() ? ExerciseProgress{} : it->second;
  };
  if (a.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const Exercise& e : *all) {
      const ExerciseProgress p = progress_of(e);
      list.push_back({{"id", e.id},
                      {"lesson", e.lesson},
                      {"title", e.title},
                      {"hints", e.hints.size()},
                      {"solved", p.solved},
                      {"attempts", p.attempts}});
    }
    std::cout << list.dump(2) << "\n";
    return 0;
  }
  for (const Exercise& e : *all)
    std::cout << e.id << "  (" << e.lesson << ")  " << e.title << "  ["
              << progress_words(progress_of(e)) << "]\n";
  return 0;
}

int start_exercise(const Exercise& e, const ExerciseArgs& a) {
  if (int rc = write_copy(e.starter(), a.out, a.force); rc != 0) return rc;
  std::cout << "# " << e.title << "\n\n"
            << e.spec << "\n\nCheck it with: coopviz exercise check " << e.id << " "
            << (fs::path(a.out) / "starter.cu").string() << "\n";
  return 0;
}

int show_hint(const Exercise& e, const ExerciseArgs& a) {
  if (e.hints.empty()) return usage_error("exercise " + e.id + " has no hints");
  const int n = a.hint == 0 ? 1 : a.hint;
  if (n < 1 || n > int(e.hints.size()))
    return usage_error("hint " + std::to_string(a.hint) + " of exercise " + e.id +
                       ": it has hints 1 to " + std::to_string(e.hints.size()));
  std::cout << "Hint " << n << " of " << e.hints.size() << ":\n" << e.hints[n - 1] << "\n";
  return 0;
}

nlohmann::json case_json(const CaseResult& c) {
  nlohmann::json j = {{"schedule", c.schedule},
                      {"launch", c.launch},
                      {"input", c.input},
                      {"result", c.passed ? "passed" : "failed"},
                      {"cpu_seconds", c.cpu_seconds}};
  if (c.index >= 0) j.update({{"index", c.index}, {"got", c.got}, {"want", c.want}});
  if (!c.problem.empty()) j["problem"] = c.problem;
  if (!c.trace_path.empty()) j["trace"] = c.trace_path;
  const CaseResult::FirstDifference& d = c.first_difference;
  if (!d.what.empty())
    j["first_difference"] = {{"launch", d.launch},
                             {"event", d.event},
                             {"thread", d.thread},
                             {"block", d.block},
                             {"what", d.what}};
  return j;
}

// Where the failing case's trace first departs from the reference's, and how to look at it.
void print_first_difference(const CaseResult& c) {
  const CaseResult::FirstDifference& d = c.first_difference;
  if (d.what.empty()) return;
  std::cout << "  first difference from the reference";
  if (d.launch >= 0) std::cout << " (launch " << d.launch << ", event " << d.event << ")";
  std::cout << ": " << d.what << "\n";
  if (c.trace_path.empty()) return;
  std::cout << "  see it: coopviz gui --trace " << c.trace_path;
  if (d.launch >= 0 && d.event >= 0) std::cout << " --event " << d.launch << ":" << d.event;
  std::cout << "\n";
}

void print_report(const CheckReport& r) {
  if (!r.compiled) {
    std::cerr << r.compiler_output << (r.compiler_output.ends_with("\n") ? "" : "\n");
    std::cout << r.exercise << ": failed: " << r.file << " did not compile (the compiler's words "
              << "are above)\n";
    return;
  }
  size_t failed = 0;
  for (const CaseResult& c : r.cases) {
    if (c.passed) continue;
    // A failing case names its launch, its input and the first wrong output.
    if (++failed > 5) continue;
    std::cout << "  failed: " << c.launch << ", input " << c.input << " (" << c.schedule
              << " schedule): ";
    if (c.index >= 0)
      std::cout << "output " << c.index << " is " << c.got << ", want " << c.want << "\n";
    else
      std::cout << c.problem << "\n";
    print_first_difference(c);
  }
  if (failed > 5) std::cout << "  ... and " << failed - 5 << " more failed cases\n";
  if (!r.problem.empty()) std::cout << "  " << r.problem << "\n";
  std::cout << r.exercise << ": " << (r.passed() ? "passed" : "failed") << " ("
            << r.cases.size() - failed << " of " << r.cases.size() << " hidden cases passed)\n";
}

int check(const Exercise& e, const ExerciseArgs& a) {
  // A FIFO or a device is named for what it is (the reader's words), not as missing.
  if (std::error_code ec; !fs::is_regular_file(a.file, ec))
    return usage_error(fs::exists(a.file, ec) ? read_user_file(a.file, kTextFileLimit).message()
                                              : "no file '" + a.file + "' to check");
  Result<CheckReport> report = [&] {
    ProgressBar bar;
    return check_exercise(e, a.file, [&](double f, const std::string& s) { bar.update(f, s); });
  }();
  if (!report) {
    std::cerr << "coopviz: error: " << report.message() << "\n";
    return 1;
  }
  // The check counts even when it cannot be written down: the verdict is what was asked for.
  if (Result<ExerciseProgress> p =
          record_check(a.progress, e.id, fs::absolute(a.file).string(), report->passed());
      !p)
    std::cerr << "coopviz: warning: this check was not recorded: " << p.message() << "\n";
  if (a.json) {
    nlohmann::json out = {{"exercise", e.id},
                          {"file", a.file},
                          {"verdict", report->passed() ? "passed" : "failed"},
                          {"compiled", report->compiled},
                          {"build_seconds", report->build_seconds},
                          {"build_cached", report->build_cached},
                          {"seconds", report->seconds},
                          {"cases", nlohmann::json::array()}};
    if (!report->compiled) out["compiler_output"] = report->compiler_output;
    if (!report->problem.empty()) out["problem"] = report->problem;
    for (const CaseResult& c : report->cases) out["cases"].push_back(case_json(c));
    std::cout << out.dump(2) << "\n";
  } else {
    print_report(*report);
  }
  if (!report->compiled) return 3;
  return report->passed() ? 0 : 1;
}

// Runs `action` on the exercise named by a.id; an unknown id is a usage error naming the known.
template <class Action>
int with_exercise(const ExerciseArgs& a, Action action) {
  Result<Exercise> e = find_exercise(a.id);
  if (!e) return usage_error(e.message());
  return action(*e, a);
}

}  // namespace

void register_exercise(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "exercise",
      "Exercises: a spec and a CUDA file with a part to write, checked on hidden cases");
  // At most one; none is refused in the callback, so that a misspelt one is named as unknown.
  cmd->require_subcommand(0, 1);
  cmd->callback([cmd, &state] {
    if (cmd->get_subcommands().empty())
      state.exit_code = usage_error(
          "`coopviz exercise` needs a command (commands: list, start, check, hint, solution)");
  });
  auto a = std::make_shared<ExerciseArgs>();
  const auto id_option = [a](CLI::App* sub) {
    sub->add_option("id", a->id, "Exercise id (see `coopviz exercise list`)")->required();
  };

  auto* list = cmd->add_subcommand("list", "List the exercises: id, lesson and title");
  list->add_flag("--json", a->json, "Print JSON (id, lesson, title, hints, solved, attempts)");
  list->add_option("--progress", a->progress, "Progress file to read solved and attempts from")
      ->capture_default_str();
  list->callback([a, &state] { state.exit_code = list_exercises(*a); });

  auto* start = cmd->add_subcommand("start", "Write the exercise's starter file into a folder");
  id_option(start);
  start->add_option("--out", a->out, "Folder to write starter.cu into")->required();
  start->add_flag("--force", a->force, "Overwrite an existing starter.cu");
  start->callback([a, &state] { state.exit_code = with_exercise(*a, start_exercise); });

  auto* check_cmd = cmd->add_subcommand(
      "check", "Check your file on the exercise's hidden cases (emulator): passed or failed");
  id_option(check_cmd);
  check_cmd->add_option("file", a->file, "Your .cu file")->required();
  check_cmd->add_flag("--json", a->json, "Print JSON: verdict, cases, the compiler's words");
  check_cmd->add_option("--progress", a->progress, "Progress file the check is counted in")
      ->capture_default_str();
  check_cmd->callback([a, &state] { state.exit_code = with_exercise(*a, check); });

  auto* hint = cmd->add_subcommand("hint", "Show hint N of the exercise (the first by default)");
  id_option(hint);
  hint->add_option("n", a->hint, "Which hint, from 1")->check(CLI::Range(1, 3));
  hint->callback([a, &state] { state.exit_code = with_exercise(*a, show_hint); });

  auto* solution =
      cmd->add_subcommand("solution", "For teachers: write the reference solution into a folder");
  id_option(solution);
  solution->add_option("--out", a->out, "Folder to write solution.cu into")->required();
  solution->add_flag("--teacher", a->teacher, "Say that you are the teacher (required)");
  solution->add_flag("--force", a->force, "Overwrite an existing solution.cu");
  solution->callback([a, &state] {
    state.exit_code = a->teacher
                          ? with_exercise(*a,
                                          [](const Exercise& e, const ExerciseArgs& args) {
                                            return write_copy(e.solution(), args.out, args.force);
                                          })
                          : usage_error("exercise solution is for teachers: give --teacher");
  });
}

}  // namespace coop::app
