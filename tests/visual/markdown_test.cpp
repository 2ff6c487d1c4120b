// The lesson-text Markdown subset and its word-wrapping layout.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "visual/markdown.hpp"

namespace coop::visual {
namespace {

TEST(Markdown, ParsesHeadingsParagraphsAndLists) {
  const auto blocks = parse_markdown(
      "# Title\n\nFirst line\ncontinues here.\n\n## Plan\n\n1. **Inside** a block,\n"
      "   `sync()` waits.\n2. Across blocks\n\n- one\n- two `x`\n");
  ASSERT_EQ(blocks.size(), 7u);
  EXPECT_EQ(blocks[0].kind, BlockKind::Heading);
  EXPECT_EQ(blocks[0].level, 1);
  EXPECT_EQ(blocks[0].spans, (std::vector<TextSpan>{{SpanStyle::Plain, "Title"}}));
  EXPECT_EQ(blocks[1].kind, BlockKind::Paragraph);
  EXPECT_EQ(blocks[1].spans.at(0).text, "First line continues here.");
  EXPECT_EQ(blocks[2].level, 2);
  EXPECT_EQ(blocks[3].kind, BlockKind::Numbered);
  EXPECT_EQ(blocks[3].level, 1);
  EXPECT_EQ(blocks[3].spans, (std::vector<TextSpan>{{SpanStyle::Bold, "Inside"},
                                                    {SpanStyle::Plain, " a block, "},
                                                    {SpanStyle::Code, "sync()"},
                                                    {SpanStyle::Plain, " waits."}}));
  EXPECT_EQ(blocks[4].level, 2);
  EXPECT_EQ(blocks[5].kind, BlockKind::Bullet);
  EXPECT_EQ(blocks[6].spans.back(), (TextSpan{SpanStyle::Code, "x"}));
}

TEST(Markdown, UnmatchedMarkersStayText) {
  EXPECT_EQ(parse_inline("a ` b ** c"), (std::vector<TextSpan>{{SpanStyle::Plain, "a ` b ** c"}}));
  EXPECT_EQ(parse_inline("#hash is text").size(), 1u);
  EXPECT_EQ(parse_markdown("#include <x>").at(0).kind, BlockKind::Paragraph);
}

TEST(Markdown, FencedCodeKeepsItsLinesVerbatim) {
  const auto blocks = parse_markdown("Before.\n\n```python\n@cuda.jit\ndef f(a):\n    a[0] = 1  # **not bold**\n```\nAfter.");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[1].kind, BlockKind::CodeBlock);
  ASSERT_EQ(blocks[1].spans.size(), 3u);
  EXPECT_EQ(blocks[1].spans[2].text, "    a[0] = 1  # **not bold**");
  EXPECT_EQ(blocks[1].spans[2].style, SpanStyle::Code);
  EXPECT_EQ(blocks[2].kind, BlockKind::Paragraph);
}

TEST(Markdown, EveryLessonTextParses) {
  for (const lessons::LessonDef& l : lessons::registry()) {
    const auto blocks = parse_markdown(l.text);
    ASSERT_FALSE(blocks.empty()) << l.id;
    EXPECT_EQ(blocks[0].kind, BlockKind::Heading) << l.id << " starts with its title";
    for (const TextBlock& b : blocks)
      for (const TextSpan& s : b.spans) {
        if (b.kind == BlockKind::CodeBlock) continue;  // verbatim by design
        EXPECT_EQ(s.text.find("**"), std::string::npos) << l.id << ": " << s.text;
        if (s.style != SpanStyle::Code) {
          EXPECT_EQ(s.text.find('`'), std::string::npos) << s.text;
        }
      }
  }
}

TEST(Markdown, LayoutWrapsAtSpacesAndJoinsOneStyle) {
  // Every character is 1 unit wide.
  auto measure = [](SpanStyle, std::string_view s) { return float(s.size()); };
  const auto placed = layout_spans(
      {{SpanStyle::Plain, "aaa bbb "}, {SpanStyle::Code, "cc dd"}, {SpanStyle::Plain, "."}}, 9,
      measure);
  ASSERT_EQ(placed.size(), 3u);
  EXPECT_EQ(placed[0].text, "aaa bbb");
  EXPECT_EQ(placed[0].line, 0);
  EXPECT_EQ(placed[1].text, "cc dd") << "one code span, one piece";
  EXPECT_EQ(placed[1].line, 1) << "'aaa bbb cc' is 10 wide";
  EXPECT_EQ(placed[1].x, 0);
  EXPECT_EQ(placed[1].width, 5);
  EXPECT_EQ(placed[2].text, ".");
  EXPECT_EQ(placed[2].x, placed[1].x + placed[1].width) << "no space between 'dd' and '.'";
  for (const PlacedText& p : placed) EXPECT_LE(p.x + p.width, 9.0f);
}

TEST(Markdown, LayoutNeverBreaksBetweenACodeSpanAndItsBracket) {
  auto measure = [](SpanStyle, std::string_view s) { return float(s.size()); };
  // "memory (`smem`) and": "(smem)" is one word; it moves to line 1 whole.
  const auto placed = layout_spans(
      {{SpanStyle::Plain, "memory ("}, {SpanStyle::Code, "smem"}, {SpanStyle::Plain, ") and"}}, 10,
      measure);
  ASSERT_EQ(placed.size(), 4u);
  EXPECT_EQ(placed[0].text, "memory");
  EXPECT_EQ(placed[1].text, "(");
  EXPECT_EQ(placed[1].line, 1);
  EXPECT_EQ(placed[2].text, "smem");
  EXPECT_EQ(placed[2].line, 1);
  EXPECT_EQ(placed[3].text, ") and");
  EXPECT_EQ(placed[3].x, 5);
}

}  // namespace
}  // namespace coop::visual
