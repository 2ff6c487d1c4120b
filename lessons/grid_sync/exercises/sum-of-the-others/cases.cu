// Hidden cases of sum-of-the-others: one block, several, the largest block, and n smaller than,
// equal to and many times the grid's threads, not a multiple of it.
// The last shape (n 40 over blocks of 128) leaves whole blocks, warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {{1, 32, 100}, {4, 128, 2000}, {2, 1024, 5000},
                                     {8, 64, 77},  {3, 96, 288},   {16, 256, 10007}, {4, 128, 40}};
  return run_cases(
      shapes, {"ones", "random", "negative"}, [](const Shape& s, const std::string& kind) {
        const std::vector<int> input = make_input(kind, s.n);
        int sum = 0;
        for (int x : input) sum += x;
        std::vector<int> want(s.n);
        for (int i = 0; i < s.n; ++i) want[i] = sum - input[i];
        // Scratch that starts as garbage, as it would on a GPU.
        DeviceArray<int> d_input(input, "input"), d_partial(s.grid * s.block, 0x55, "partial"),
            d_total(1, 0x55, "total"), d_out(s.n, 0xff, "out");
        int* input_ptr = d_input.get();
        int *partial = d_partial.get(), *total = d_total.get(), *out = d_out.get(), n = s.n;
        void* args[] = {&input_ptr, &partial, &total, &out, &n};
        cudaLaunchCooperativeKernel((void*)sum_of_the_others, s.grid, s.block, args, 0, 0);
        if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
        return compare(d_out.read(), want);
      });
}
