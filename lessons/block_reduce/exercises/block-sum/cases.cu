// Hidden cases of block-sum: one block, many blocks, the largest block, and sizes that are not
// a multiple of 32 or of the block; inputs of every sign and size.
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(256, 256),  covering(1024, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),    covering(300, 64),
                                     covering(40, 128)};
  return run_cases(shapes, {"ones", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     std::vector<int> want(s.grid, 0);
                     for (int i = 0; i < s.n; ++i) want[i / int(s.block)] += input[i];
                     DeviceArray<int> d_input(input, "input"), d_sums(s.grid, 0xff, "block_sums");
                     block_sum<<<s.grid, s.block>>>(d_input.get(), d_sums.get(), s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     return compare(d_sums.read(), want);
                   });
}
