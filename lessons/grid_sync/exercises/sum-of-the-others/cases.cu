// Hidden cases of sum-of-the-others: one block, several, the largest block, and n smaller than,
// equal to and many times the grid's threads, not a multiple of it.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {{1, 32, 100}, {4, 128, 2000}, {2, 1024, 5000},
                                     {8, 64, 77},  {3, 96, 288},   {16, 256, 10007}};
  return run_cases(
      shapes, {"ones", "random", "negative"}, [](const Shape& s, const std::string& kind) {
        const std::vector<int> input = make_input(kind, s.n);
        int sum = 0;
        for (int x : input) sum += x;
        std::vector<int> want(s.n);
        for (int i = 0; i < s.n; ++i) want[i] = sum - input[i];
        const int threads = int(s.grid * s.block);
        int *d_input, *d_partial, *d_total, *d_out;
        cudaMalloc(&d_input, s.n * sizeof(int));
        cudaMalloc(&d_partial, threads * sizeof(int));
        cudaMalloc(&d_total, sizeof(int));
        cudaMalloc(&d_out, s.n * sizeof(int));
        cudaMemcpy(d_input, input.data(), s.n * sizeof(int), cudaMemcpyHostToDevice);
        cudaMemset(d_partial, 0x55, threads * sizeof(int));
        cudaMemset(d_total, 0x55, sizeof(int));
        cudaMemset(d_out, 0xff, s.n * sizeof(int));
        int n = s.n;
        void* args[] = {&d_input, &d_partial, &d_total, &d_out, &n};
        cudaLaunchCooperativeKernel((void*)sum_of_the_others, s.grid, s.block, args, 0, 0);
        if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
        std::vector<int> got(s.n);
        cudaMemcpy(got.data(), d_out, s.n * sizeof(int), cudaMemcpyDeviceToHost);
        cudaFree(d_input);
        cudaFree(d_partial);
        cudaFree(d_total);
        cudaFree(d_out);
        return compare(got, want);
      });
}
