// The Memory tab's one-request view, as data: the shown launch's warp-wide requests
// (device/trace/memory_access.hpp) grouped by access site (a kernel line, its memory space and
// whether it loads or stores), which site and request are picked, and the request the playback
// moment has just made, which the view follows as playback moves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/trace/memory_access.hpp"
#include "visual/timeline_model.hpp"

namespace coop::visual {

// One line's accesses of one space and kind, and its requests in order (block, warp, execution).
struct AccessSite {
  uint16_t line = 0;
  MemorySpace space = MemorySpace::Global;
  bool store = false;
  std::vector<size_t> requests;  // indices into RequestBrowser::requests
};

// "line 17, global load" for pickers.
std::string site_label(const AccessSite& site);
// "block 0, warp 3, its 1st execution" for one request.
std::string request_label(const MemoryRequest& request);

struct RequestBrowser {
  std::vector<MemoryRequest> requests;
  std::vector<AccessSite> sites;      // by line, then global before shared, loads before stores
  int site = -1;                      // picked site (-1: none, the launch recorded no accesses)
  size_t index = 0;                   // picked request within the site
  size_t followed_cursor = SIZE_MAX;  // the playback position last followed
  // Some access was recorded by the emulator's instrumentation (memory recording was on), not
  // only traced(...) ones: the requests then hold every lane that made the access.
  bool recorded = false;

  // Requests of `model`'s trace, with the first site's first request picked.
  static RequestBrowser build(const TimelineModel& model);

  const MemoryRequest* picked() const;
  // Picks site `s` (its first request), or moves within the site by `delta` requests (clamped).
  void pick_site(int s);
  void step(int64_t delta);
  // Picks the request of the last load or store at or before playback position `cursor` (the
  // access the moment has just made); keeps the pick when none was made yet. Once per cursor.
  void follow(const TimelineModel& model, size_t cursor);

 private:
  // Trace event index -> (site, index in the site) of the request holding it.
  std::unordered_map<size_t, std::pair<int, size_t>> of_event_;
};

}  // namespace coop::visual
