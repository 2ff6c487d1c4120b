// Class packs: one text file in which a teacher lists, in the order of the class, the lessons
// (each at a step, with a launch to start from), the exercises and the prediction questions,
// with notes for the teacher. The format is in lessons/README.md ("Class packs"); an example
// ships as packs/first-week.pack. The command line (`coopviz pack ...`) and the window both read
// packs through this library; it knows nothing of either.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/backend.hpp"
#include "app/exercise/progress.hpp"
#include "device/launch/dims.hpp"
#include "device/launch/result.hpp"
#include "device/launch/schedule.hpp"
#include "lessons/params.hpp"

namespace coop::app {

// What a lesson item sets before the lesson runs; anything left out is the step's own (or the
// lesson's, or the app's).
struct LaunchPreset {
  std::optional<Dim3> grid, block;
  lessons::Params params;  // only those the pack names
  std::optional<BackendRequest> backend;
  std::optional<Schedule> schedule;
  std::optional<uint64_t> seed;
};

enum class PackItemKind { Lesson, Exercise, Question };
const char* to_string(PackItemKind kind);  // "lesson", "exercise", "question"

struct PackItem {
  PackItemKind kind = PackItemKind::Lesson;
  int line = 0;          // where the pack file names it
  std::string lesson;    // the lesson id: the item's, the exercise's or the question's lesson
  int step = 0;          // the lesson's step it opens at, from 0 (a question: the step it is about)
  LaunchPreset preset;   // lesson items only
  std::string exercise;  // exercise items: its id
  std::string title;     // exercise items: the exercise's title
  std::string question;  // question items: its id within the lesson
  std::string notes;     // the teacher's notes, lines joined by '\n'
  // "lesson groups-and-ranks, step 2", "exercise tile-ranks", "question tiled-partitions/who".
  std::string label() const;
};

struct Pack {
  std::string file;  // as given (for messages)
  std::string title;
  std::vector<PackItem> items;
};

// A pack and everything wrong with it: each error is "FILE:LINE: what is wrong" (an unknown
// lesson names the known ones, a launch beyond a limit names the limit). A pack with errors is
// still filled with what could be read.
struct PackParse {
  Pack pack;
  std::vector<std::string> errors;
};
PackParse parse_pack(std::string_view text, const std::string& file);

// Reads and parses the file at `path`; any error (an unreadable file too) fails it, with every
// error on a line of its own.
Result<Pack> load_pack(const std::string& path);

// The step a question of `lesson` is asked at (from 0), or an error naming the known questions.
// The one place that asks for a lesson's questions.
Result<int> question_step(const std::string& lesson, const std::string& question);

// The classroom summary of a pack on this machine: its exercises with what the progress book
// says of each, and its lessons and questions in the pack's order.
struct PackSummary {
  struct ExerciseRow {
    std::string id, lesson, title;
    int attempts = 0;
    bool solved = false;
  };
  struct LessonRow {
    std::string id;
    int step = 0;  // from 0
  };
  struct QuestionRow {
    std::string lesson, id;
  };
  std::string title;
  std::vector<ExerciseRow> exercises;
  std::vector<LessonRow> lessons;
  std::vector<QuestionRow> questions;
  int solved = 0, attempted = 0;  // exercises solved, and checked at least once
};
PackSummary summarize_pack(const Pack& pack, const ProgressBook& progress);
// The summary as `coopviz pack summary --json` prints it.
std::string summary_json(const PackSummary& summary);

}  // namespace coop::app
