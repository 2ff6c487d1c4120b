#include "visual/views/markdown_view.hpp"

#include <algorithm>
#include <cfloat>
#include <string>

#include <imgui.h>

#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

struct Fonts {
  ImFont* plain;
  ImFont* bold;
  ImFont* italic;
  ImFont* code;
  float size;  // the body text size the spans are drawn at
};

ImFont* font_for(const Fonts& f, SpanStyle s) {
  switch (s) {
    case SpanStyle::Bold:
      return f.bold;
    case SpanStyle::Italic:
      return f.italic;
    case SpanStyle::Code:
      return f.code;
    default:
      return f.plain;
  }
}

float measure(const Fonts& f, SpanStyle s, std::string_view text) {
  ImFont* font = font_for(f, s);
  return font->CalcTextSizeA(f.size, FLT_MAX, 0, text.data(), text.data() + text.size()).x;
}

// Draws laid-out text with its top-left corner at `origin`; returns the number of lines.
int draw_placed(ImDrawList* dl, const std::vector<PlacedText>& placed, const Fonts& f,
                ImVec2 origin, float line_height, ImU32 text_color) {
  const ViewStyle& st = view_style();
  int lines = 1;
  for (const PlacedText& p : placed) {
    const ImVec2 pos(origin.x + p.x,
                     origin.y + float(p.line) * line_height + (line_height - f.size) * 0.5f);
    const char* b = p.text.data();
    const char* e = b + p.text.size();
    if (p.style == SpanStyle::Code) {
      const float pad = 2.0f * st.scale;
      dl->AddRectFilled(ImVec2(pos.x - pad, pos.y - 1),
                        ImVec2(pos.x + p.width + pad, pos.y + f.size + 1), st.colors.code_bg,
                        3.0f * st.scale);
      dl->AddText(f.code, f.size, pos, st.colors.code_text, b, e);
    } else {
      dl->AddText(font_for(f, p.style), f.size, pos, text_color, b, e);
      if (p.style == SpanStyle::Bold && f.bold == f.plain)  // no bold font: overstrike
        dl->AddText(f.plain, f.size, ImVec2(pos.x + 1, pos.y), text_color, b, e);
    }
    lines = std::max(lines, p.line + 1);
  }
  return lines;
}

std::vector<PlacedText> layout(const std::vector<TextSpan>& spans, const Fonts& f, float width) {
  return layout_spans(spans, width,
                      [&](SpanStyle s, std::string_view t) { return measure(f, s, t); });
}

// Lays out and draws spans at the cursor, `indent` pixels in, and advances the cursor.
void draw_spans(const std::vector<TextSpan>& spans, const Fonts& f, float indent,
                float line_height) {
  const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x - indent);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const int lines =
      draw_placed(ImGui::GetWindowDrawList(), layout(spans, f, width), f,
                  ImVec2(origin.x + indent, origin.y), line_height, view_style().colors.text);
  ImGui::Dummy(ImVec2(indent + width, float(lines) * line_height));
}

// A table as a grid: a shaded header row in bold, rules between cells, text wrapped inside
// its column when the table is wider than the panel.
void draw_table(const TableBlock& t, const Fonts& body, float line_height) {
  const ViewStyle& st = view_style();
  const size_t columns = t.align.size();
  if (columns == 0) return;
  const float pad = body.size * 0.45f;
  const float avail = std::max(50.0f, ImGui::GetContentRegionAvail().x - 1);
  Fonts header = body;
  header.plain = body.bold;
  header.italic = body.bold;
  const std::vector<float> widths = table_column_widths(
      t, avail, pad, [&](SpanStyle s, std::string_view text) { return measure(body, s, text); });
  std::vector<float> xs(columns + 1, 0);  // column edges from the table's left
  for (size_t c = 0; c < columns; ++c) xs[c + 1] = xs[c] + widths[c] + 2 * pad;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Rows below the panel's visible part are only measured (long tables stay cheap to draw).
  const float clip_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
  float y = origin.y;
  auto draw_row = [&](const std::vector<TableCell>& row, const Fonts& f, bool is_header,
                      size_t index) {
    std::vector<std::vector<PlacedText>> cells(columns);
    int lines = 1;
    for (size_t c = 0; c < columns; ++c) {
      cells[c] = layout(c < row.size() ? row[c] : TableCell{}, f, widths[c]);
      for (const PlacedText& p : cells[c]) lines = std::max(lines, p.line + 1);
    }
    const float height = float(lines) * line_height + 2 * pad * 0.6f;
    if (y < clip_bottom) {
      const ImVec2 a(origin.x, y), b(origin.x + xs[columns], y + height);
      if (is_header)
        dl->AddRectFilled(a, b, st.colors.panel);
      else if (index % 2 == 1)
        dl->AddRectFilled(a, b, scale_color(st.colors.panel, 0.8f));
      for (size_t c = 0; c < columns; ++c) {
        float line_w = 0;  // widest line, for centred and right-aligned columns
        for (const PlacedText& p : cells[c]) line_w = std::max(line_w, p.x + p.width);
        const float slack = widths[c] - line_w;
        const float shift = t.align[c] == CellAlign::Center  ? slack * 0.5f
                            : t.align[c] == CellAlign::Right ? slack
                                                             : 0;
        draw_placed(dl, cells[c], f, ImVec2(origin.x + xs[c] + pad + shift, y + pad * 0.6f),
                    line_height, st.colors.text);
      }
      dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), st.colors.grid_line,
                  is_header ? 2.0f * st.scale : 1.0f);
    }
    y += height;
  };
  draw_row(t.header, header, true, 0);
  for (size_t r = 0; r < t.rows.size(); ++r) draw_row(t.rows[r], body, false, r);
  // The outline and the rules between columns.
  const ImVec2 end(origin.x + xs[columns], y);
  dl->AddRect(origin, end, st.colors.grid_line);
  for (size_t c = 1; c < columns; ++c)
    dl->AddLine(ImVec2(origin.x + xs[c], origin.y), ImVec2(origin.x + xs[c], y),
                st.colors.grid_line);
  ImGui::Dummy(ImVec2(xs[columns], y - origin.y));
}

