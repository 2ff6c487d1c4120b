// Hidden cases of tile-shuffle-sum: blocks of one tile up to the largest, and n not a multiple
// of 32 (the last tile's missing values count as 0).
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(1024, 256), covering(4096, 1024),
                                     covering(1000, 128), covering(77, 96),    covering(250, 64)};
  return run_cases(shapes, {"ones", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     const int tiles = int(s.grid * s.block) / 32;
                     std::vector<int> want(tiles, 0);
                     for (int i = 0; i < s.n; ++i) want[i / 32] += input[i];
                     int *d_input, *d_sums;
                     cudaMalloc(&d_input, s.n * sizeof(int));
                     cudaMalloc(&d_sums, tiles * sizeof(int));
                     cudaMemcpy(d_input, input.data(), s.n * sizeof(int), cudaMemcpyHostToDevice);
                     cudaMemset(d_sums, 0xff, tiles * sizeof(int));
                     tile_sums<<<s.grid, s.block>>>(d_input, d_sums, s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     std::vector<int> got(tiles);
                     cudaMemcpy(got.data(), d_sums, tiles * sizeof(int), cudaMemcpyDeviceToHost);
                     cudaFree(d_input);
                     cudaFree(d_sums);
                     return compare(got, want);
                   });
}
