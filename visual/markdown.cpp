#include "visual/markdown.hpp"
#include "device/launch/trim.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <optional>
#include <utility>

#include <md4c.h>

namespace coop::visual {
namespace {

// md4c's dialect: CommonMark with GitHub's tables; raw HTML is text ("#include <x>" in prose), and
// an indented line is never code (only fences make code blocks).
constexpr unsigned kFlags = MD_FLAG_TABLES | MD_FLAG_NOHTML | MD_FLAG_NOINDENTEDCODEBLOCKS;

// "&amp;", "&#65;", "&#x41;" as UTF-8; other named entities stay as written.
std::string decode_entity(std::string_view e) {
  static constexpr std::pair<std::string_view, std::string_view> kNamed[] = {
      {"&amp;", "&"},   {"&lt;", "<"},   {"&gt;", ">"},
      {"&quot;", "\""}, {"&apos;", "'"}, {"&nbsp;", "\u00a0"}};
  for (const auto& [name, text] : kNamed)
    if (e == name) return std::string(text);
  if (!e.starts_with("&#") || !e.ends_with(';')) return std::string(e);
  const bool hex = e.size() > 2 && (e[2] == 'x' || e[2] == 'X');
  unsigned long cp = 0;
  for (char c : e.substr(hex ? 3 : 2, e.size() - (hex ? 4 : 3))) {
    const int digit = std::isdigit(static_cast<unsigned char>(c))
                          ? c - '0'
                          : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    cp = std::min(cp * (hex ? 16 : 10) + unsigned(digit), 0x110000ul);
  }
  if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = 0xfffd;
  std::string out;
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xc0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += char(0xe0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  } else {
    out += char(0xf0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3f));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  }
  return out;
}

// A table's separator row ("| --- | :-: | --: |") with every column at least three characters
// wide ("| - | :-: | -: |" becomes the row above): GitHub takes one dash, md4c wants three.
// nullopt when `line` is no separator row.
std::optional<std::string> widened_separator(std::string_view line) {
  const std::string_view original = line;
  line = trim(line);
  if (!line.starts_with('|')) return std::nullopt;
  line.remove_prefix(1);
  const bool closed = line.ends_with('|');
  if (closed) line.remove_suffix(1);
  std::string out = "|";
  bool widened = false;
  for (size_t start = 0;;) {
    const size_t bar = std::min(line.find('|', start), line.size());
    const std::string_view cell = trim(line.substr(start, bar - start));
    const bool left = cell.starts_with(':'), right = cell.size() > 1 && cell.ends_with(':');
    const std::string_view dashes = cell.substr(left, cell.size() - left - right);
    if (dashes.empty() || dashes.find_first_not_of('-') != std::string_view::npos)
      return std::nullopt;
    const size_t pad = cell.size() < 3 ? 3 - cell.size() : 0;
    widened |= pad > 0;
    out += left ? " :" : " ";
    out += std::string(dashes.size() + pad, '-');
    out += right ? ": " : " ";
    if (bar == line.size()) break;
    out += '|';
    start = bar + 1;
  }
  if (closed) out += '|';
  return widened ? out : std::string(original);
}

CellAlign cell_align(MD_ALIGN a) {
  return a == MD_ALIGN_CENTER  ? CellAlign::Center
         : a == MD_ALIGN_RIGHT ? CellAlign::Right
                               : CellAlign::Left;
}

// Collects md4c's callbacks into blocks. Lists are flattened (an item is a block, a nested item
// the next one); a quote's paragraphs are paragraphs; a thematic break draws nothing.
struct Builder {
  std::string_view source;
  std::vector<TextBlock> blocks;
  int target = -1;                // the block inline text goes to, or -1 (a new paragraph)
  bool item_fresh = false;        // the open item has no text yet: its first paragraph is the item
  std::vector<unsigned> numbers;  // per open list: the next item's number (0: bullets)
  int bold = 0, italic = 0, code = 0;
  bool code_starts = false;  // the next code text opens a span of its own
  bool in_code_block = false;
  std::string code_text;
  bool in_table = false, in_table_head = false, row_checked = false;
  size_t para_begin = 0, para_end = 0;  // where the open paragraph's text lies in `source`
  // Where md4c reads the lesson format otherwise, the parse stops and the caller replaces
  // `length` characters of the source at `at` with `text` and parses again (see text, leave).
  struct Edit {
    size_t at = 0, length = 0;
    std::string text;
  };
  std::optional<Edit> edit;
  bool paragraphs_only = true;  // no heading, list, quote, rule, code block or table so far

