// The lesson-text Markdown subset and its word-wrapping layout.
#include <gtest/gtest.h>

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

TEST(Markdown, TextThatWouldOpenABlockIsInlineText) {
  // parse_inline reads one paragraph: a marker that would open a block is text.
  for (const char* text : {"- a", "# b", "1. c", "> d", "***", "+ e", "```f"}) {
    EXPECT_EQ(parse_inline(text), (std::vector<TextSpan>{{SpanStyle::Plain, text}})) << text;
  }
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

TEST(Markdown, ItalicWithStarsOrUnderscores) {
  EXPECT_EQ(parse_inline("who *else* sees it"),
            (std::vector<TextSpan>{{SpanStyle::Plain, "who "},
                                   {SpanStyle::Italic, "else"},
                                   {SpanStyle::Plain, " sees it"}}));
  EXPECT_EQ(parse_inline("_allowed_, not *promised*."),
            (std::vector<TextSpan>{{SpanStyle::Italic, "allowed"},
                                   {SpanStyle::Plain, ", not "},
                                   {SpanStyle::Italic, "promised"},
                                   {SpanStyle::Plain, "."}}));
  // Several words, and a code span inside keeps its style.
  EXPECT_EQ(parse_inline("*old + `x`*"),
            (std::vector<TextSpan>{{SpanStyle::Italic, "old + "}, {SpanStyle::Code, "x"}}));
  // **bold** still works beside emphasis, and emphasis inside bold is bold.
  EXPECT_EQ(parse_inline("**a *b* c** *d*"),
            (std::vector<TextSpan>{
                {SpanStyle::Bold, "a b c"}, {SpanStyle::Plain, " "}, {SpanStyle::Italic, "d"}}));
}

TEST(Markdown, StarsAndUnderscoresThatAreNotEmphasis) {
  // A product, written with spaces, is text; so are snake_case names and lone markers.
  for (const char* text :
       {"a * b", "seen = 2 * flag + data * 3", "rank = x + dim.x * (y + z)",
        "memory_order_relaxed and thread_scope_block", "5 * 3*", "x *", "_", "a_b_ c", "**"}) {
    const auto spans = parse_inline(text);
    ASSERT_EQ(spans.size(), 1u) << text;
    EXPECT_EQ(spans[0], (TextSpan{SpanStyle::Plain, text}));
  }
  // A star inside a code span is code, not emphasis.
  EXPECT_EQ(parse_inline("`a*b*c`"), (std::vector<TextSpan>{{SpanStyle::Code, "a*b*c"}}));
  // The multiplication inside bold stays as it was written.
  EXPECT_EQ(parse_inline("**rank = x + dim.x * (y + dim.y * z)**"),
            (std::vector<TextSpan>{{SpanStyle::Bold, "rank = x + dim.x * (y + dim.y * z)"}}));
}

TEST(Markdown, TablesHaveAHeaderAlignmentsAndRows) {
  const auto blocks = parse_markdown(
      "Before.\n\n| call | lane `l` gets | note |\n| --- | :-: | ---: |\n"
      "| `shfl_xor(v, m)` | lane `l ^ m` | **all** |\n| short |\n| a | b | c | extra |\n"
      "After *this*.\n");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].kind, BlockKind::Paragraph);
  ASSERT_EQ(blocks[1].kind, BlockKind::Table);
  const TableBlock& t = blocks[1].table;
  EXPECT_EQ(t.align,
            (std::vector<CellAlign>{CellAlign::Left, CellAlign::Center, CellAlign::Right}));
  ASSERT_EQ(t.header.size(), 3u);
  EXPECT_EQ(t.header[1],
            (TableCell{
                {SpanStyle::Plain, "lane "}, {SpanStyle::Code, "l"}, {SpanStyle::Plain, " gets"}}));
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0][0], (TableCell{{SpanStyle::Code, "shfl_xor(v, m)"}}));
  EXPECT_EQ(t.rows[0][1], (TableCell{{SpanStyle::Plain, "lane "}, {SpanStyle::Code, "l ^ m"}}));
  EXPECT_EQ(t.rows[0][2], (TableCell{{SpanStyle::Bold, "all"}}));
  EXPECT_EQ(t.rows[1].size(), 3u) << "a short row is padded";
  EXPECT_TRUE(t.rows[1][2].empty());
  EXPECT_EQ(t.rows[2].size(), 3u) << "extra cells are dropped";
  EXPECT_EQ(blocks[2].spans.back(), (TextSpan{SpanStyle::Plain, "."}));
  EXPECT_EQ(blocks[2].spans.at(1), (TextSpan{SpanStyle::Italic, "this"}));
}