Fonts body_fonts() {
  const ViewFonts& vf = view_style().fonts;
  Fonts f;
  f.plain = vf.text ? vf.text : ImGui::GetFont();
  f.bold = vf.bold ? vf.bold : f.plain;
  f.italic = vf.italic ? vf.italic : f.plain;  // no italic face: emphasis reads as plain text
  f.code = vf.mono ? vf.mono : f.plain;
  f.size = f.plain->FontSize;
  return f;
}

}  // namespace

void draw_rich_text(const std::vector<TextSpan>& spans) {
  const Fonts f = body_fonts();
  draw_spans(spans, f, 0, f.size * 1.3f);
}

void draw_markdown(const std::vector<TextBlock>& blocks) {
  const ViewStyle& st = view_style();
  const Fonts body = body_fonts();
  const float line_h = body.size * 1.35f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t i = 0; i < blocks.size(); ++i) {
    const TextBlock& b = blocks[i];
    switch (b.kind) {
      case BlockKind::Heading: {
        Fonts h = body;
        h.plain = h.bold = h.italic = st.fonts.heading ? st.fonts.heading : body.bold;
        // Level 1 at the heading font's own size, deeper levels closer to the body size.
        const float big = st.fonts.heading ? st.fonts.heading->FontSize : body.size * 1.4f;
        h.size = b.level <= 1 ? big : b.level == 2 ? (big + body.size) * 0.5f : body.size;
        if (i > 0) ImGui::Dummy(ImVec2(0, body.size * 0.4f));
        draw_spans(b.spans, h, 0, h.size * 1.3f);
        break;
      }
      case BlockKind::Paragraph:
        draw_spans(b.spans, body, 0, line_h);
        break;
      case BlockKind::Bullet:
      case BlockKind::Numbered: {
        const float indent = body.size * 1.6f;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float mid = at.y + line_h * 0.5f;
        if (b.kind == BlockKind::Bullet) {
          dl->AddCircleFilled(ImVec2(at.x + indent * 0.45f, mid), body.size * 0.16f,
                              st.colors.dim_text);
        } else {
          const std::string label = std::to_string(b.level) + ".";
          dl->AddText(body.plain, body.size, ImVec2(at.x + indent * 0.15f, mid - body.size * 0.5f),
                      st.colors.dim_text, label.c_str());
        }
        draw_spans(b.spans, body, indent, line_h);
        break;
      }
      case BlockKind::CodeBlock: {
        // Verbatim lines in the monospace font on a faint panel, indented a little.
        const float pad = body.size * 0.4f;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float height = line_h * float(b.spans.size()) + 2 * pad;
        const float width = ImGui::GetContentRegionAvail().x;
        dl->AddRectFilled(at, ImVec2(at.x + width, at.y + height), st.colors.panel);
        for (size_t k = 0; k < b.spans.size(); ++k)
          dl->AddText(body.code, body.size, ImVec2(at.x + pad, at.y + pad + line_h * float(k)),
                      st.colors.text, b.spans[k].text.c_str());
        ImGui::Dummy(ImVec2(width, height));
        break;
      }
      case BlockKind::Table:
        draw_table(b.table, body, line_h);
        break;
    }
    // Space between paragraphs, less between items of one list.
    const bool list_continues = i + 1 < blocks.size() && blocks[i + 1].kind == b.kind &&
                                (b.kind == BlockKind::Bullet || b.kind == BlockKind::Numbered);
    ImGui::Dummy(ImVec2(0, list_continues ? body.size * 0.15f : body.size * 0.45f));
  }
}

}  // namespace coop::visual
