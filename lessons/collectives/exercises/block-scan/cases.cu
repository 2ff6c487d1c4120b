// Hidden cases of block-scan: one tile, one block, many blocks, the largest block, and n not a
// multiple of 32 or of the block.
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(256, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),   covering(300, 64),
                                     covering(40, 128)};
  return run_cases(shapes, {"ones", "ramp", "random", "negative"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     std::vector<int> want(s.n);
                     for (int i = 0; i < s.n; ++i)
                       want[i] = (i % int(s.block) == 0 ? 0 : want[i - 1]) + input[i];
                     DeviceArray<int> d_input(input, "input"), d_out(s.n, 0xff, "out");
                     block_scan<<<s.grid, s.block>>>(d_input.get(), d_out.get(), s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     return compare(d_out.read(), want);
                   });
}
