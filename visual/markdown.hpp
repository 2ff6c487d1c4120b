// The Markdown subset lesson texts use, parsed into blocks of styled spans, and a word-wrapping
// layout that needs only a text-measuring function (so it is tested without a GUI).
//   # / ## / ### headings, paragraphs, "- " or "* " bullets, "1. " numbered items (continued by
//   indented lines), `code` spans, **bold** spans, and fenced code blocks (``` ... ```), whose
//   lines are kept verbatim, one Code span per line.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace coop::visual {

enum class SpanStyle { Plain, Bold, Code };

struct TextSpan {
  SpanStyle style = SpanStyle::Plain;
  std::string text;
  friend bool operator==(const TextSpan&, const TextSpan&) = default;
};

enum class BlockKind { Heading, Paragraph, Bullet, Numbered, CodeBlock };

struct TextBlock {
  BlockKind kind = BlockKind::Paragraph;
  int level = 0;  // heading level (1..3) or the item's number
  std::vector<TextSpan> spans;
};

// Parses `markdown` into blocks; unknown constructs are kept as plain text.
std::vector<TextBlock> parse_markdown(std::string_view markdown);

// Splits inline text into plain, `code` and **bold** spans. An unmatched marker is plain text.
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

}  // namespace coop::visual
