#include "app/exercise/progress.hpp"

#include <climits>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/gui/settings.hpp"
#include "device/trace/trace_file.hpp"
#include "device/trace/user_file.hpp"

namespace coop::app {
namespace {

constexpr int kVersion = 1;

Status damaged(const std::string& path, const std::string& what) {
  return Status::error("progress file " + path + " " + what + "; delete it to start afresh");
}

}  // namespace

std::string default_progress_path() {
  return config_file_path("progress.json");
}

Result<ProgressBook> load_progress(const std::string& path) {
  ProgressBook book;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return book;  // nothing checked yet
  Result<std::string> text = read_user_file(path, kTextFileLimit);
  if (!text) return text.status();
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return damaged(path, "is not valid JSON");
  if (j.value("version", 0) != kVersion)
    return damaged(path, "has version " + j.value("version", nlohmann::json(0)).dump() + ", not " +
                             std::to_string(kVersion));
  if (!j.contains("exercises") || !j["exercises"].is_object())
    return damaged(path, "has no \"exercises\" object");
  for (const auto& [id, e] : j["exercises"].items()) {
    if (!e.is_object() || !e.value("attempts", nlohmann::json()).is_number_integer() ||
        !e.value("solved", nlohmann::json()).is_boolean())
      return damaged(path, "has a malformed entry for \"" + id +
                               "\" (it needs an integer \"attempts\" and a boolean \"solved\")");
    // Read wide: a count past int's range must not wrap into a small or negative one.
    const nlohmann::json& attempts = e["attempts"];
    const bool in_range = attempts.is_number_unsigned()
                              ? attempts.get<uint64_t>() <= uint64_t(INT_MAX)
                              : attempts.get<int64_t>() >= 0 && attempts.get<int64_t>() <= INT_MAX;
    if (!in_range)
      return damaged(path, "has " + attempts.dump() + " attempts for \"" + id +
                               "\", outside 0 to " + std::to_string(INT_MAX));
    ExerciseProgress& p = book.exercises[id];
    p.attempts = attempts.get<int>();
    p.solved = e["solved"].get<bool>();
    if (e.contains("last_file") && e["last_file"].is_string())
      p.last_file = e["last_file"].get<std::string>();
    if (e.contains("solution_seen") && e["solution_seen"].is_boolean())
      p.solution_seen = e["solution_seen"].get<bool>();
  }
  return book;
}

Status save_progress(const std::string& path, const ProgressBook& book) {
  if (path.empty()) return Status::error("no progress path (set HOME or XDG_CONFIG_HOME)");
  nlohmann::json exercises = nlohmann::json::object();
  for (const auto& [id, p] : book.exercises)
    exercises[id] = {{"attempts", p.attempts},
                     {"solved", p.solved},
                     {"last_file", p.last_file},
                     {"solution_seen", p.solution_seen}};
  const nlohmann::json j = {{"version", kVersion}, {"exercises", exercises}};
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) return Status::error("cannot create the folder for " + path + ": " + ec.message());
  return write_file_atomically(path, j.dump(2) + "\n");
}

std::string progress_words(const ExerciseProgress& p) {
  std::string words = p.attempts == 0 ? "not tried yet"
                                      : std::string(p.solved ? "solved, " : "not solved, ") +
                                            std::to_string(p.attempts) +
                                            (p.attempts == 1 ? " attempt" : " attempts");
  return p.solution_seen ? words + ", solution seen" : words;
}

namespace {

// Reads the book at `path`, lets `change` edit the exercise's entry, writes the book back.
template <class Change>
Result<ExerciseProgress> update_entry(const std::string& path, const std::string& exercise,
                                      Change change) {
  Result<ProgressBook> book = load_progress(path);
  if (!book) return book.status();
  ExerciseProgress& p = book->exercises[exercise];
  change(p);
  if (Status s = save_progress(path, *book); !s) return s;
  return p;
}

}  // namespace

Result<ExerciseProgress> record_check(const std::string& path, const std::string& exercise,
                                      const std::string& file, bool passed) {
  return update_entry(path, exercise, [&](ExerciseProgress& p) {
    if (p.attempts < INT_MAX) ++p.attempts;  // the count stops at the largest the file holds
    p.solved = p.solved || passed;
    p.last_file = file;
  });
}

Result<ExerciseProgress> record_solution_seen(const std::string& path,
                                              const std::string& exercise) {
  return update_entry(path, exercise, [](ExerciseProgress& p) { p.solution_seen = true; });
}

}  // namespace coop::app