  TableBlock& table() { return blocks.back().table; }
  size_t line_start(size_t at) const {
    return source.rfind('\n', at) + 1;  // npos + 1 == 0: the first line
  }
  int push(BlockKind kind, int level) {
    blocks.push_back({kind, level, {}, {}});
    return int(blocks.size()) - 1;
  }
  std::vector<TextSpan>* spans() {
    if (in_table) {
      TableBlock& t = table();
      if (in_table_head) return t.header.empty() ? nullptr : &t.header.back();
      return t.rows.empty() || t.rows.back().empty() ? nullptr : &t.rows.back().back();
    }
    if (target < 0) target = push(BlockKind::Paragraph, 0);
    return &blocks[size_t(target)].spans;
  }

  int enter(MD_BLOCKTYPE type, void* detail) {
    paragraphs_only &= type == MD_BLOCK_DOC || type == MD_BLOCK_P;
    if (type != MD_BLOCK_P) item_fresh = false;  // an item's later paragraphs are paragraphs
    switch (type) {
      case MD_BLOCK_UL:
        numbers.push_back(0);
        break;
      case MD_BLOCK_OL:
        numbers.push_back(static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start);
        break;
      case MD_BLOCK_LI: {
        const unsigned n = numbers.empty() ? 0 : numbers.back();
        if (n > 0) ++numbers.back();
        target = push(n > 0 ? BlockKind::Numbered : BlockKind::Bullet, int(n));
        item_fresh = true;
        break;
      }
      case MD_BLOCK_H:
        target = push(BlockKind::Heading,
                      int(std::min(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level, 3u)));
        break;
      case MD_BLOCK_P:
        if (!item_fresh) target = push(BlockKind::Paragraph, 0);
        item_fresh = false;
        para_begin = std::string_view::npos;
        para_end = 0;
        break;
      case MD_BLOCK_CODE:
        push(BlockKind::CodeBlock, 0);
        in_code_block = true;
        code_text.clear();
        break;
      case MD_BLOCK_TABLE:
        push(BlockKind::Table, 0);
        in_table = true;
        break;
      case MD_BLOCK_THEAD:
        in_table_head = true;
        break;
      case MD_BLOCK_TR:
        if (!in_table_head) table().rows.emplace_back();
        row_checked = in_table_head;
        break;
      case MD_BLOCK_TH:
        table().align.push_back(cell_align(static_cast<MD_BLOCK_TD_DETAIL*>(detail)->align));
        table().header.emplace_back();
        break;
      case MD_BLOCK_TD:
        table().rows.back().emplace_back();
        break;
      default:  // the document, quotes, thematic breaks, HTML (never, with MD_FLAG_NOHTML)
        break;
    }
    return 0;
  }

  int leave(MD_BLOCKTYPE type) {
    switch (type) {
      case MD_BLOCK_UL:
      case MD_BLOCK_OL:
        numbers.pop_back();
        break;
      case MD_BLOCK_P: {
        // A bar line with a separator row under it starts a table in the lesson format, also
        // right under a paragraph's text (a blank line goes before it) and with one dash a
        // column (the row is widened).
        const size_t first = para_begin == std::string_view::npos ? 0 : line_start(para_begin);
        for (size_t line = first;;) {
          const size_t next = source.find('\n', line) + 1;
          if (next == 0 || next >= para_end) break;
          const std::string_view row = source.substr(next, source.find('\n', next) - next);
          const std::optional<std::string> wide = widened_separator(row);
          if (wide && trim(source.substr(line, next - line)).starts_with('|')) {
            if (line != first)
              edit = Edit{line, 0, "\n"};
            else if (*wide != row)
              edit = Edit{next, row.size(), *wide};
            if (edit) return 1;
          }
          line = next;
        }
        target = -1;
        break;
      }
      case MD_BLOCK_LI:
      case MD_BLOCK_H:
        target = -1;
        break;
      case MD_BLOCK_CODE: {
        // One Code span per line, kept verbatim; the text ends with the last line's newline.
        std::vector<TextSpan>& lines = blocks.back().spans;
        std::string_view rest = code_text;
        while (!rest.empty()) {
          const size_t end = std::min(rest.find('\n'), rest.size());
          lines.push_back({SpanStyle::Code, std::string(rest.substr(0, end))});
          rest.remove_prefix(std::min(end + 1, rest.size()));
        }
        in_code_block = false;
        break;
      }
      case MD_BLOCK_TABLE:
        in_table = false;
        target = -1;
        break;
      case MD_BLOCK_THEAD:
        in_table_head = false;
        break;
      default:
        break;
    }
    return 0;
  }

