#include "visual/markdown.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>

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

// Splits "| a | b |" into cell texts: the outer bars are optional, a backslash before a bar
// keeps the bar in the cell, and a bar inside a `code` span does not split.
std::vector<std::string> split_row(std::string_view line) {
  if (line.starts_with('|')) line.remove_prefix(1);
  if (line.ends_with('|') && !line.ends_with("\\|")) line.remove_suffix(1);
  std::vector<std::string> cells(1);
  bool in_code = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cells.back() += '|';
      ++i;
    } else if (c == '|' && !in_code) {
      cells.emplace_back();
    } else {
      if (c == '`') in_code = !in_code;
      cells.back() += c;
    }
  }
  return cells;
}

// "| --- | :-: | --: |": each cell dashes with optional colons at the ends. Fills `align`.
bool separator_row(std::string_view line, std::vector<CellAlign>& align) {
  if (!line.starts_with('|')) return false;
  align.clear();
  for (const std::string& cell : split_row(line)) {
    std::string_view t = trim(cell);
    const bool left = t.starts_with(':'), right = t.size() > 1 && t.ends_with(':');
    if (left) t.remove_prefix(1);
    if (right) t.remove_suffix(1);
    if (t.empty() || t.find_first_not_of('-') != std::string_view::npos) return false;
    align.push_back(left && right ? CellAlign::Center : right ? CellAlign::Right : CellAlign::Left);
  }
  return !align.empty();
}

