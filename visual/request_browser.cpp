#include "visual/request_browser.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace coop::visual {
namespace {

std::string ordinal(uint64_t n) {
  const uint64_t tens = n % 100, ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : ones == 1                ? "st"
                       : ones == 2                ? "nd"
                       : ones == 3                ? "rd"
                                                  : "th";
  return std::to_string(n) + suffix;
}

}  // namespace

std::string site_label(const AccessSite& site) {
  return "line " + std::to_string(site.line) + ", " + to_string(site.space) +
         (site.store ? " store" : " load");
}

std::string request_label(const MemoryRequest& r) {
  return "block " + std::to_string(r.block) + ", warp " + std::to_string(r.warp) + ", its " +
         ordinal(r.execution + 1) + " execution";
}

RequestBrowser RequestBrowser::build(const TimelineModel& model) {
  RequestBrowser b;
  b.requests = memory_requests(model.trace());
  for (const MemoryRequest& r : b.requests)
    b.recorded = b.recorded || (model.trace().events[r.events.front()].flags & kFlagInstrumented);
  std::map<std::tuple<uint16_t, bool, bool>, size_t> site_of;  // (line, shared, store)
  for (const MemoryRequest& r : b.requests)
    site_of.try_emplace({r.line, r.space == MemorySpace::Shared, r.store}, 0);
  for (auto& [key, index] : site_of) {
    index = b.sites.size();
    AccessSite s;
    std::tie(s.line, std::ignore, s.store) = key;
    s.space = std::get<1>(key) ? MemorySpace::Shared : MemorySpace::Global;
    b.sites.push_back(s);
  }
  for (size_t i = 0; i < b.requests.size(); ++i) {
    const MemoryRequest& r = b.requests[i];
    const size_t s = site_of[{r.line, r.space == MemorySpace::Shared, r.store}];
    b.sites[s].requests.push_back(i);
  }
  // Within a site: warp by warp, each warp's executions in order.
  for (AccessSite& s : b.sites) {
    std::stable_sort(s.requests.begin(), s.requests.end(), [&](size_t x, size_t y) {
      const MemoryRequest &a = b.requests[x], &c = b.requests[y];
      return std::tie(a.block, a.warp, a.execution) < std::tie(c.block, c.warp, c.execution);
    });
    for (size_t k = 0; k < s.requests.size(); ++k)
      for (size_t e : b.requests[s.requests[k]].events)
        b.of_event_[e] = {int(&s - b.sites.data()), k};
  }
  if (!b.sites.empty()) b.site = 0;
  return b;
}

const MemoryRequest* RequestBrowser::picked() const {
  if (site < 0 || size_t(site) >= sites.size() || index >= sites[size_t(site)].requests.size())
    return nullptr;
  return &requests[sites[size_t(site)].requests[index]];
}

void RequestBrowser::pick_site(int s) {
  if (s < 0 || size_t(s) >= sites.size()) return;
  site = s;
  index = 0;
}

void RequestBrowser::step(int64_t delta) {
  if (site < 0) return;
  const int64_t last = int64_t(sites[size_t(site)].requests.size()) - 1;
  index = size_t(std::clamp<int64_t>(int64_t(index) + delta, 0, std::max<int64_t>(last, 0)));
}

void RequestBrowser::follow(const TimelineModel& model, size_t cursor) {
  if (cursor == followed_cursor || sites.empty()) return;
  followed_cursor = cursor;
  // The moment's own accesses end just before the cursor; look back past the events between
  // (not through a whole launch on every frame of playback).
  constexpr size_t kLookBack = 1 << 16;
  const size_t end = std::min(cursor, model.size());
  for (size_t p = end; p > 0 && end - p < kLookBack; --p) {
    const Event& e = model.at(p - 1);
    if (e.kind != EventKind::Load && e.kind != EventKind::Store) continue;
    const size_t event = size_t(&e - model.trace().events.data());
    if (auto it = of_event_.find(event); it != of_event_.end()) {
      site = it->second.first;
      index = it->second.second;
    }
    return;
  }
}

}  // namespace coop::visual
