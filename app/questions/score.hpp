// The student's score on predict-then-run questions, remembered between runs of the app in its
// own small JSON file beside the settings ($XDG_CONFIG_HOME/coopviz/questions.json), written
// atomically as the settings are.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "app/questions/questions.hpp"

namespace coop::app {

struct QuestionScore {
  uint64_t right = 0, asked = 0;  // answers checked, over every run of the app
  // "lesson/id" -> whether the latest answer to that question was right.
  std::map<std::string, bool> latest;
  friend bool operator==(const QuestionScore&, const QuestionScore&) = default;
};

// Counts one checked answer.
void record_answer(QuestionScore& score, const Question& q, bool right);

// questions.json in the folder of the settings file `settings_path` ("" for "").
std::string score_path_beside(const std::string& settings_path);

// A missing file is a fresh score; a damaged one is an error naming the file and what is wrong.
Result<QuestionScore> load_score(const std::string& path);
Status save_score(const std::string& path, const QuestionScore& score);

}  // namespace coop::app
