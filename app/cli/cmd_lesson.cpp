// coopviz lesson check FOLDER: a lesson folder's lesson.md read as the window would read it, its
// steps, their kernels, lines and tabs, and its questions checked against the folder's kernel
// file; every mistake with its file and line (app/questions/lesson_check.hpp).
#include <filesystem>
#include <iostream>
#include <memory>

#include "app/cli/commands.hpp"
#include "app/questions/lesson_check.hpp"
#include "lessons/lesson_folder.hpp"

namespace coop::app {
namespace {

int check_lesson(const std::string& folder) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) return usage_error(folder + ": no such folder");
  Result<lessons::LessonDef> read = lessons::read_lesson_folder(folder);
  if (!read) return usage_error(read.message());
  const lessons::LessonDef& l = *read;
  if (const std::string errors = lesson_errors(l); !errors.empty()) return usage_errors(errors);
  std::cout << l.text_file << ": " << lesson_summary(l) << ": ok\n";
  return 0;
}

}  // namespace

Result<std::string> lesson_argument(const std::string& arg) {
  std::error_code ec;
  if (arg.empty() || !std::filesystem::is_directory(arg, ec)) return arg;
  return lessons::add_lesson_folder(arg);
}

void register_lesson(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand("lesson", "Lesson folders: check one (its lesson.md against its program or kernel file)");
  // At most one; none is refused in the callback, so that a misspelt one is named as unknown.
  cmd->require_subcommand(0, 1);
  cmd->callback([cmd, &state] {
    if (cmd->get_subcommands().empty())
      state.exit_code = usage_error("`coopviz lesson` needs a command (commands: check)");
  });
  auto folder = std::make_shared<std::string>();
  auto* check = cmd->add_subcommand(
      "check",
      "Check a lesson folder's lesson.md against its kernel file: every error with its line "
      "(exit 2 when there is one)");
  check->add_option("folder", *folder, "The lesson's folder, e.g. lessons/block_reduce")
      ->required();
  check->callback([folder, &state] { state.exit_code = check_lesson(*folder); });
}

}  // namespace coop::app
