#include "visual/memory_badges.hpp"

#include <cstdio>

namespace coop::visual {
namespace {

// A warp's 32 four-byte accesses to consecutive addresses touch 4 sectors; more is waste.
constexpr double kCoalescedSectors = 4.0;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v == double(uint64_t(v)) ? "%.0f" : "%.1f", v);
  return buf;
}

}  // namespace

std::vector<MemoryBadge> memory_badges(const std::vector<LineMemoryStats>& stats) {
  std::vector<MemoryBadge> out;
  for (const LineMemoryStats& s : stats) {
    if (s.line >= out.size()) out.resize(size_t(s.line) + 1);
    MemoryBadge& b = out[s.line];
    const bool global = s.space == MemorySpace::Global;
    const std::string measure = global ? number(s.sectors_per_request()) + " sect/req"
                                       : std::to_string(s.bank_conflict_ways) + "-way";
    if (!b.text.empty()) b.text.append("  ");
    b.text.append(s.store ? "st " : "ld ").append(measure);
    if (!b.details.empty()) b.details.append("\n");
    b.details.append(to_string(s.space))
        .append(s.store ? " stores: " : " loads: ")
        .append(std::to_string(s.requests))
        .append(" warp requests, ");
    if (global)
      b.details.append(number(s.sectors_per_request())).append(" 32-byte sectors per request");
    else
      b.details.append(std::to_string(s.bank_conflict_ways))
          .append("-way bank conflicts at worst, ")
          .append(std::to_string(s.wavefronts))
          .append(" passes in all");
    b.poor =
        b.poor || (global ? s.sectors_per_request() > kCoalescedSectors : s.bank_conflict_ways > 1);
  }
  return out;
}

}  // namespace coop::visual
