// Hidden cases of overlap-the-wait: one block, many, the largest, and n not a multiple of 32 or
// of the block (a last block with few elements); inputs of every sign and size.
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(1024, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),    covering(300, 64),
                                     covering(40, 128)};
  return run_cases(shapes, {"ramp", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     // out, then squares: the first wrong one fails the case.
                     std::vector<int> want(size_t(2 * s.n));
                     const int block = int(s.block);
                     for (int i = 0; i < s.n; ++i) {
                       const int first = i / block * block;
                       const int count = std::min(block, s.n - first);
                       want[i] = input[i] + input[first + (i - first + 1) % count];
                       want[s.n + i] = input[i] * input[i];
                     }
                     DeviceArray<int> d_in(input, "in"), d_out(s.n, 0xff, "out"),
                         d_squares(s.n, 0xff, "squares");
                     neighbour_sums<<<s.grid, s.block>>>(d_in.get(), d_out.get(), d_squares.get(),
                                                         s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     std::vector<int> got = d_out.read();
                     const std::vector<int> squares = d_squares.read();
                     got.insert(got.end(), squares.begin(), squares.end());
                     return compare(got, want);
                   });
}
