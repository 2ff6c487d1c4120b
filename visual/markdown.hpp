// Lesson texts' Markdown, parsed by md4c (CommonMark with GitHub's tables) into blocks of styled
// spans, and a word-wrapping layout that needs only a text-measuring function (so it is tested
// without a GUI).
//   Headings (levels past 3 read as 3), paragraphs, bullet and numbered items (nested lists are
//   flattened: each item is a block), fenced code blocks (``` or ~~~; lines kept verbatim, one
//   Code span per line) and tables: a header row of "| a | b |", a separator row "| --- | :-: |"
//   (colons set the alignment), then rows. Inline: `code`, **bold**, *italic* / _italic_,
//   backslash escapes, numeric character references and &amp; &lt; &gt; &quot; &apos; &nbsp;
//   (other named ones stay as written); links show their text. Raw HTML is text, and indented
//   lines are never code. A quote's paragraphs are paragraphs; a thematic break is dropped.
//   Kept from the lesson format where md4c reads otherwise: a table ends at the first line that
//   does not start with a bar, may follow a paragraph's text directly, and its separator row may
//   have a single dash a column.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace coop::visual {

enum class SpanStyle { Plain, Bold, Italic, Code };

struct TextSpan {
  SpanStyle style = SpanStyle::Plain;
  std::string text;
  friend bool operator==(const TextSpan&, const TextSpan&) = default;
};

enum class BlockKind { Heading, Paragraph, Bullet, Numbered, CodeBlock, Table };

enum class CellAlign { Left, Center, Right };

// One table cell's text, parsed inline.
using TableCell = std::vector<TextSpan>;

// A Markdown table: every row has exactly as many cells as the header (short rows are padded
// with empty cells, extra cells dropped, as GitHub does).
struct TableBlock {
  std::vector<TableCell> header;
  std::vector<CellAlign> align;  // one per column
  std::vector<std::vector<TableCell>> rows;
};

struct TextBlock {
  BlockKind kind = BlockKind::Paragraph;
  int level = 0;  // heading level (1..3) or the item's number (its list's first, counted on)
  std::vector<TextSpan> spans;
  TableBlock table;  // kind == Table only
};

// Parses `markdown` into blocks; unknown constructs are kept as plain text.
std::vector<TextBlock> parse_markdown(std::string_view markdown);

// Splits inline text (one paragraph; a line break is a space) into plain, `code`, **bold** and
// *italic* spans, by CommonMark's rules: an unmatched marker is plain text, and so is a `*` or
// `_` with a space after it ("a * b" is a product, not emphasis) or an `_` inside a word
// (snake_case names). A marker that would open a block ("- ", "# ", "1. ", "> ") is text.
std::vector<TextSpan> parse_inline(std::string_view text);

// A piece of a span placed by the layout: one word (or run of words) on one line.
struct PlacedText {
  int line = 0;  // 0-based line within the block
  float x = 0;   // offset from the block's left edge
  float width = 0;
  SpanStyle style = SpanStyle::Plain;
  std::string text;
};

// Lays spans out in lines no wider than `width`, breaking at spaces (a word wider than the line
// gets a line of its own). `measure(style, text)` returns the text's width in the same units.
std::vector<PlacedText> layout_spans(
    const std::vector<TextSpan>& spans, float width,
    const std::function<float(SpanStyle, std::string_view)>& measure);

// Widths of a table's columns (text only; the caller adds `padding` on each side of a cell).
// Columns get their natural (unwrapped) width when the table fits in `width`; otherwise narrow
// columns keep theirs and the wide ones share what is left, wrapping their text, each no
// narrower than its longest word where that still fits.
std::vector<float> table_column_widths(
    const TableBlock& table, float width, float padding,
    const std::function<float(SpanStyle, std::string_view)>& measure);

}  // namespace coop::visual
