// Every lesson's text through the lesson-text Markdown parser (visual/markdown.hpp): no
// construct left unparsed. Here, not in markdown_test.cpp, because it needs the lessons.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "visual/markdown.hpp"

namespace coop::visual {
namespace {

TEST(Markdown, EveryLessonTextParses) {
  size_t tables = 0;
  for (const lessons::LessonDef& l : lessons::registry()) {
    const auto blocks = parse_markdown(l.text);
    ASSERT_FALSE(blocks.empty()) << l.id;
    EXPECT_EQ(blocks[0].kind, BlockKind::Heading) << l.id << " starts with its title";
    // Text left over from a construct the parser did not understand: markers shown raw.
    auto check_spans = [&](const std::vector<TextSpan>& spans) {
      for (const TextSpan& s : spans) {
        EXPECT_EQ(s.text.find("**"), std::string::npos) << l.id << ": " << s.text;
        if (s.style == SpanStyle::Code) continue;
        EXPECT_EQ(s.text.find('`'), std::string::npos) << l.id << ": " << s.text;
        // A `*` left in text must be a product ("a * b"), never a marker hugging a word.
        for (size_t i = s.text.find('*'); i != std::string::npos; i = s.text.find('*', i + 1)) {
          const bool space_before = i == 0 || s.text[i - 1] == ' ';
          const bool space_after = i + 1 == s.text.size() || s.text[i + 1] == ' ';
          EXPECT_TRUE(space_before && space_after) << l.id << ": stray '*' in: " << s.text;
        }
      }
    };
    for (const TextBlock& b : blocks) {
      if (b.kind == BlockKind::CodeBlock) continue;  // verbatim by design
      if (b.kind == BlockKind::Table) {
        ++tables;
        EXPECT_FALSE(b.table.rows.empty()) << l.id;
        check_spans(b.table.header.front());
        for (const auto& row : b.table.rows)
          for (const TableCell& cell : row) {
            EXPECT_FALSE(cell.empty()) << l.id << ": an empty table cell";
            check_spans(cell);
          }
        continue;
      }
      check_spans(b.spans);
      // A table row the parser missed shows up as text starting with a bar.
      EXPECT_FALSE(!b.spans.empty() && b.spans.front().text.starts_with('|'))
          << l.id << ": stray table row: " << b.spans.front().text;
    }
  }
  EXPECT_GE(tables, 4u) << "occupancy, collectives, warp-collectives and atomic-scopes have tables";
}

}  // namespace
}  // namespace coop::visual
