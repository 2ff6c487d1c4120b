// Index
//   [SECTION] Atomic order
//   [SECTION] Racy loads and stores
//   [SECTION] Memory contents
#include "visual/views/memory_views.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

std::string who(const TimelineModel& m, uint32_t thread) {
  const uint32_t bt = std::max(1u, m.block_threads());
  return "block " + std::to_string(thread / bt) + ", thread " + std::to_string(thread % bt);
}

// A box with up to three centred lines; returns true when clicked.
bool ticket(ImDrawList* dl, ImVec2 at, ImVec2 size, ImU32 fill, ImU32 border, const std::string& a,
            const std::string& b, const std::string& c) {
  const ViewStyle& st = view_style();
  dl->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), fill, 4);
  dl->AddRect(at, ImVec2(at.x + size.x, at.y + size.y), border, 4, 0, 1.5f);
  const float line = size.y / 3;
  const std::string* lines[] = {&a, &b, &c};
  for (int i = 0; i < 3; ++i) {
    const ImVec2 ts = ImGui::CalcTextSize(lines[i]->c_str());
    if (ts.x > size.x - 4) continue;
    dl->AddText(
        ImVec2(at.x + (size.x - ts.x) * 0.5f, at.y + line * float(i) + (line - ts.y) * 0.5f),
        i == 0 ? text_on(fill) : (text_on(fill) & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 210),
        lines[i]->c_str());
  }
  (void)st;
  return ImGui::IsMouseHoveringRect(at, ImVec2(at.x + size.x, at.y + size.y)) &&
         ImGui::IsWindowHovered() && ImGui::IsMouseClicked(0);
}

// [SECTION] Atomic order

// The ticket just landed, where drawn: its top and bottom on screen.
struct NewestTicket {
  float top = 0, bottom = 0;
};

// The history whose newest landed ticket landed last (the atomic the playback moment has just
// made), or null before any has landed.
const AddressHistory* last_landing(const std::vector<AddressHistory>& histories, size_t cursor) {
  const AddressHistory* out = nullptr;
  size_t latest = 0;
  for (const AddressHistory& h : histories) {
    const size_t landed = h.atomics.empty() ? 0 : landed_in_order(h, cursor);
    if (landed == 0) continue;
    if (const size_t at = h.atomics[landed - 1].position; !out || at > latest) {
      out = &h;
      latest = at;
    }
  }
  return out;
}

int64_t atomic_tickets(const TimelineModel& m, const AddressHistory& h, size_t cursor,
                       NewestTicket* newest_at) {
  int64_t seek = -1;
  const ViewStyle& st = view_style();
  const TraceHeader& header = m.trace().header;
  // Tickets land in their order, not by timestamp (a GPU stamps an atomic before issuing it).
  const size_t landed = landed_in_order(h, cursor);
  // The scopes its atomics were made with (one, usually): which threads they are atomic for.
  std::string scopes;
  for (const AtomicLanding& a : h.atomics)
    if (const std::string sc = atomic_scope(a.flags); scopes.find(sc) == std::string::npos)
      scopes += (scopes.empty() ? "" : " and ") + sc;
  text_wrappedf("%s: %s at %s scope, %zu landed so far",
                address_name(h.address, h.flags, header).c_str(),
                count_of(h.atomics.size(), op_label(h.atomics.front().op) + " call").c_str(),
                scopes.c_str(), landed);
  text_dim_wrapped(h.order_exact
                               ? "In landing order, read from the old value each one found "
                                 "(not by time stamp)."
                               : "Old values do not chain: shown in recorded order.");
  // Every ticket as wide as the widest text any of them holds.
  struct Text {
    std::string a, b, c;
  };
  std::vector<Text> texts;
  float widest = 0;
  const uint32_t bt = std::max(1u, m.block_threads());
  for (size_t i = 0; i < h.atomics.size(); ++i) {
    const AtomicLanding& a = h.atomics[i];
    uint64_t result = 0;
    const bool known = atomic_result(a.op, h.type, a.old, a.operand, result);
    // Who (thread, and its block and warp) and what it added, then what it found and left.
    Text t{"#" + std::to_string(i + 1) + "  thread " + std::to_string(a.thread),
           "b" + std::to_string(a.thread / bt) + " w" + std::to_string(a.thread % bt / 32) + "  +" +
               format_value(a.operand, h.type),
           format_value(a.old, h.type) +
               (known ? " \xe2\x86\x92 " + format_value(result, h.type) : "")};
    for (const std::string* x : {&t.a, &t.b, &t.c})
      widest = std::max(widest, ImGui::CalcTextSize(x->c_str()).x);
    texts.push_back(std::move(t));
  }
  const float fh = ImGui::GetTextLineHeight();
  const ImVec2 size(widest + fh, fh * 3.3f);
  const float gap = fh * 0.4f;
  const float avail = ImGui::GetContentRegionAvail().x;
  const size_t per_row = std::max<size_t>(1, size_t((avail + gap) / (size.x + gap)));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // The ticket just landed is outlined; later ones are faded.
  const int64_t newest = int64_t(landed) - 1;
  const size_t rows = (h.atomics.size() + per_row - 1) / per_row;
  const float scroll_top = ImGui::GetScrollY(), view_h = ImGui::GetWindowHeight();
  for (size_t i = 0; i < h.atomics.size(); ++i) {
    const AtomicLanding& a = h.atomics[i];
    const ImVec2 at(origin.x + float(i % per_row) * (size.x + gap),
                    origin.y + float(i / per_row) * (size.y + gap));
    if (int64_t(i) == newest && newest_at) *newest_at = {at.y, at.y + size.y};
    const float local_y = at.y - origin.y + (origin.y - ImGui::GetWindowPos().y) + scroll_top;
    if (local_y + size.y < scroll_top || local_y > scroll_top + view_h) continue;  // clipped
    const bool done = i < landed;
    ImU32 fill = group_color(a.thread / bt);
    if (!done) fill = scale_color(st.colors.no_group, 0.6f);
    if (ticket(dl, at, size, fill, int64_t(i) == newest ? st.colors.selection : fill, texts[i].a,
               texts[i].b, texts[i].c))
      seek = int64_t(a.position) + 1;
  }
  ImGui::Dummy(ImVec2(avail, float(rows) * (size.y + gap)));
  return seek;
}

