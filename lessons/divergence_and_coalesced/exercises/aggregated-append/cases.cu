// Hidden cases of aggregated-append: the count and the kept values, sorted (the slots' order is
// the atomics'), over one block, many, the largest, and n not a multiple of 32 or of the block.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(256, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),   covering(300, 64)};
  return run_cases(shapes, {"ones", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> input = make_input(kind, s.n);
                     std::vector<int> want;
                     for (int x : input)
                       if (x > 0) want.push_back(x);
                     std::sort(want.begin(), want.end());
                     want.insert(want.begin(), int(want.size()));
                     int *d_input, *d_out, *d_count;
                     cudaMalloc(&d_input, s.n * sizeof(int));
                     cudaMalloc(&d_out, s.n * sizeof(int));
                     cudaMalloc(&d_count, sizeof(int));
                     cudaMemcpy(d_input, input.data(), s.n * sizeof(int), cudaMemcpyHostToDevice);
                     cudaMemset(d_out, 0, s.n * sizeof(int));
                     cudaMemset(d_count, 0, sizeof(int));
                     keep_positive<<<s.grid, s.block>>>(d_input, d_out, d_count, s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     int count = 0;
                     cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
                     // Output 0 is the count, then the kept values in increasing order.
                     std::vector<int> got(size_t(std::clamp(count, 0, s.n)));
                     cudaMemcpy(got.data(), d_out, got.size() * sizeof(int),
                                cudaMemcpyDeviceToHost);
                     std::sort(got.begin(), got.end());
                     got.insert(got.begin(), count);
                     cudaFree(d_input);
                     cudaFree(d_out);
                     cudaFree(d_count);
                     return compare(got, want);
                   });
}
