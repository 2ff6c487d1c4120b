// Index
//   [SECTION] Words
//   [SECTION] Pickers
//   [SECTION] Lanes, sectors and banks
#include "visual/views/request_view.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "visual/event_text.hpp"
#include "visual/views/style.hpp"

namespace coop::visual {
namespace {

constexpr int kLanes = 32;
constexpr int kBanks = 32;

// [SECTION] Words

// "lanes 0-7, 9" for a sorted list of lanes.
std::string lane_list(const std::vector<uint32_t>& lanes) {
  std::string out;
  for (size_t i = 0; i < lanes.size();) {
    size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(lanes[i]) +
           (j > i ? "-" + std::to_string(lanes[j]) : "");
    i = j + 1;
  }
  return (lanes.size() == 1 ? "lane " : "lanes ") + out;
}

}  // namespace

std::string request_summary(const MemoryRequest& r, const RequestLayout& l) {
  const size_t lanes = r.lanes.size();
  if (r.space == MemorySpace::Global) {
    uint64_t used = 0;
    for (const LaneAccess& a : r.lanes) used += a.bytes;
    return std::to_string(lanes) + (lanes == 1 ? " lane touches " : " lanes touch ") +
           std::to_string(l.sectors.size()) + (l.sectors.size() == 1 ? " sector" : " sectors") +
           " of 32 bytes: " + std::to_string(l.sectors.size() * 32) + " bytes moved for " +
           std::to_string(used) + " asked for";
  }
  uint32_t worst_bank = 0;
  for (uint32_t b = 0; b < l.bank_words.size(); ++b)
    if (l.bank_words[b] > l.bank_words[worst_bank]) worst_bank = b;
  size_t broadcast = 0;
  for (const RequestLayout::Lane& lane : l.lanes) broadcast += lane.broadcast;
  std::string out = std::to_string(l.ways) + "-way: ";
  if (l.ways > 1)
    out += std::to_string(l.ways) + " different words asked of bank " + std::to_string(worst_bank) +
           ", served one after the other in " + std::to_string(l.wavefronts) +
           (l.wavefronts == 1 ? " pass" : " passes");
  else
    out += "no bank is asked for two different words; " + std::to_string(l.wavefronts) +
           (l.wavefronts == 1 ? " pass" : " passes");
  if (broadcast > 0)
    out += " (" + std::to_string(broadcast) + " lanes share a word with another lane: broadcast)";
  if (l.phases > 1) out += "; " + std::to_string(l.phases) + " phases of wide accesses";
  return out;
}

namespace {

// [SECTION] Pickers

void draw_pickers(RequestBrowser& b) {
  const AccessSite& site = b.sites[size_t(b.site)];
  const float fh = ImGui::GetTextLineHeight();
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, fh * 16));
  if (ImGui::BeginCombo("##site", site_label(site).c_str())) {
    for (size_t s = 0; s < b.sites.size(); ++s) {
      const std::string label = site_label(b.sites[s]) + "  (" +
                                std::to_string(b.sites[s].requests.size()) + " requests)";
      if (ImGui::Selectable(label.c_str(), int(s) == b.site)) b.pick_site(int(s));
    }
    ImGui::EndCombo();
  }
  same_line_if_room(fh * 2);
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) b.step(-1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) b.step(1);
  const int count = int(b.sites[size_t(b.site)].requests.size());
  int shown = int(b.index) + 1;
  same_line_if_room(fh * 10);
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, fh * 10));
  if (ImGui::SliderInt("##request", &shown, 1, std::max(count, 1), "request %d") && shown >= 1)
    b.step(int64_t(shown - 1) - int64_t(b.index));
  const MemoryRequest& r = *b.picked();
  const std::string of = "of " + std::to_string(count) + ": " + request_label(r);
  same_line_if_room(ImGui::CalcTextSize(of.c_str()).x);
  ImGui::TextUnformatted(of.c_str());
}

// [SECTION] Lanes, sectors and banks

// Cells in rows: as many per row as the width allows (32, 16, 8 or 4), from the cursor.
struct CellRows {
  ImVec2 origin, cell;
  int per_row = kLanes;
  ImVec2 at(int i) const {
    return ImVec2(origin.x + float(i % per_row) * (cell.x + 2),
                  origin.y + float(i / per_row) * (cell.y + 2));
  }
  // Makes room for `count` cells in the window's layout.
  void reserve(int count) const {
    const int rows = (count + per_row - 1) / per_row;
    ImGui::Dummy(ImVec2(float(per_row) * (cell.x + 2), float(rows) * (cell.y + 2)));
  }
};

CellRows cell_rows(ImVec2 cell, int count) {
  CellRows rows{ImGui::GetCursorScreenPos(), cell, count};
  const float avail = ImGui::GetContentRegionAvail().x;
  while (rows.per_row > 4 && float(rows.per_row) * (cell.x + 2) > avail) rows.per_row /= 2;
  return rows;
}

