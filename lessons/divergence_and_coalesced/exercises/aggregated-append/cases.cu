// Hidden cases of aggregated-append: the count and the kept values, sorted (the slots' order is
// the atomics'), over one block, many, the largest, and n not a multiple of 32 or of the block.
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(256, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),   covering(300, 64),
                                     covering(40, 128)};
  return run_cases(shapes, {"ones", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     // Output 0 is the count, then the kept values in increasing order.
                     std::vector<int> want;
                     for (int x : input)
                       if (x > 0) want.push_back(x);
                     std::sort(want.begin(), want.end());
                     want.insert(want.begin(), int(want.size()));
                     DeviceArray<int> d_input(input, "input"), d_out(s.n, 0, "out"),
                         d_count(1, 0, "count");
                     keep_positive<<<s.grid, s.block>>>(d_input.get(), d_out.get(), d_count.get(),
                                                        s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     const int count = d_count.read()[0];
                     std::vector<int> got = d_out.read(size_t(std::clamp(count, 0, s.n)));
                     std::sort(got.begin(), got.end());
                     got.insert(got.begin(), count);
                     return compare(got, want);
                   });
}
