#include "visual/views/flow_view.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "device/trace/names.hpp"
#include "visual/event_text.hpp"
#include "visual/views/style.hpp"
#include "visual/views/text_field.hpp"

namespace coop::visual {
namespace {

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
  dl->AddBezierCubic(from, ImVec2(from.x, (from.y + to.y) * 0.5f),
                     ImVec2(to.x, (from.y + to.y) * 0.5f), to, color, thickness);
  const float s = 4.0f + thickness;
  dl->AddTriangleFilled(ImVec2(to.x, to.y), ImVec2(to.x - s * 0.6f, to.y - s),
                        ImVec2(to.x + s * 0.6f, to.y - s), color);
}

void value_box(ImDrawList* dl, ImVec2 at, ImVec2 size, ImU32 fill, const std::string& text) {
  dl->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), fill, 3);
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  if (ts.x <= size.x - 2)
    dl->AddText(ImVec2(at.x + (size.x - ts.x) * 0.5f, at.y + (size.y - ts.y) * 0.5f), text_on(fill),
                text.c_str());
}

}  // namespace

int64_t draw_flow_view(const char* id, const TimelineModel& model,
                       const std::optional<CollectiveCall>& call, FlowViewSettings& s) {
  int64_t seek = -1;
  const ViewStyle& st = view_style();
  ImGui::PushID(id);
  ImGui::TextUnformatted("Only line");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  text_field("##line", s.line_field, std::to_string(s.line), [&](std::string_view text) -> Status {
    Result<int64_t> line = parse_whole(text, "line (0: any)", 0, 1 << 20);
    if (!line) return Status::error(line.message());
    s.line = int(*line);
    return {};
  });
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("0: the latest collective on any line");
  if (!call) {
    ImGui::TextDisabled("No collective (shuffle, reduce, scan, vote) has happened yet.");
    ImGui::PopID();
    return seek;
  }
  const CollectiveCall& c = *call;
  const bool shuffle = shuffle_source(c.op, 0, 32, 0) >= 0;
  ImGui::Text("%s on %s of block %u, line %u", op_label(c.op).c_str(),
              group_label(c.group_kind, c.group_id).c_str(), c.block, unsigned(c.line));
  if (c.op == Op::ShflDown || c.op == Op::ShflUp || c.op == Op::ShflXor) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%s %u)", c.op == Op::ShflXor ? "mask" : "delta", c.extra);
  }
  const size_t n = std::min<size_t>(c.members.size(), 64);
  if (c.members.size() > n)
    ImGui::TextDisabled("showing the first %zu of %zu members", n, c.members.size());
  ImGui::BeginChild("flow", ImVec2(0, 0), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoBackground);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fh = ImGui::GetTextLineHeight();
  const uint32_t bt = std::max(1u, model.block_threads());
  std::vector<uint64_t> inputs;
  for (size_t r = 0; r < n; ++r) inputs.push_back(c.members[r].in);
  const std::vector<std::vector<uint64_t>> tree =
      c.op == Op::Reduce ? reduce_tree(inputs, Op(c.extra ? c.extra : uint32_t(Op::Plus)), c.type)
                         : std::vector<std::vector<uint64_t>>{};
  // Every value is written in its box: the boxes are as wide as the widest value, and a group
  // too wide for the panel is laid out in rows of lanes (a power of two per row).
  float widest = ImGui::CalcTextSize("00").x;
  for (size_t r = 0; r < n; ++r) {
    widest = std::max(widest, ImGui::CalcTextSize(format_value(c.members[r].in, c.type).c_str()).x);
    widest = std::max(widest, ImGui::CalcTextSize(format_value(c.members[r].out, c.type).c_str()).x);
  }
  const float avail = std::max(ImGui::GetContentRegionAvail().x, fh * 4);
  const float need_w = widest + fh * 0.6f;
  size_t per_row = n;
  while (per_row > 4 && float(per_row) * need_w > avail) per_row /= 2;
  per_row = std::max<size_t>(per_row, 1);
  const float box_w = std::max(need_w, std::min(avail / float(per_row), need_w * 2.5f));
  const ImVec2 box(box_w - 3, fh * 1.5f);
  const bool one_row = per_row >= n;
  // Arrows need room between the rows; a source in another row is named under its box instead.
  const float gap = shuffle ? fh * (one_row ? 4.0f : 3.0f) : fh * 1.2f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  float row_y = o.y;
  for (size_t first = 0; first < n; first += per_row) {
    const size_t last = std::min(n, first + per_row);
    const float in_y = row_y + fh * 1.2f;
    float out_y = in_y + box.y + gap;
    for (size_t r = first; r < last; ++r) {
      const float x = o.x + float(r - first) * box_w;
      const std::string rank = std::to_string(r);
      dl->AddText(ImVec2(x + (box.x - ImGui::CalcTextSize(rank.c_str()).x) * 0.5f, row_y),
                  st.colors.dim_text, rank.c_str());
      const CollectiveMember& m = c.members[r];
      const ImU32 fill = m.present ? group_color(m.thread / bt) : st.colors.not_started;
      value_box(dl, ImVec2(x, in_y), box, fill, m.present ? format_value(m.in, c.type) : "-");
    }
    if (!tree.empty() && one_row) {
      // Combining levels between inputs and outputs: level k has one box per 2^k inputs.
      float y = in_y + box.y + gap * 0.5f;
      for (size_t level = 1; level < tree.size(); ++level) {
        const float width = box_w * float(1u << level);
        for (size_t i = 0; i < tree[level].size(); ++i) {
          const float x = o.x + float(i) * width;
          const float w = std::min(width, o.x + float(n) * box_w - x) - 3;
          dl->AddLine(ImVec2(x + w * 0.5f, y), ImVec2(x + w * 0.5f, y - gap * 0.5f),
                      st.colors.grid_line);
          value_box(dl, ImVec2(x, y), ImVec2(w, box.y), st.colors.code_bg,
                    format_value(tree[level][i], c.type));
        }
        y += box.y + gap * 0.5f;
      }
      out_y = y + gap * 0.5f;
    }
    float row_bottom = out_y + box.y;
    for (size_t r = first; r < last; ++r) {
      const float x = o.x + float(r - first) * box_w;
      const CollectiveMember& m = c.members[r];
      const ImU32 fill = m.present ? group_color(m.thread / bt) : st.colors.not_started;
      value_box(dl, ImVec2(x, out_y), box, fill, m.present ? format_value(m.out, c.type) : "-");
      if (shuffle && m.present && m.source >= 0 && size_t(m.source) < n) {
        const bool own = size_t(m.source) == r;
        if (size_t(m.source) >= first && size_t(m.source) < last) {
          const float sx = o.x + float(size_t(m.source) - first) * box_w + box.x * 0.5f;
          arrow(dl, ImVec2(sx, in_y + box.y + 1), ImVec2(x + box.x * 0.5f, out_y - 1),
                own ? st.colors.dim_text : st.colors.code_text, own ? 1.0f : 1.6f);
        } else {
          // The source lane is in another row: its number, above the box it fed.
          const std::string from = "\xe2\x86\x90" + std::to_string(m.source);
          const float w = ImGui::CalcTextSize(from.c_str()).x;
          dl->AddText(ImVec2(x + (box.x - w) * 0.5f, out_y - fh - 2), st.colors.code_text,
                      from.c_str());
        }
      }
      const ImVec2 a(x, in_y), z(x + box.x, out_y + box.y);
      if (m.present && ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(a, z)) {
        ImGui::BeginTooltip();
        ImGui::Text("rank %zu: thread %u (block %u, lane %u)", r, m.thread, m.thread / bt,
                    m.thread % 32);
        ImGui::Text("in %s, out %s", format_value(m.in, c.type).c_str(),
                    format_value(m.out, c.type).c_str());
        if (shuffle) ImGui::Text("read rank %lld's value", (long long)m.source);
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(0)) seek = int64_t(m.position) + 1;
      }
    }
    row_y = row_bottom + fh;
  }
  ImGui::Dummy(ImVec2(float(std::min(per_row, n)) * box_w, row_y - o.y));
  if (!tree.empty() && !one_row)
    text_dim_wrapped("The combining tree is drawn when the whole group fits one row: widen the "
                     "panel to see it.");
  ImGui::EndChild();
  ImGui::PopID();
  return seek;
}

}  // namespace coop::visual