// The colour a lane is drawn in: its sector (global), or its bank when that bank conflicts.
ImU32 lane_fill(const MemoryRequest& r, const RequestLayout::Lane& lane) {
  const ViewStyle& st = view_style();
  if (r.space == MemorySpace::Global) return group_color(lane.sector);
  return lane.conflicting ? group_color(lane.bank) : st.colors.code_bg;
}

void lane_tooltip(const TimelineModel& m, const MemoryRequest& r, const RequestLayout::Lane& lane,
                  size_t event) {
  const Event& e = m.trace().events[event];
  ImGui::BeginTooltip();
  ImGui::Text("lane %u: %s, %u bytes at 0x%" PRIx64, lane.lane,
              address_name(lane.address, e.flags, m.trace().header).c_str(), lane.bytes,
              lane.address);
  // A load records the value it read in b, a store the value it wrote in a.
  ImGui::Text("%s %s", e.kind == EventKind::Store ? "wrote" : "read",
              format_value(e.kind == EventKind::Store ? e.a : e.b, e.value_type).c_str());
  if (r.space == MemorySpace::Global)
    ImGui::Text("sector %u of the request (bytes 0x%" PRIx64 " to 0x%" PRIx64 ")", lane.sector,
                lane.address / 32 * 32, lane.address / 32 * 32 + 31);
  else
    ImGui::Text("word %" PRIu64 ", bank %u%s%s", lane.word, lane.bank,
                lane.conflicting ? ": its bank serves other words too (a conflict)" : "",
                lane.broadcast ? ": another lane reads the same word (broadcast)" : "");
  ImGui::EndTooltip();
}

// 32 cells, one per lane: the lane, then the sector or bank, in as many rows as the width needs.
void draw_lane_strip(const TimelineModel& m, const MemoryRequest& r, const RequestLayout& l) {
  const ViewStyle& st = view_style();
  const float fh = ImGui::GetTextLineHeight();
  const CellRows grid =
      cell_rows(ImVec2(std::max(fh * 1.9f, ImGui::CalcTextSize("b31").x + 6), fh * 2.2f), kLanes);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int lane = 0; lane < kLanes; ++lane) {
    const ImVec2 at = grid.at(lane);
    const ImVec2 end(at.x + grid.cell.x, at.y + grid.cell.y);
    auto it = std::find_if(l.lanes.begin(), l.lanes.end(),
                           [&](const RequestLayout::Lane& x) { return int(x.lane) == lane; });
    if (it == l.lanes.end()) {  // inactive: it made no access in this request
      dl->AddRect(at, end, st.colors.grid_line, 3);
      dl->AddText(ImVec2(at.x + 3, at.y + 1), st.colors.dim_text, std::to_string(lane).c_str());
      continue;
    }
    const ImU32 fill = lane_fill(r, *it);
    dl->AddRectFilled(at, end, fill, 3);
    if (it->broadcast) dl->AddRect(at, end, st.colors.warning, 3, 0, 2.0f * st.scale);
    dl->AddText(ImVec2(at.x + 3, at.y + 1), text_on(fill), std::to_string(lane).c_str());
    const std::string where = r.space == MemorySpace::Global ? "s" + std::to_string(it->sector)
                                                             : "b" + std::to_string(it->bank);
    dl->AddText(ImVec2(at.x + 3, at.y + fh + 1),
                (text_on(fill) & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 200), where.c_str());
    if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(at, end)) {
      const size_t k =
          size_t(std::find_if(r.lanes.begin(), r.lanes.end(),
                              [&](const LaneAccess& a) { return int(a.lane) == lane; }) -
                 r.lanes.begin());
      lane_tooltip(m, r, *it, r.events[k]);
    }
  }
  grid.reserve(kLanes);
}

