#include "visual/markdown.hpp"

#include <cctype>

namespace coop::visual {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

size_t indent_of(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// "12. rest" -> 12 and "rest"; returns 0 when the line is not a numbered item.
int numbered_item(std::string_view s, std::string_view& rest) {
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  if (digits == 0 || digits > 4 || digits + 1 >= s.size() || s[digits] != '.' ||
      s[digits + 1] != ' ')
    return 0;
  rest = s.substr(digits + 2);
  return std::stoi(std::string(s.substr(0, digits)));
}

void append_plain(std::vector<TextSpan>& out, std::string_view text) {
  if (text.empty()) return;
  if (!out.empty() && out.back().style == SpanStyle::Plain)
    out.back().text += text;
  else
    out.push_back({SpanStyle::Plain, std::string(text)});
}

}  // namespace

std::vector<TextSpan> parse_inline(std::string_view text) {
  std::vector<TextSpan> out;
  size_t plain_start = 0, i = 0;
  while (i < text.size()) {
    const bool code = text[i] == '`';
    const bool bold = text.compare(i, 2, "**") == 0;
    if (!code && !bold) {
      ++i;
      continue;
    }
    const std::string_view marker = code ? "`" : "**";
    const size_t close = text.find(marker, i + marker.size());
    if (close == std::string_view::npos || close == i + marker.size()) {
      i += marker.size();  // unmatched or empty: keep the marker as text
      continue;
    }
    append_plain(out, text.substr(plain_start, i - plain_start));
    const std::string_view inner = text.substr(i + marker.size(), close - i - marker.size());
    if (code) {
      out.push_back({SpanStyle::Code, std::string(inner)});
    } else {
      // **bold with `code` inside**: the code keeps its style, the rest becomes bold.
      for (TextSpan& span : parse_inline(inner)) {
        if (span.style == SpanStyle::Plain) span.style = SpanStyle::Bold;
        out.push_back(std::move(span));
      }
    }
    i = close + marker.size();
    plain_start = i;
  }
  append_plain(out, text.substr(plain_start));
  return out;
}

std::vector<TextBlock> parse_markdown(std::string_view markdown) {
  std::vector<TextBlock> blocks;
  std::string pending;  // text of the block being collected
  BlockKind kind = BlockKind::Paragraph;
  int level = 0;
  bool open = false;
  auto flush = [&] {
    if (open && !trim(pending).empty())
      blocks.push_back({kind, level, parse_inline(trim(pending))});
    pending.clear();
    open = false;
  };
  size_t start = 0;
  bool in_fence = false;
  while (start <= markdown.size()) {
    size_t end = markdown.find('\n', start);
    if (end == std::string_view::npos) end = markdown.size();
    const std::string_view raw = markdown.substr(start, end - start);
    start = end + 1;
    const std::string_view line = trim(raw);
    std::string_view rest;
    if (line.starts_with("```")) {
      // A fence opens or closes a code block; the text after an opening fence names the language.
      flush();
      if (!in_fence) blocks.push_back({BlockKind::CodeBlock, 0, {}});
      in_fence = !in_fence;
    } else if (in_fence) {
      blocks.back().spans.push_back({SpanStyle::Code, std::string(raw)});
    } else if (line.empty()) {
      flush();
    } else if (size_t hashes = line.find_first_not_of('#');
               hashes > 0 && hashes <= 6 && hashes < line.size() && line[hashes] == ' ') {
      flush();
      blocks.push_back({BlockKind::Heading, int(std::min<size_t>(hashes, 3)),
                        parse_inline(trim(line.substr(hashes)))});
    } else if (indent_of(raw) < 2 && (line.starts_with("- ") || line.starts_with("* "))) {
      flush();
      kind = BlockKind::Bullet;
      level = 0;
      pending = std::string(line.substr(2));
      open = true;
    } else if (int n = indent_of(raw) < 2 ? numbered_item(line, rest) : 0; n > 0) {
      flush();
      kind = BlockKind::Numbered;
      level = n;
      pending = std::string(rest);
      open = true;
    } else if (open) {
      pending += ' ';  // continuation of a paragraph or an item
      pending += line;
    } else {
      kind = BlockKind::Paragraph;
      level = 0;
      pending = std::string(line);
      open = true;
    }
    if (end == markdown.size()) break;
  }
  flush();
  return blocks;
}

std::vector<PlacedText> layout_spans(
    const std::vector<TextSpan>& spans, float width,
    const std::function<float(SpanStyle, std::string_view)>& measure) {
  // Words are what lies between spaces, even across spans: "(`x`)" is one word of three
  // pieces, so a line never breaks between a code span and the bracket around it.
  struct Piece {
    SpanStyle style;
    std::string_view text;
    float width;
  };
  struct Word {
    std::vector<Piece> pieces;
    bool space_before = false;
    float width = 0;
  };
  std::vector<Word> words;
  bool space_pending = false, in_word = false;
  for (const TextSpan& span : spans) {
    const std::string_view text = span.text;
    size_t i = 0;
    while (i < text.size()) {
      if (text[i] == ' ') {
        space_pending = true;
        in_word = false;
        ++i;
        continue;
      }
      size_t j = text.find(' ', i);
      if (j == std::string_view::npos) j = text.size();
      if (!in_word) {
        words.push_back({});
        words.back().space_before = space_pending;
      }
      const Piece piece{span.style, text.substr(i, j - i),
                        measure(span.style, text.substr(i, j - i))};
      words.back().pieces.push_back(piece);
      words.back().width += piece.width;
      space_pending = false;
      in_word = true;
      i = j;
    }
  }
  std::vector<PlacedText> out;
  const float space = measure(SpanStyle::Plain, " ");
  int line = 0;
  float x = 0;
  for (const Word& word : words) {
    float at = x + (word.space_before && x > 0 ? space : 0);
    if (at + word.width > width && x > 0) {  // wrap before this word
      ++line;
      at = 0;
    }
    bool spaced = word.space_before && at > 0;
    for (const Piece& p : word.pieces) {
      // Pieces of one style on one line join (a code span keeps one background).
      PlacedText* last = out.empty() ? nullptr : &out.back();
      if (last && last->line == line && last->style == p.style && at > 0) {
        if (spaced) last->text += ' ';
        last->text += p.text;
        last->width = at + p.width - last->x;
      } else {
        out.push_back({line, at, p.width, p.style, std::string(p.text)});
      }
      at += p.width;
      spaced = false;
    }
    x = at;
  }
  return out;
}

}  // namespace coop::visual
