// Hidden cases of double-buffer: one block, several; the largest block; blocks with two tiles
// and with many; n not a multiple of 32 or of the block (a short last tile).
// The last shape leaves whole warps past n in its last tile (40 elements in a block of 128); a
// block of one tile has no next copy to overlap, which the count rule asks for.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {{1, 32, 64},   {4, 256, 5000}, {1, 1024, 4000},
                                     {3, 96, 1000}, {4, 128, 1100}, {1, 64, 77},
                                     {1, 128, 168}};
  return run_cases(shapes, {"ramp", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     const int size = int(s.block);
                     std::vector<int> want(size_t(s.n));
                     for (int i = 0; i < s.n; ++i) {
                       const int first = i / size * size, count = std::min(size, s.n - first);
                       want[i] = input[i] + input[first + (i - first + 1) % count];
                     }
                     DeviceArray<int> d_in(input, "in"), d_out(s.n, 0xff, "out");
                     tile_neighbours<<<s.grid, s.block>>>(d_in.get(), d_out.get(), s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     return compare(d_out.read(), want);
                   });
}