// [SECTION] Racy loads and stores

int64_t race_table(const TimelineModel& m, const AddressHistory& h, size_t cursor) {
  int64_t seek = -1;
  const ViewStyle& st = view_style();
  ImGui::Text("%s: %zu unprotected loads and stores",
              address_name(h.address, h.flags, m.trace().header).c_str(), h.accesses.size());
  if (h.lost_updates) {
    ImGui::SameLine();
    ImGui::TextColored(ImColor(st.colors.error), "%u updates lost", h.lost_updates);
  }
  const float height =
      std::min(ImGui::GetTextLineHeightWithSpacing() * float(h.accesses.size() + 1),
               ImGui::GetFontSize() * 14);
  if (!ImGui::BeginTable(
          "races", 4,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV,
          ImVec2(0, height)))
    return seek;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("t", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 4);
  ImGui::TableSetupColumn("who", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 10);
  ImGui::TableSetupColumn("access", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 7);
  ImGui::TableSetupColumn("what it means");
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(int(h.accesses.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const RaceAccess& a = h.accesses[size_t(i)];
      ImGui::TableNextRow();
      if (a.position >= cursor)
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      if (ImGui::Selectable(std::to_string(m.at(a.position).time).c_str(), false,
                            ImGuiSelectableFlags_SpanAllColumns))
        seek = int64_t(a.position) + 1;
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(who(m, a.thread).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%s %s", a.store ? "store" : "load", format_value(a.value, h.type).c_str());
      ImGui::TableNextColumn();
      if (a.overwrote >= 0) {
        const RaceAccess& lost = h.accesses[size_t(a.overwrote)];
        ImGui::TextColored(ImColor(st.colors.error), "overwrites %s's %s: that update is lost",
                           who(m, lost.thread).c_str(), format_value(lost.value, h.type).c_str());
      } else if (a.store) {
        ImGui::TextDisabled("no store since its load: this one counts");
      }
      if (a.position >= cursor) ImGui::PopStyleColor();
    }
  ImGui::EndTable();
  return seek;
}

}  // namespace

int64_t draw_atomic_order_view(const char* id, const TimelineModel& model,
                               const std::vector<AddressHistory>& histories, size_t cursor,
                               bool* newest_in_sight) {
  int64_t seek = -1;
  ImGui::PushID(id);
  ImGui::BeginChild("atomics", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  bool any = false;
  const AddressHistory* followed = last_landing(histories, cursor);
  NewestTicket newest;
  for (size_t i = 0; i < histories.size(); ++i) {
    const AddressHistory& h = histories[i];
    ImGui::PushID(int(i));
    if (!h.atomics.empty()) {
      if (const int64_t s = atomic_tickets(model, h, cursor, &h == followed ? &newest : nullptr);
          s >= 0)
        seek = s;
      any = true;
    }
    if (h.lost_updates > 0 || (h.atomics.empty() && !h.accesses.empty())) {
      if (const int64_t s = race_table(model, h, cursor); s >= 0) seek = s;
      any = true;
    }
    ImGui::PopID();
    ImGui::Spacing();
  }
  if (!any) ImGui::TextDisabled("No atomics or racing loads and stores in this trace.");
  if (followed) {
    // When another atomic lands, its ticket comes into view at the foot, the tickets before it
    // above (a step that speaks of the last adds opens with them in sight); once, so that the
    // reader can scroll away from it.
    const int landing = int(followed->atomics[landed_in_order(*followed, cursor) - 1].position);
    bring_into_sight_once("followed", landing, newest.top, newest.bottom, 1.0f);
  }
  if (newest_in_sight) *newest_in_sight = !followed || rows_in_sight(newest.top, newest.bottom);
  ImGui::EndChild();
  ImGui::PopID();
  return seek;
}

// [SECTION] Memory contents

int64_t draw_memory_view(const char* id, const TimelineModel& model,
                         const std::vector<MemoryArray>& arrays, size_t cursor) {
  int64_t seek = -1;
  const ViewStyle& st = view_style();
  ImGui::PushID(id);
  ImGui::BeginChild("memory", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  if (arrays.empty())
    ImGui::TextDisabled(cursor == 0 ? "Nothing has touched memory yet."
                                    : "No traced loads, stores or atomics so far.");
  const uint32_t bt = std::max(1u, model.block_threads());
  const float fh = ImGui::GetTextLineHeight();
  for (size_t k = 0; k < arrays.size(); ++k) {
    const MemoryArray& a = arrays[k];
    ImGui::PushID(int(k));
    if (a.shared)
      ImGui::Text("%s  (shared memory of block %u): %s touched", a.name.c_str(), a.block,
                  count_of(a.cells.size(), "element").c_str());
    else
      ImGui::Text("%s  (global): %s touched", a.name.c_str(),
                  count_of(a.cells.size(), "element").c_str());
    const ImVec2 cell(std::max(fh * 4.2f, ImGui::CalcTextSize("-0.0000000").x + 6), fh * 2.3f);
    const float avail = ImGui::GetContentRegionAvail().x;
    const size_t per_row = std::max<size_t>(1, size_t((avail + 3) / (cell.x + 3)));
    const size_t rows = (a.cells.size() + per_row - 1) / per_row;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 clip_min = ImGui::GetWindowPos();
    const float clip_max_y = clip_min.y + ImGui::GetWindowHeight();
    for (size_t i = 0; i < a.cells.size(); ++i) {
      const MemoryCell& c = a.cells[i];
      const ImVec2 at(origin.x + float(i % per_row) * (cell.x + 3),
                      origin.y + float(i / per_row) * (cell.y + 3));
      if (at.y > clip_max_y || at.y + cell.y < clip_min.y) continue;  // only visible rows
      const ImU32 fill = c.written ? group_color(uint32_t(c.writer) / bt) : st.colors.code_bg;
      dl->AddRectFilled(at, ImVec2(at.x + cell.x, at.y + cell.y), fill, 3);
      char index[24];
      std::snprintf(index, sizeof index, "[%llu]", (unsigned long long)c.index);
      dl->AddText(ImVec2(at.x + 3, at.y + 1),
                  (text_on(fill) & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 170), index);
      const std::string value = format_value(c.value, a.type);
      dl->AddText(ImVec2(at.x + 3, at.y + fh + 1), text_on(fill), value.c_str());
      if (ImGui::IsWindowHovered() &&
          ImGui::IsMouseHoveringRect(at, ImVec2(at.x + cell.x, at.y + cell.y))) {
        ImGui::BeginTooltip();
        ImGui::Text("%s[%llu] = %s", a.name.c_str(), (unsigned long long)c.index, value.c_str());
        if (c.written) ImGui::Text("last written by %s", who(model, uint32_t(c.writer)).c_str());
        ImGui::Text("%u reads, %u writes so far", c.reads, c.writes);
        ImGui::TextDisabled("click: go to its last access");
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(0)) seek = int64_t(c.last_position) + 1;
      }
    }
    ImGui::Dummy(ImVec2(avail, float(rows) * (cell.y + 3)));
    ImGui::PopID();
    ImGui::Spacing();
  }
  ImGui::EndChild();
  ImGui::PopID();
  return seek;
}

}  // namespace coop::visual