  int span(MD_SPANTYPE type, int delta) {
    if (type == MD_SPAN_STRONG) bold += delta;
    if (type == MD_SPAN_EM) italic += delta;
    if (type == MD_SPAN_CODE) {
      code += delta;
      code_starts = delta > 0;
    }
    // Links and images show their text only.
    return 0;
  }

  int text(MD_TEXTTYPE type, std::string_view s) {
    if (in_code_block) {
      code_text += type == MD_TEXT_NULLCHAR ? std::string_view("\ufffd") : s;
      return 0;
    }
    const bool in_source = s.data() >= source.data() && s.data() < source.data() + source.size();
    const size_t at = in_source ? size_t(s.data() - source.data()) : 0;
    if (in_source && !in_table) {
      para_begin = std::min(para_begin, at);
      para_end = std::max(para_end, at + s.size());
    }
    // GitHub continues a table over any line until a blank one; lesson tables end at the first
    // line that does not start with a bar: a blank line goes before such a row.
    if (in_table && !row_checked && in_source) {
      row_checked = true;
      const size_t line = line_start(at);
      if (!trim(source.substr(line)).starts_with('|')) {
        edit = Edit{line, 0, "\n"};
        return 1;
      }
    }
    std::string piece;
    switch (type) {
      case MD_TEXT_NULLCHAR:
        piece = "\ufffd";
        break;
      case MD_TEXT_BR:  // a line break inside a block reads as a space, as in a paragraph
      case MD_TEXT_SOFTBR:
        piece = " ";
        break;
      case MD_TEXT_ENTITY:
        piece = decode_entity(s);
        break;
      default:
        piece = std::string(s);
        break;
    }
    std::vector<TextSpan>* out = spans();
    if (!out) return 0;
    // Code inside emphasis keeps its style; emphasis inside bold (or bold inside emphasis) is
    // bold: there is one font for each.
    const SpanStyle style = code     ? SpanStyle::Code
                            : bold   ? SpanStyle::Bold
                            : italic ? SpanStyle::Italic
                                     : SpanStyle::Plain;
    if (!out->empty() && out->back().style == style && !(style == SpanStyle::Code && code_starts))
      out->back().text += piece;
    else
      out->push_back({style, std::move(piece)});
    if (style == SpanStyle::Code) code_starts = false;
    return 0;
  }
};

// `paragraphs_only`, if given, tells whether the text held nothing but paragraphs.
std::vector<TextBlock> parse(std::string_view markdown, bool* paragraphs_only = nullptr) {
  std::string source(markdown);
  for (;;) {
    Builder b;
    b.source = source;
    MD_PARSER parser{};
    parser.flags = kFlags;
    parser.enter_block = [](MD_BLOCKTYPE t, void* d, void* u) {
      return static_cast<Builder*>(u)->enter(t, d);
    };
    parser.leave_block = [](MD_BLOCKTYPE t, void*, void* u) {
      return static_cast<Builder*>(u)->leave(t);
    };
    parser.enter_span = [](MD_SPANTYPE t, void*, void* u) {
      return static_cast<Builder*>(u)->span(t, 1);
    };
    parser.leave_span = [](MD_SPANTYPE t, void*, void* u) {
      return static_cast<Builder*>(u)->span(t, -1);
    };
    parser.text = [](MD_TEXTTYPE t, const MD_CHAR* s, MD_SIZE n, void* u) {
      return static_cast<Builder*>(u)->text(t, std::string_view(s, n));
    };
    md_parse(source.data(), MD_SIZE(source.size()), &parser, &b);
    if (!b.edit) {
      if (paragraphs_only) *paragraphs_only = b.paragraphs_only;
      return std::move(b.blocks);
    }
    source.replace(b.edit->at, b.edit->length, b.edit->text);
  }
}

}  // namespace

std::vector<TextSpan> parse_inline(std::string_view text) {
  // One paragraph of text: line breaks are spaces. Text that would open a block (a heading, an
  // item, a quote, a rule, a fence) keeps its first marker as text, as a backslash before it does.
  std::string line(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  bool plain = true;
  std::vector<TextBlock> blocks = parse(line, &plain);
  if (!plain) {
    size_t at = line.find_first_not_of(' ');
    while (at < line.size() && std::isdigit(static_cast<unsigned char>(line[at]))) ++at;
    if (at < line.size() && std::ispunct(static_cast<unsigned char>(line[at])))
      line.insert(line.begin() + std::ptrdiff_t(at), '\\');
    blocks = parse(line);
  }
  std::vector<TextSpan> out;
  for (TextBlock& b : blocks)
    for (TextSpan& s : b.spans) out.push_back(std::move(s));
  return out;
}

std::vector<TextBlock> parse_markdown(std::string_view markdown) {
  return parse(markdown);
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
