// Fonts and colours every view draws with. The app loads the fonts and picks the theme
// (normal or high-contrast presentation mode); views only read them.
#pragma once

#include <string>

#include <cstdint>

#include <imgui.h>

namespace coop::visual {

struct ViewFonts {
  ImFont* text = nullptr;     // body text (DejaVu Sans)
  ImFont* bold = nullptr;     // **bold** in lesson text
  ImFont* italic = nullptr;   // *emphasis* in lesson text (the body font when there is none)
  ImFont* heading = nullptr;  // lesson headings
  ImFont* mono = nullptr;     // code and numbers (JetBrains Mono)
  ImFont* small = nullptr;    // ranks inside grid cells
};

struct ViewColors {
  ImU32 text, dim_text, background, panel, grid_line;
  ImU32 code_bg, code_text;                   // `code` spans in lesson text
  ImU32 line_current, line_step, line_hover;  // code view highlights
  ImU32 not_started, no_group, not_member, selection, waiting_mark;
  ImU32 ok, error, warning;
  ImU32 race;  // data races: the code view's badge and the grid's marks (apart from stuck's red)
  // Syntax colours, indexed like TokenKind.
  ImU32 syntax[9];
};

struct ViewStyle {
  ViewFonts fonts;
  ViewColors colors;
  float scale = 1.0f;  // HiDPI / presentation scale applied to sizes in pixels
  bool high_contrast = false;
};

const ViewStyle& view_style();
void set_view_style(const ViewStyle& style);

// Colour sets: the normal dark theme and the classroom high-contrast one.
ViewColors dark_colors();
ViewColors high_contrast_colors();

// A distinct colour for group number `id` (tile 0, tile 1, ...), cycling through a palette that
// stays readable on a dark background and keeps neighbours apart.
ImU32 group_color(uint32_t id);
// `c` with its RGB scaled by `factor` (alpha kept).
ImU32 scale_color(ImU32 c, float factor);
// Black or white, whichever reads better on `background`.
ImU32 text_on(ImU32 background);

// Pushes `font` if the app loaded it (views work with ImGui's default font too).
void push_font(ImFont* font);
void pop_font(ImFont* font);

// Continues the line for an item `width` pixels wide if it fits, else starts a new line: rows
// of buttons and labels wrap instead of running out of narrow panels.
void same_line_if_room(float width);
// The same for a button or checkbox labelled `label` (its frame padding included).
void same_line_if_room(const char* label);

// `text` as it fits in `width` pixels: whole, or cut after its last whole word that fits, with
// an ellipsis (never mid-word; a first word too long for the width is cut with the ellipsis).
// `words` false: an identifier, cut after as many characters as fit, with the ellipsis.
std::string fit_words(const std::string& text, float width, bool words = true);

// Text that wraps at the panel's edge, between words only: ImGui's own wrapping also breaks
// after punctuation, which splits "25.0 %" or "3,4" across lines.
void text_wrapped(const std::string& text);
// The same, printf-style.
void text_wrappedf(const char* format, ...) IM_FMTARGS(1);
// The same in the dim colour.
void text_dim_wrapped(const std::string& text);
// `text` with a line break in place of each space where the next word would pass `width` pixels
// (lines of one word too long for the width stay whole).
std::string break_at_spaces(const std::string& text, float width);

// Whether the rows from screen y `top` to `bottom`, drawn this frame, are in sight: in the
// current window's visible part (its scrolling and the clipping of the panels around it counted),
// wholly, or when taller than that part, their foot filling it.
bool rows_in_sight(float top, float bottom);
// How many pixels of the rows from screen y `top` to `bottom` are in sight, in the same sense.
float height_in_sight(float top, float bottom);
// Scrolls the current window to bring them into sight, with `above` (0 to 1) of the room they
// leave spare above them (taller ones end at its foot: what led up to the last row shows above
// it). Nothing moves when they are in sight already. False while the window cannot scroll that
// far yet (one drawn for the first time does not know its height): the caller asks again next
// frame, and stops once it returns true, so the reader can scroll away.
bool bring_into_sight(float top, float bottom, float above);
// Brings them into sight once for each `what` (an id of what they show, as the request or the
// atomic just landed) and each height of the window (a panel resized, a scrollbar come), keeping
// that in the window's state under `id`: between those, the reader scrolls freely.
void bring_into_sight_once(const char* id, int what, float top, float bottom, float above);

}  // namespace coop::visual
