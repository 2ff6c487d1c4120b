#include "app/questions/lesson_check.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "app/gui/tabs.hpp"
#include "app/questions/query.hpp"
#include "app/questions/questions.hpp"

namespace coop::app {
namespace {

void add(std::string& errors, const std::string& error) {
  errors += (errors.empty() ? "" : "\n") + error;
}

// What a question's query names that the lesson's kernel file does not have. A thread outside
// the launch is left to the run, whose launch the lesson may derive from its parameters.
void check_query(const lessons::LessonDef& l, const Question& q, const std::string& file,
                 std::string& errors) {
  Result<Query> query = parse_query(q.query);
  if (!query) return;  // parse_lesson_questions said so
  const std::string at = file + ":" + std::to_string(q.query_line) + ": question '" + q.id + "': ";
  if (!query->snippet.empty() && lessons::lines_with(l.source, query->snippet).empty())
    add(errors, at + "query '" + q.query + "': no line of " + l.source_file + " holds \"" +
                    query->snippet + "\"");
}

bool is_tab_title(std::string_view words) {
  for (int i = 0; i < kResultTabCount; ++i)
    if (words == tab_title(ResultTab(i))) return true;
  return false;
}

// Is `word` one of a tab title's words, in any case ("Flow", "events")?
bool tab_word(std::string_view word) {
  auto same = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  };
  for (int i = 0; i < kResultTabCount; ++i) {
    std::istringstream words(tab_title(ResultTab(i)));
    for (std::string w; words >> w;)
      if (std::ranges::equal(w, word, same)) return true;
  }
  return false;
}

// Where a step's text names a tab ("the Data flow tab", "the **Barriers** tab"), the name must be
// the title the student sees in the tab row: "the Flow tab" or "the events tab" sends them looking
// for a tab that is not there. The one or two words before "tab" are read, bold marks dropped; a
// word that is in no title ("this tab", "each tab") names no tab.
void check_tab_mentions(const lessons::LessonDef& l, const lessons::Step& s, std::string& errors) {
  std::string text = s.text;
  std::erase(text, '*');
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  auto word_before = [&](size_t end) {  // [begin, end) of the word that ends at `end`
    size_t begin = end;
    while (begin > 0 && word_char(text[begin - 1])) --begin;
    return begin;
  };
  for (size_t at = text.find(" tab"); at != std::string::npos; at = text.find(" tab", at + 1)) {
    if (at + 4 < text.size() && word_char(text[at + 4])) continue;  // "table", "tabs"
    const size_t w1 = word_before(at);
    const std::string_view one(text.data() + w1, at - w1);
    const size_t w2 = w1 > 0 && text[w1 - 1] == ' ' ? word_before(w1 - 1) : w1;
    const std::string_view two(text.data() + w2, at - w2);
    if (one.empty() || is_tab_title(one) || is_tab_title(two) || !tab_word(one)) continue;
    add(errors, l.text_file + ":" + std::to_string(s.md_line) + ": step '" + s.title + "': '" +
                    std::string(two) + " tab' names no tab; the tab row shows " + tab_titles());
  }
}

}  // namespace

std::string lesson_errors(const lessons::LessonDef& l) {
  std::string errors = l.steps_error;
  for (const lessons::Step& s : l.steps) {
    check_tab_mentions(l, s, errors);
    if (!tab_named(s.tab)) {
      const auto at = s.key_lines.find("tab");
      add(errors, l.text_file + ":" +
                      std::to_string(at == s.key_lines.end() ? s.md_line : at->second) +
                      ": step '" + s.title + "': tab '" + s.tab + "': choose " + tab_names());
    }
  }
  for (const Question& q : parse_lesson_questions(l, errors))
    check_query(l, q, l.text_file, errors);
  return errors;
}

std::string lesson_summary(const lessons::LessonDef& l) {
  size_t lines = 0;
  for (const lessons::Step& s : l.steps) lines += s.code.size();
  std::string errors;
  const size_t asked = parse_lesson_questions(l, errors).size();
  return std::to_string(l.steps.size()) + " steps, " + std::to_string(asked) + " questions, " +
         std::to_string(lines) + " line references found in " + l.source_file;
}

}  // namespace coop::app
