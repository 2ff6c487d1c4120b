// The Memory tab's one-request view: pick an access site (a kernel line, its memory space and
// kind) and one of its requests, and see the request's 32 lanes with their addresses, the
// 32-byte sectors they touch (global) or the banks they hit (shared: lanes of a conflicting bank
// share its colour, lanes reading one word are marked as a broadcast).
#pragma once

#include "visual/request_browser.hpp"
#include "visual/timeline_model.hpp"

namespace coop::visual {

// Draws the pickers and the picked request of `browser` (which it changes when the user picks).
// The caller draws in a region that scrolls: the lane table may be taller than the tab; a request
// newly picked is scrolled into view down to its lanes (and a shared one's banks).
// `targets_in_sight`, when given: whether those are in sight, with as much above as fits.
void draw_request_view(const char* id, const TimelineModel& model, RequestBrowser& browser,
                       bool* targets_in_sight = nullptr);

// One line saying what the request costs: "32 lanes touch 8 sectors (256 bytes fetched, 128
// used)", "32-way conflict: 32 lanes ask bank 3 for different words", "1-way: a broadcast ...".
std::string request_summary(const MemoryRequest& request, const RequestLayout& layout);

}  // namespace coop::visual