TEST(Markdown, TableCellsKeepEscapedBarsAndBarsInCode) {
  const auto blocks = parse_markdown("| op | meaning |\n|---|---|\n| `a | b` | x \\| y |\n");
  ASSERT_EQ(blocks.size(), 1u);
  const TableBlock& t = blocks[0].table;
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][0], (TableCell{{SpanStyle::Code, "a | b"}}));
  EXPECT_EQ(t.rows[0][1], (TableCell{{SpanStyle::Plain, "x | y"}}));
}

TEST(Markdown, BarLinesWithoutASeparatorAreText) {
  const auto blocks = parse_markdown("| not a table |\nstill text\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].kind, BlockKind::Paragraph);
}

TEST(Markdown, TablesRightUnderTextAndInsideCode) {
  // A table may follow a paragraph's text directly, and its separator row may have one dash a
  // column; the same lines inside a fenced code block stay verbatim.
  const auto blocks =
      parse_markdown("Text\n| a | b |\n|-|:-|\n| 1 | 2 |\n\n```\n| a | b |\n|-|-|\n```\n");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].spans, (std::vector<TextSpan>{{SpanStyle::Plain, "Text"}}));
  ASSERT_EQ(blocks[1].kind, BlockKind::Table);
  EXPECT_EQ(blocks[1].table.align, (std::vector<CellAlign>{CellAlign::Left, CellAlign::Left}));
  EXPECT_EQ(blocks[1].table.rows.size(), 1u);
  EXPECT_EQ(blocks[2].spans,
            (std::vector<TextSpan>{{SpanStyle::Code, "| a | b |"}, {SpanStyle::Code, "|-|-|"}}));
}

TEST(Markdown, TableColumnsFitTheirTextOrShareTheWidth) {
  auto measure = [](SpanStyle, std::string_view s) { return float(s.size()); };
  const TableBlock t =
      parse_markdown("| a | bb |\n| - | - |\n| xyz | one two three four five six |\n").at(0).table;
  // Wide enough: natural widths (3 and 27), padding 1 on each side of each cell.
  EXPECT_EQ(table_column_widths(t, 100, 1, measure), (std::vector<float>{3, 27}));
  // Too narrow: the short column keeps 3, the long one takes the rest and wraps.
  const auto narrow = table_column_widths(t, 20, 1, measure);
  EXPECT_EQ(narrow, (std::vector<float>{3, 13}));
  // Never narrower than the longest word ("three", 5) while another column can give room:
  // equal shares would be 4 and 4; the first column's words need only 3.
  const TableBlock words =
      parse_markdown("| h | k |\n|-|-|\n| aaa aaa aaa aaa | three three three |\n").at(0).table;
  EXPECT_EQ(table_column_widths(words, 8, 0, measure), (std::vector<float>{3, 5}));
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

TEST(Markdown, SpacesInsideCodeAreMeasuredInTheCodeFont) {
  // Code characters (spaces too) are 2 units wide, other text 1: "`a b` c" is 6 + 1 + 1.
  auto measure = [](SpanStyle s, std::string_view t) {
    return float(t.size()) * (s == SpanStyle::Code ? 2.0f : 1.0f);
  };
  const auto placed = layout_spans(parse_inline("`a b` c"), 100, measure);
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].text, "a b");
  EXPECT_EQ(placed[0].width, 6) << "the code span's own space is code-wide";
  EXPECT_EQ(placed[1].x, 7) << "the space after it is plain";
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

// What md4c (CommonMark with GitHub's tables) reads that the earlier hand-written parser did not.

TEST(Markdown, NestedEmphasis) {
  // Bold and italic at once is drawn bold (one font each); emphasis around bold keeps both.
  EXPECT_EQ(parse_inline("***both*** and *a **b** c*"),
            (std::vector<TextSpan>{{SpanStyle::Bold, "both"},
                                   {SpanStyle::Plain, " and "},
                                   {SpanStyle::Italic, "a "},
                                   {SpanStyle::Bold, "b"},
                                   {SpanStyle::Italic, " c"}}));
}

TEST(Markdown, BackslashEscapesAreTheirCharacter) {
  EXPECT_EQ(
      parse_inline("\\*not italic\\* and \\_not\\_, a \\`tick\\` and a \\\\"),
      (std::vector<TextSpan>{{SpanStyle::Plain, "*not italic* and _not_, a `tick` and a \\"}}));
}

