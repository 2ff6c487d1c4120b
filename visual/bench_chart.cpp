#include "visual/bench_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace coop::visual {

ChartAxis nice_axis(double value, int target_ticks) {
  target_ticks = std::max(1, target_ticks);
  if (!(value > 0) || !std::isfinite(value)) return {1, 1.0 / target_ticks, target_ticks};
  const double magnitude = std::pow(10.0, std::floor(std::log10(value / target_ticks)));
  for (double mult : {1.0, 2.0, 5.0, 10.0, 20.0}) {
    const double step = mult * magnitude;
    const int ticks = std::max(1, int(std::ceil(value / step - 1e-9)));
    if (ticks <= target_ticks) return {step * ticks, step, ticks};
  }
  return {value, value, 1};  // not reached: 10 x magnitude always fits
}

std::string format_rate(double value) {
  char buf[32];
  if (std::fabs(value) >= 100)
    std::snprintf(buf, sizeof buf, "%.0f", value);
  else
    std::snprintf(buf, sizeof buf, "%.3g", value);
  return buf;
}

// [SECTION] Bandwidth of every variant

BandwidthChart layout_bandwidth_chart(const BandwidthChartInput& in) {
  BandwidthChart out;
  double top = in.copy_gbs;
  for (const BandwidthBar& b : in.bars)
    if (b.error.empty()) top = std::max(top, b.gbs);
  out.axis = nice_axis(top);
  for (size_t i = 0; i < in.bars.size(); ++i) {
    const BandwidthBar& b = in.bars[i];
    if (!b.error.empty()) {
      out.length.push_back(0);
      out.values.push_back(b.error);
      continue;
    }
    out.length.push_back(std::clamp(b.gbs / out.axis.max, 0.0, 1.0));
    // "·" and "×" are Latin-1 and middle dot / multiplication sign in UTF-8.
    std::string text = format_rate(b.gbs) + " GB/s";
    if (b.percent_of_copy > 0) text += " \xc2\xb7 " + format_rate(b.percent_of_copy) + "% of copy";
    if (b.ratio_to_cub > 0 && !b.reference)
      text += " \xc2\xb7 " + format_rate(b.ratio_to_cub) + "\xc3\x97 CUB";
    out.values.push_back(std::move(text));
    if (!b.reference && (out.best == SIZE_MAX || b.gbs > in.bars[out.best].gbs)) out.best = i;
  }
  if (in.copy_gbs > 0) out.copy_at = std::clamp(in.copy_gbs / out.axis.max, 0.0, 1.0);
  return out;
}

// [SECTION] Block-size sweep

namespace {

std::string percent(double fraction) {
  return format_rate(fraction * 100) + " %";
}

// "256", "256 and 512", "256, 512 and 1024"
std::string block_list(const std::vector<SweepSample>& samples, const std::vector<size_t>& which) {
  std::string s;
  for (size_t k = 0; k < which.size(); ++k) {
    if (k > 0) s += k + 1 == which.size() ? " and " : ", ";
    s += std::to_string(samples[which[k]].block);
  }
  return s;
}

}  // namespace

SweepChart layout_sweep_chart(const std::vector<SweepSample>& samples, bool show_measured) {
  SweepChart out;
  const size_t n = samples.size();
  if (n == 0) return out;
  out.slot = 1.0 / double(n);
  double top_gbs = 0, top_occupancy = -1;
  for (size_t i = 0; i < n; ++i) {
    const SweepSample& s = samples[i];
    out.x.push_back((double(i) + 0.5) * out.slot);
    const bool runs = s.error.empty();
    out.occupancy.push_back(runs ? std::clamp(s.occupancy, 0.0, 1.0) : -1);
    if (runs) top_occupancy = std::max(top_occupancy, s.occupancy);
    if (runs && show_measured && s.gbs > 0) {
      out.measured = true;
      if (out.fastest == SIZE_MAX || s.gbs > samples[out.fastest].gbs) out.fastest = i;
      top_gbs = std::max(top_gbs, s.gbs);
    }
  }
  out.gbs_axis = nice_axis(top_gbs);
  for (const SweepSample& s : samples)
    out.bandwidth.push_back(s.error.empty() && show_measured && s.gbs > 0
                                ? std::clamp(s.gbs / out.gbs_axis.max, 0.0, 1.0)
                                : -1);
  if (top_occupancy >= 0) {
    for (size_t i = 0; i < n; ++i)
      if (samples[i].error.empty() && samples[i].occupancy >= top_occupancy - 1e-9)
        out.fullest.push_back(i);
    out.prediction = "Highest predicted occupancy: " + percent(top_occupancy) + " at " +
                     block_list(samples, out.fullest) + " threads per block.";
  }
  if (out.measured) {
    const SweepSample& f = samples[out.fastest];
    const bool at_peak =
        std::find(out.fullest.begin(), out.fullest.end(), out.fastest) != out.fullest.end();
    out.outcome =
        "Fastest measured: " + std::to_string(f.block) + " threads, " + format_rate(f.gbs) +
        " GB/s, at " + percent(f.occupancy) + " predicted occupancy" +
        (at_peak ? ": one of the fullest block sizes." : ": not one of the fullest block sizes.");
  }
  return out;
}

}  // namespace coop::visual
