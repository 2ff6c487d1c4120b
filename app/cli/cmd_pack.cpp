// coopviz pack check|summary: a teacher's class pack (app/pack).
#include <iostream>
#include <memory>

#include "app/cli/commands.hpp"
#include "app/exercise/progress.hpp"
#include "app/pack/pack.hpp"

namespace coop::app {
namespace {

struct PackArgs {
  std::string file, progress;
  bool json = false;
};

int check_pack(const PackArgs& a) {
  Result<Pack> pack = load_pack(a.file);
  if (!pack) return usage_errors(pack.message());
  int counts[3] = {};
  for (const PackItem& item : pack->items) ++counts[int(item.kind)];
  std::cout << a.file << ": \"" << pack->title << "\", " << pack->items.size() << " items ("
            << counts[int(PackItemKind::Lesson)] << " lessons, "
            << counts[int(PackItemKind::Exercise)] << " exercises, "
            << counts[int(PackItemKind::Question)] << " questions): ok\n";
  return 0;
}

void print_summary(const PackSummary& s, const std::string& progress_path) {
  std::cout << s.title << "\n\nExercises: " << s.solved << " of " << s.exercises.size()
            << " solved, " << s.attempted << " attempted (" << progress_path << ")\n";
  for (const PackSummary::ExerciseRow& e : s.exercises)
    std::cout << "  "
              << (e.solved         ? "[solved] "
                  : e.attempts > 0 ? "[tried]  "
                                   : "[ ]      ")
              << e.id << " (" << e.lesson << "): " << e.title << ", " << e.attempts
              << (e.attempts == 1 ? " attempt\n" : " attempts\n");
  std::cout << "\nLessons, in order:\n";
  for (size_t i = 0; i < s.lessons.size(); ++i)
    std::cout << "  " << i + 1 << ". " << s.lessons[i].id << ", step " << s.lessons[i].step + 1
              << "\n";
  std::cout << "\nQuestions, in order:\n";
  for (size_t i = 0; i < s.questions.size(); ++i)
    std::cout << "  " << i + 1 << ". " << s.questions[i].lesson << "/" << s.questions[i].id << "\n";
}

int summarize(const PackArgs& a) {
  Result<Pack> pack = load_pack(a.file);
  if (!pack) return usage_errors(pack.message());
  const std::string path = a.progress.empty() ? default_progress_path() : a.progress;
  Result<ProgressBook> book = path.empty() ? ProgressBook{} : load_progress(path);
  if (!book) return usage_error(book.message());
  const PackSummary summary = summarize_pack(*pack, *book);
  if (a.json)
    std::cout << summary_json(summary) << "\n";
  else
    print_summary(summary, path.empty() ? "no progress file" : path);
  return 0;
}

}  // namespace

void register_pack(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "pack", "Class packs: a teacher's lessons, exercises and questions in order, in one file");
  // At most one; none is refused in the callback, so that a misspelt one is named as unknown.
  cmd->require_subcommand(0, 1);
  cmd->callback([cmd, &state] {
    if (cmd->get_subcommands().empty())
      state.exit_code = usage_error("`coopviz pack` needs a command (commands: check, summary)");
  });
  auto a = std::make_shared<PackArgs>();

  auto* check = cmd->add_subcommand(
      "check", "Check a pack: every error with its line (exit 2 when there is one)");
  check->add_option("file", a->file, "The pack file (see lessons/README.md)")->required();
  check->callback([a, &state] { state.exit_code = check_pack(*a); });

  auto* summary = cmd->add_subcommand(
      "summary",
      "The classroom summary: the pack's exercises solved on this machine, its lessons and "
      "questions");
  summary->add_option("file", a->file, "The pack file")->required();
  summary->add_flag("--json", a->json, "Print JSON: counts, exercises, lessons, questions");
  summary->add_option("--progress", a->progress,
                      "Progress file (default: " + default_progress_path() + ")");
  summary->callback([a, &state] { state.exit_code = summarize(*a); });
}

}  // namespace coop::app