// Global: each sector the request touches, with its lanes. Shared: the 32 banks, each with the
// number of different words asked of it (more than one is a conflict).
void draw_targets(const MemoryRequest& r, const RequestLayout& l) {
  const ViewStyle& st = view_style();
  if (r.space == MemorySpace::Global) {
    for (uint32_t s = 0; s < l.sectors.size(); ++s) {
      std::vector<uint32_t> lanes;
      for (const RequestLayout::Lane& lane : l.lanes)
        if (lane.sector == s) lanes.push_back(lane.lane);
      ImGui::ColorButton(("##sector" + std::to_string(s)).c_str(),
                         ImGui::ColorConvertU32ToFloat4(group_color(s)),
                         ImGuiColorEditFlags_NoTooltip);
      ImGui::SameLine();
      text_wrappedf("s%u: bytes 0x%" PRIx64 "-0x%" PRIx64 ", %s", s, l.sectors[s] * 32,
                    l.sectors[s] * 32 + 31, lane_list(lanes).c_str());
    }
    return;
  }
  const float fh = ImGui::GetTextLineHeight();
  const CellRows grid =
      cell_rows(ImVec2(std::max(fh * 1.6f, ImGui::CalcTextSize("32").x + 6), fh * 2.2f), kBanks);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int b = 0; b < kBanks; ++b) {
    const ImVec2 at = grid.at(b);
    const ImVec2 end(at.x + grid.cell.x, at.y + grid.cell.y);
    const uint32_t words = l.bank_words.empty() ? 0 : l.bank_words[size_t(b)];
    const ImU32 fill = words > 1 ? group_color(uint32_t(b)) : st.colors.code_bg;
    dl->AddRectFilled(at, end, fill, 3);
    dl->AddText(ImVec2(at.x + 3, at.y + 1), st.colors.dim_text, std::to_string(b).c_str());
    dl->AddText(ImVec2(at.x + 3, at.y + fh + 1), words > 1 ? text_on(fill) : st.colors.text,
                words ? std::to_string(words).c_str() : "-");
    if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(at, end))
      ImGui::SetTooltip("bank %d: %u different %s asked of it%s", b, words,
                        words == 1 ? "word" : "words", words > 1 ? ", one pass each" : "");
  }
  grid.reserve(kBanks);
}

// Every lane's address as the kernel names it, four columns of eight lanes.
void draw_lane_table(const TimelineModel& m, const MemoryRequest& r, const RequestLayout& l) {
  const int columns = ImGui::GetContentRegionAvail().x > ImGui::GetTextLineHeight() * 44 ? 4 : 2;
  if (!ImGui::BeginTable("lanes", columns, ImGuiTableFlags_SizingStretchSame)) return;
  const int rows = (kLanes + columns - 1) / columns;
  for (int row = 0; row < rows; ++row) {
    ImGui::TableNextRow();
    for (int c = 0; c < columns; ++c) {
      ImGui::TableNextColumn();
      const int lane = c * rows + row;
      auto it = std::find_if(r.lanes.begin(), r.lanes.end(),
                             [&](const LaneAccess& a) { return int(a.lane) == lane; });
      if (it == r.lanes.end()) {
        ImGui::TextDisabled("%2d  -", lane);
        continue;
      }
      const Event& e = m.trace().events[r.events[size_t(it - r.lanes.begin())]];
      const RequestLayout::Lane& info = *std::find_if(
          l.lanes.begin(), l.lanes.end(), [&](const auto& x) { return int(x.lane) == lane; });
      const std::string where = r.space == MemorySpace::Global ? "s" + std::to_string(info.sector)
                                                               : "b" + std::to_string(info.bank);
      ImGui::Text("%2d  %s  %s", lane, address_name(it->address, e.flags, m.trace().header).c_str(),
                  where.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_request_view(const char* id, const TimelineModel& model, RequestBrowser& b,
                       bool* targets_in_sight) {
  ImGui::PushID(id);
  if (b.site < 0) {
    ImGui::TextDisabled(
        "This launch recorded no loads or stores of its own (turn memory "
        "recording on in Launch to see every access).");
    ImGui::PopID();
    return;
  }
  draw_pickers(b);
  const MemoryRequest& r = *b.picked();
  const RequestLayout l = layout_request(r);
  const ViewStyle& st = view_style();
  const bool poor = r.space == MemorySpace::Global ? l.sectors.size() > 4 : l.ways > 1;
  const float top = ImGui::GetCursorScreenPos().y;
  ImGui::PushStyleColor(ImGuiCol_Text, poor ? st.colors.warning : st.colors.ok);
  text_wrapped(request_summary(r, l));
  ImGui::PopStyleColor();
  draw_lane_strip(model, r, l);
  float bottom = ImGui::GetItemRectMax().y;
  text_dim_wrapped(r.space == MemorySpace::Global
                       ? "Each lane coloured by the sector (s) its bytes fall in."
                       : "Each lane with its bank (b); lanes of a conflicting bank share its "
                         "colour, lanes outlined read a word another lane reads too (broadcast).");
  draw_targets(r, l);
  if (r.space == MemorySpace::Shared) bottom = ImGui::GetItemRectMax().y;
  // A request newly picked (a step's, or the reader's) comes into view from its summary down to
  // its lanes and, for shared memory, its banks, which a step's text speaks of ("the bank strip
  // shows one bank with 32 words"); those at the foot where all of it does not fit. (A global
  // request's sectors are a list below its lanes, coloured alike.)
  bring_into_sight_once("followed", r.events.empty() ? -1 : int(r.events.front()), top, bottom,
                        0.0f);
  if (targets_in_sight) *targets_in_sight = rows_in_sight(top, bottom);
  draw_lane_table(model, r, l);
  ImGui::PopID();
}

}  // namespace coop::visual