// A row's cells parsed inline, padded or cut to `columns`.
std::vector<TableCell> parse_row(std::string_view line, size_t columns) {
  std::vector<TableCell> row;
  for (const std::string& cell : split_row(line)) row.push_back(parse_inline(trim(cell)));
  row.resize(columns);
  return row;
}

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}
bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// Where the emphasis opened by the single `*` or `_` at `open` closes, or npos. Emphasis needs
// text hugging both markers ("*word*", never "a * b"); an `_` must also sit at word edges, so
// snake_case_names stay text. Code spans and ** pairs inside are skipped whole.
size_t italic_close(std::string_view text, size_t open) {
  const char m = text[open];
  if (open + 1 >= text.size() || is_space(text[open + 1])) return std::string_view::npos;
  if (m == '_' && open > 0 && is_word(text[open - 1])) return std::string_view::npos;
  for (size_t j = open + 1; j < text.size(); ++j) {
    if (text[j] == '`') {
      const size_t end = text.find('`', j + 1);
      if (end == std::string_view::npos) return std::string_view::npos;
      j = end;
    } else if (m == '*' && text.compare(j, 2, "**") == 0) {
      const size_t end = text.find("**", j + 2);
      if (end == std::string_view::npos) return std::string_view::npos;
      j = end + 1;
    } else if (text[j] == m && !is_space(text[j - 1]) &&
               (m == '*' || j + 1 >= text.size() || !is_word(text[j + 1]))) {
      return j;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::vector<TextSpan> parse_inline(std::string_view text) {
  std::vector<TextSpan> out;
  size_t plain_start = 0, i = 0;
  while (i < text.size()) {
    const bool code = text[i] == '`';
    const bool bold = text.compare(i, 2, "**") == 0;
    const bool italic = !code && !bold && (text[i] == '*' || text[i] == '_');
    if (!code && !bold && !italic) {
      ++i;
      continue;
    }
    const std::string_view marker = code ? "`" : bold ? "**" : text.substr(i, 1);
    const size_t close = italic ? italic_close(text, i) : text.find(marker, i + marker.size());
    if (close == std::string_view::npos || close == i + marker.size()) {
      i += marker.size();  // unmatched or empty: keep the marker as text
      continue;
    }
    append_plain(out, text.substr(plain_start, i - plain_start));
    const std::string_view inner = text.substr(i + marker.size(), close - i - marker.size());
    if (code) {
      out.push_back({SpanStyle::Code, std::string(inner)});
    } else {
      // **bold with `code` inside**: the code keeps its style, the rest takes the marker's.
      // Emphasis inside bold stays bold (one font each), bold inside emphasis stays bold.
      const SpanStyle style = bold ? SpanStyle::Bold : SpanStyle::Italic;
      for (TextSpan& span : parse_inline(inner)) {
        if (span.style == SpanStyle::Plain || (bold && span.style == SpanStyle::Italic))
          span.style = style;
        if (!out.empty() && out.back().style == span.style && span.style != SpanStyle::Code)
          out.back().text += span.text;
        else
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
  std::vector<std::string_view> lines;
  for (size_t start = 0;;) {
    const size_t end = std::min(markdown.find('\n', start), markdown.size());
    lines.push_back(markdown.substr(start, end - start));
    if (end == markdown.size()) break;
    start = end + 1;
  }
  std::vector<TextBlock> blocks;
  std::string pending;  // text of the block being collected
  BlockKind kind = BlockKind::Paragraph;
  int level = 0;
  bool open = false;
  auto flush = [&] {
    if (open && !trim(pending).empty())
      blocks.push_back({kind, level, parse_inline(trim(pending)), {}});
    pending.clear();
    open = false;
  };
  bool in_fence = false;
  for (size_t at = 0; at < lines.size(); ++at) {
    const std::string_view raw = lines[at];
    const std::string_view line = trim(raw);
    std::string_view rest;
    std::vector<CellAlign> align;
    if (line.starts_with("```")) {
      // A fence opens or closes a code block; the text after an opening fence names the language.
      flush();
      if (!in_fence) blocks.push_back({BlockKind::CodeBlock, 0, {}, {}});
      in_fence = !in_fence;
    } else if (in_fence) {
      blocks.back().spans.push_back({SpanStyle::Code, std::string(raw)});
    } else if (line.empty()) {
      flush();
    } else if (line.starts_with('|') && at + 1 < lines.size() &&
               separator_row(trim(lines[at + 1]), align)) {
      // A header row with a separator under it starts a table; rows follow while lines start
      // with a bar.
      flush();
      TextBlock table{BlockKind::Table, 0, {}, {}};
      table.table.align = std::move(align);
      const size_t columns = table.table.align.size();
      table.table.header = parse_row(line, columns);
      for (at += 2; at < lines.size() && trim(lines[at]).starts_with('|'); ++at)
        table.table.rows.push_back(parse_row(trim(lines[at]), columns));
      --at;
      blocks.push_back(std::move(table));
    } else if (size_t hashes = line.find_first_not_of('#');
               hashes > 0 && hashes <= 6 && hashes < line.size() && line[hashes] == ' ') {
      flush();
      blocks.push_back({BlockKind::Heading,
                        int(std::min<size_t>(hashes, 3)),
                        parse_inline(trim(line.substr(hashes))),
                        {}});
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
  }
  flush();
  return blocks;
}

std::vector<float> table_column_widths(
    const TableBlock& table, float width, float padding,
    const std::function<float(SpanStyle, std::string_view)>& measure) {
  const size_t columns = table.align.size();
  std::vector<float> natural(columns, 0), longest_word(columns, 0);
  auto widen = [&](const TableCell& cell, size_t c, bool header) {
    // Header cells are drawn bold: measure them so.
    auto styled = [&](SpanStyle s, std::string_view t) {
      return measure(header && s == SpanStyle::Plain ? SpanStyle::Bold : s, t);
    };
    for (const PlacedText& p : layout_spans(cell, FLT_MAX, styled))
      natural[c] = std::max(natural[c], p.x + p.width);
    // Laid out in no width, every word takes a line of its own.
    std::vector<float> line_ends;
    for (const PlacedText& p : layout_spans(cell, 0, styled)) {
      if (size_t(p.line) >= line_ends.size()) line_ends.resize(size_t(p.line) + 1, 0);
      line_ends[size_t(p.line)] = p.x + p.width;
    }
    for (float w : line_ends) longest_word[c] = std::max(longest_word[c], w);
  };
  for (size_t c = 0; c < columns && c < table.header.size(); ++c) widen(table.header[c], c, true);
  for (const auto& row : table.rows)
    for (size_t c = 0; c < columns && c < row.size(); ++c) widen(row[c], c, false);
  const float text_width = std::max(0.0f, width - 2 * padding * float(columns));
  float total = 0;
  for (float w : natural) total += w;
  if (total <= text_width) return natural;
  // Max-min fair shares: columns narrower than an equal share keep their width, the others
  // split the rest equally (repeated until no column is left below its share).
  std::vector<float> out(columns, -1);
  float left = text_width;
  size_t open = columns;
  for (bool changed = true; changed && open > 0;) {
    changed = false;
    const float share = left / float(open);
    for (size_t c = 0; c < columns; ++c)
      if (out[c] < 0 && natural[c] <= share) {
        out[c] = natural[c];
        left -= natural[c];
        --open;
        changed = true;
      }
  }
  for (size_t c = 0; c < columns; ++c)
    if (out[c] < 0) out[c] = std::max(0.0f, left / float(open));
  // A wrapped column is at least as wide as its longest word, taken from columns with room to
  // spare above their own longest word.
  for (size_t c = 0; c < columns; ++c) {
    float need = longest_word[c] - out[c];
    for (size_t d = 0; d < columns && need > 0; ++d) {
      const float spare = out[d] - longest_word[d];
      if (d == c || spare <= 0) continue;
      const float take = std::min(spare, need);
      out[d] -= take;
      out[c] += take;
      need -= take;
    }
  }
  return out;
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
    SpanStyle space_style = SpanStyle::Plain;  // a space inside `code` is as wide as the code's
    float width = 0;
  };
  std::vector<Word> words;
  bool space_pending = false, in_word = false;
  SpanStyle space_style = SpanStyle::Plain;
  for (const TextSpan& span : spans) {
    const std::string_view text = span.text;
    size_t i = 0;
    while (i < text.size()) {
      if (text[i] == ' ') {
        space_pending = true;
        space_style = span.style;
        in_word = false;
        ++i;
        continue;
      }
      size_t j = text.find(' ', i);
      if (j == std::string_view::npos) j = text.size();
      if (!in_word) {
        words.push_back({});
        words.back().space_before = space_pending;
        words.back().space_style = space_style;
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
  float space[4];  // per SpanStyle
  for (SpanStyle st : {SpanStyle::Plain, SpanStyle::Bold, SpanStyle::Italic, SpanStyle::Code})
    space[int(st)] = measure(st, " ");
  int line = 0;
  float x = 0;
  for (const Word& word : words) {
    float at = x + (word.space_before && x > 0 ? space[int(word.space_style)] : 0);
    if (at + word.width > width && x > 0) {  // wrap before this word
      ++line;
      at = 0;
    }
    bool spaced = word.space_before && at > 0;
    for (const Piece& p : word.pieces) {
      // Pieces of one style on one line join (a code span keeps one background).
      PlacedText* last = out.empty() ? nullptr : &out.back();
      if (last && last->line == line && last->style == p.style && at > 0 &&
          (!spaced || word.space_style == p.style)) {
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
