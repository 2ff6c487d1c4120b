// Hidden cases of tile-ranks: one block, many blocks, the largest block, and n not a multiple of
// 8 or of the block (threads past n write nothing).
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(64, 64),    covering(1024, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),    covering(300, 64),
                                     covering(40, 128)};
  return run_cases(shapes, {"none"}, [](const Shape& s, const std::string&) {
    // One more output than n: nothing may be written past the last thread's place.
    std::vector<int> want(s.n + 1, -1);
    for (int i = 0; i < s.n; ++i) {
      const int rank_in_block = i % int(s.block);
      want[i] = 100 * (rank_in_block / 8) + rank_in_block % 8;
    }
    DeviceArray<int> d_out(want.size(), 0xff, "out");
    tile_ranks<<<s.grid, s.block>>>(d_out.get(), s.n);
    if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
    return compare(d_out.read(), want);
  });
}
