// The reduction benchmark's charts as data: axes, bar lengths, the words under the sweep.
#include <gtest/gtest.h>

#include "visual/bench_chart.hpp"

namespace coop::visual {
namespace {

TEST(BenchChart, NiceAxesStepInOnesTwosAndFives) {
  const ChartAxis a = nice_axis(4517);
  EXPECT_DOUBLE_EQ(a.max, 5000);
  EXPECT_DOUBLE_EQ(a.step, 1000);
  EXPECT_EQ(a.ticks, 5);
  const ChartAxis b = nice_axis(3300, 5);
  EXPECT_DOUBLE_EQ(b.step, 1000);
  EXPECT_DOUBLE_EQ(b.max, 4000);
  const ChartAxis c = nice_axis(0.83, 4);
  EXPECT_DOUBLE_EQ(c.step, 0.5);
  EXPECT_DOUBLE_EQ(c.max, 1.0);
  for (double v : {1.0, 7.0, 99.0, 101.0, 1234.5, 3e6}) {
    const ChartAxis x = nice_axis(v);
    EXPECT_GE(x.max, v) << v;
    EXPECT_LE(x.ticks, 5) << v;
    EXPECT_NEAR(x.max, x.step * x.ticks, 1e-9 * x.max) << v;
  }
  EXPECT_GT(nice_axis(0).max, 0) << "an empty chart still has an axis";
}

TEST(BenchChart, FormatsRatesWithoutNoiseDigits) {
  EXPECT_EQ(format_rate(4517.4), "4517");
  EXPECT_EQ(format_rate(97.26), "97.3");
  EXPECT_EQ(format_rate(1.0234), "1.02");
  EXPECT_EQ(format_rate(0.25), "0.25");
}

TEST(BenchChart, BarsAgainstTheCopyLineAndTheFastestKernel) {
  BandwidthChartInput in;
  in.copy_gbs = 4000;
  in.bars = {{"seed-atomic", "", 1000, 25, 0.25, false, ""},
             {"tuned", "", 3900, 97.5, 1.02, false, ""},
             {"broken", "", 9000, 0, 0, false, "sum wrong: 12 instead of 13"},
             {"cub", "", 3800, 95, 1, true, ""}};
  const BandwidthChart c = layout_bandwidth_chart(in);
  EXPECT_DOUBLE_EQ(c.axis.max, 4000) << "the failed variant's number does not stretch the axis";
  ASSERT_EQ(c.length.size(), 4u);
  EXPECT_DOUBLE_EQ(c.length[0], 0.25);
  EXPECT_DOUBLE_EQ(c.length[2], 0);
  EXPECT_DOUBLE_EQ(c.copy_at, 1.0);
  EXPECT_EQ(c.best, 1u) << "the fastest correct kernel of ours, not CUB, not the broken one";
  EXPECT_EQ(c.values[1], "3900 GB/s \xc2\xb7 97.5% of copy \xc2\xb7 1.02\xc3\x97 CUB");
  EXPECT_EQ(c.values[2], "sum wrong: 12 instead of 13");
  EXPECT_EQ(c.values[3], "3800 GB/s \xc2\xb7 95% of copy") << "CUB is not compared with itself";
}

TEST(BenchChart, SweepPredictsFirstThenShowsTheMeasurement) {
  const std::vector<SweepSample> samples = {{32, 0.5, 1200, "", ""},
                                            {256, 1.0, 4400, "", ""},
                                            {512, 1.0, 4500, "", ""},
                                            {2048, 0, 0, "", "more than 1024 threads"}};
  const SweepChart hidden = layout_sweep_chart(samples, false);
  EXPECT_FALSE(hidden.measured);
  EXPECT_EQ(hidden.bandwidth, (std::vector<double>{-1, -1, -1, -1}));
  EXPECT_EQ(hidden.occupancy, (std::vector<double>{0.5, 1.0, 1.0, -1}));
  EXPECT_EQ(hidden.fullest, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(hidden.prediction,
            "Highest predicted occupancy: 100 % at 256 and 512 threads per block.");
  EXPECT_TRUE(hidden.outcome.empty()) << "nothing is said about a measurement not shown";
  ASSERT_EQ(hidden.x.size(), 4u);
  EXPECT_DOUBLE_EQ(hidden.x[0], 0.125);
  EXPECT_DOUBLE_EQ(hidden.slot, 0.25);

  const SweepChart shown = layout_sweep_chart(samples, true);
  EXPECT_TRUE(shown.measured);
  EXPECT_EQ(shown.fastest, 2u);
  EXPECT_DOUBLE_EQ(shown.gbs_axis.max, 5000);
  EXPECT_DOUBLE_EQ(shown.bandwidth[2], 0.9);
  EXPECT_DOUBLE_EQ(shown.bandwidth[3], -1);
  EXPECT_EQ(shown.outcome,
            "Fastest measured: 512 threads, 4500 GB/s, at 100 % predicted occupancy: one of the "
            "fullest block sizes.");

  // When the fastest block size is not a fullest one, the words say so.
  std::vector<SweepSample> other = samples;
  other[0].gbs = 4800;
  EXPECT_NE(layout_sweep_chart(other, true).outcome.find("not one of the fullest"),
            std::string::npos);
}

}  // namespace
}  // namespace coop::visual