TEST(Markdown, CodeSpansFollowCommonMark) {
  // Stars inside code are code; a double-backtick span may hold a backtick; one space on each
  // side of the code is padding.
  EXPECT_EQ(parse_inline("`**not bold**` and ``a`b`` and ` x `"),
            (std::vector<TextSpan>{{SpanStyle::Code, "**not bold**"},
                                   {SpanStyle::Plain, " and "},
                                   {SpanStyle::Code, "a`b"},
                                   {SpanStyle::Plain, " and "},
                                   {SpanStyle::Code, "x"}}));
}

TEST(Markdown, TableCellsWithCodeAndEscapes) {
  const auto blocks = parse_markdown(
      "| a | b |\n|---|---|\n| ``x|y`` | \\*lit\\* |\n| `` `tick` `` | `a * b * c` |\n"
      "| **`bold code`** | 2 * 3 * 4 |\n");
  ASSERT_EQ(blocks.size(), 1u);
  const TableBlock& t = blocks[0].table;
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0][0], (TableCell{{SpanStyle::Code, "x|y"}})) << "a bar inside `` code ``";
  EXPECT_EQ(t.rows[0][1], (TableCell{{SpanStyle::Plain, "*lit*"}}));
  EXPECT_EQ(t.rows[1][0], (TableCell{{SpanStyle::Code, "`tick`"}}));
  EXPECT_EQ(t.rows[1][1], (TableCell{{SpanStyle::Code, "a * b * c"}}));
  EXPECT_EQ(t.rows[2][0], (TableCell{{SpanStyle::Code, "bold code"}}));
  EXPECT_EQ(t.rows[2][1], (TableCell{{SpanStyle::Plain, "2 * 3 * 4"}}));
}

TEST(Markdown, EntitiesAreDecoded) {
  EXPECT_EQ(parse_inline("&amp; &lt;T&gt; &#65;&#x42; &copy;"),
            (std::vector<TextSpan>{{SpanStyle::Plain, "& <T> AB &copy;"}}))
      << "named entities other than the XML ones stay as written";
}

TEST(Markdown, LinksShowTheirText) {
  EXPECT_EQ(parse_inline("see [the guide](https://example.com/g) or <https://example.com>"),
            (std::vector<TextSpan>{{SpanStyle::Plain, "see the guide or https://example.com"}}));
}

TEST(Markdown, BlocksCommonMarkKnows) {
  const auto blocks = parse_markdown(
      "Setext title\n===\n\n## Closed ##\n\n> quoted *text*\n\nline one  \nline two\\\nthree\n\n"
      "- item\n  - nested\n+ plus\n\n3. three\n3. four\n\n~~~\ntilde\n~~~\n\n---\n");
  ASSERT_EQ(blocks.size(), 10u);
  EXPECT_EQ(blocks[0].kind, BlockKind::Heading);
  EXPECT_EQ(blocks[0].level, 1);
  EXPECT_EQ(blocks[0].spans, (std::vector<TextSpan>{{SpanStyle::Plain, "Setext title"}}));
  EXPECT_EQ(blocks[1].spans, (std::vector<TextSpan>{{SpanStyle::Plain, "Closed"}}));
  EXPECT_EQ(blocks[2].kind, BlockKind::Paragraph) << "a quote's paragraph";
  EXPECT_EQ(blocks[2].spans,
            (std::vector<TextSpan>{{SpanStyle::Plain, "quoted "}, {SpanStyle::Italic, "text"}}));
  EXPECT_EQ(blocks[3].spans, (std::vector<TextSpan>{{SpanStyle::Plain, "line one line two three"}}))
      << "hard line breaks read as spaces";
  // Nested items follow their parent; "+" starts a list of its own.
  for (size_t i : {4u, 5u, 6u}) EXPECT_EQ(blocks[i].kind, BlockKind::Bullet) << i;
  EXPECT_EQ(blocks[5].spans.at(0).text, "nested");
  EXPECT_EQ(blocks[6].spans.at(0).text, "plus");
  // An ordered list counts from its first number.
  EXPECT_EQ(blocks[7].level, 3);
  EXPECT_EQ(blocks[8].level, 4);
  EXPECT_EQ(blocks[9].kind, BlockKind::CodeBlock);
  EXPECT_EQ(blocks[9].spans, (std::vector<TextSpan>{{SpanStyle::Code, "tilde"}}));
}

}  // namespace
}  // namespace coop::visual
