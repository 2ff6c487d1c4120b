// What a student has done with the exercises on this machine: how many times each was checked
// and whether a check passed. Stored as JSON in the configuration folder (progress.json, beside
// the GUI's settings), written atomically, so the command line and the desktop app keep one
// record and a class pack's summary can read it.
#pragma once

#include <map>
#include <string>

#include "device/launch/result.hpp"

namespace coop::app {

struct ExerciseProgress {
  int attempts = 0;       // checks run, passed or not (a file that did not compile counts)
  bool solved = false;    // some check passed
  std::string last_file;  // the file of the latest check
  bool solution_seen = false;  // the reference solution was shown (the desktop app asks first)
  friend bool operator==(const ExerciseProgress&, const ExerciseProgress&) = default;
};

struct ProgressBook {
  std::map<std::string, ExerciseProgress> exercises;  // by exercise id
  friend bool operator==(const ProgressBook&, const ProgressBook&) = default;
};

// config_file_path("progress.json"); "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string default_progress_path();

// A missing file is an empty book; a damaged one an error naming the file and the problem.
Result<ProgressBook> load_progress(const std::string& path);
Status save_progress(const std::string& path, const ProgressBook& book);

// "solved, 3 attempts", "not solved, 1 attempt", "not tried yet", with ", solution seen".
std::string progress_words(const ExerciseProgress& p);

// Counts one check of `exercise` on `file` in the book at `path` (read, changed, written back).
// A solved exercise stays solved when a later check fails.
Result<ExerciseProgress> record_check(const std::string& path, const std::string& exercise,
                                      const std::string& file, bool passed);

// Marks the reference solution of `exercise` as seen in the book at `path`.
Result<ExerciseProgress> record_solution_seen(const std::string& path, const std::string& exercise);

}  // namespace coop::app
