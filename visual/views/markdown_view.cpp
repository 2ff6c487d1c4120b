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
  ImFont* code;
  float size;  // the body text size the spans are drawn at
};

ImFont* font_for(const Fonts& f, SpanStyle s) {
  return s == SpanStyle::Bold ? f.bold : s == SpanStyle::Code ? f.code : f.plain;
}

float measure(const Fonts& f, SpanStyle s, std::string_view text) {
  ImFont* font = font_for(f, s);
  return font->CalcTextSizeA(f.size, FLT_MAX, 0, text.data(), text.data() + text.size()).x;
}

// Lays out and draws spans at the cursor, `indent` pixels in; returns nothing, advances the cursor.
void draw_spans(const std::vector<TextSpan>& spans, const Fonts& f, float indent,
                float line_height) {
  const ViewStyle& st = view_style();
  const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x - indent);
  const std::vector<PlacedText> placed =
      layout_spans(spans, width, [&](SpanStyle s, std::string_view t) { return measure(f, s, t); });
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  int lines = 1;
  for (const PlacedText& p : placed) {
    const ImVec2 pos(origin.x + indent + p.x,
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
      dl->AddText(font_for(f, p.style), f.size, pos, st.colors.text, b, e);
      if (p.style == SpanStyle::Bold && f.bold == f.plain)  // no bold font: overstrike
        dl->AddText(f.plain, f.size, ImVec2(pos.x + 1, pos.y), st.colors.text, b, e);
    }
    lines = std::max(lines, p.line + 1);
  }
  ImGui::Dummy(ImVec2(indent + width, float(lines) * line_height));
}

Fonts body_fonts() {
  const ViewFonts& vf = view_style().fonts;
  Fonts f;
  f.plain = vf.text ? vf.text : ImGui::GetFont();
  f.bold = vf.bold ? vf.bold : f.plain;
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
        h.plain = h.bold = st.fonts.heading ? st.fonts.heading : body.bold;
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
    }
    // Space between paragraphs, less between items of one list.
    const bool list_continues = i + 1 < blocks.size() && blocks[i + 1].kind == b.kind &&
                                (b.kind == BlockKind::Bullet || b.kind == BlockKind::Numbered);
    ImGui::Dummy(ImVec2(0, list_continues ? body.size * 0.15f : body.size * 0.45f));
  }
}

}  // namespace coop::visual
