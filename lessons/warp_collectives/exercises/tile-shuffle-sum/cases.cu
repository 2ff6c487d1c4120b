// Hidden cases of tile-shuffle-sum: blocks of one tile up to the largest, and n not a multiple
// of 32 (the last tile's missing values count as 0).
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(1024, 256), covering(4096, 1024),
                                     covering(1000, 128), covering(77, 96),    covering(250, 64),
                                     covering(40, 128)};
  return run_cases(shapes, {"ones", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     std::vector<int> want(s.grid * s.block / 32, 0);
                     for (int i = 0; i < s.n; ++i) want[i / 32] += input[i];
                     DeviceArray<int> d_input(input, "input"), d_sums(want.size(), 0xff, "sums");
                     tile_sums<<<s.grid, s.block>>>(d_input.get(), d_sums.get(), s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     return compare(d_sums.read(), want);
                   });
}
