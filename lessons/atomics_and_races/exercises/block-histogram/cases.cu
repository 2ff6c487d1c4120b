// Hidden cases of block-histogram: one block, many, the largest, blocks smaller than the bins,
// n not a multiple of 32 or of the block; values in one bin (contention) or spread over all.
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(4096, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),    covering(300, 64),
                                     covering(100, 8),    covering(40, 128)};
  return run_cases(shapes, {"ones", "ramp", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     std::vector<int> want(kBins, 0);
                     for (int x : input) ++want[bin_of(x)];
                     DeviceArray<int> d_input(input, "input"), d_bins(kBins, 0, "bins");
                     histogram<<<s.grid, s.block>>>(d_input.get(), d_bins.get(), s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     return compare(d_bins.read(), want);
                   });
}
