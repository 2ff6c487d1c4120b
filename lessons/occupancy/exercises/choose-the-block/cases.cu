// Hidden cases of choose-the-block: several amounts of shared memory per thread, so that the
// best block size changes (a fixed block size fails some case); one block and many, chunks that
// n does not fill. Each case checks the launch chosen against the occupancy calculator's answer,
// then the kernel's output under that launch.
namespace {

// The answer the rule gives: the calculator asked for every block size, largest first, and the
// first of the most resident threads kept.
Launch reference_launch(int n, int per_thread) {
  cudaDeviceProp props{};
  cudaGetDeviceProperties(&props, 0);
  Launch want;
  int most = -1;
  for (int block = props.maxThreadsPerBlock / 32 * 32; block >= 32; block -= 32) {
    int resident = 0;
    const size_t bytes = size_t(block) * size_t(per_thread) * sizeof(int);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, reverse_chunks, block, bytes);
    if (resident * block <= most) continue;
    most = resident * block;
    want = {0, block, bytes};
  }
  const int chunk = want.block * per_thread;
  want.grid = (n + chunk - 1) / chunk;
  return want;
}

std::string words(const Launch& l) {
  return "grid " + std::to_string(l.grid) + " x block " + std::to_string(l.block) + " with " +
         std::to_string(l.smem) + " bytes of shared memory";
}

}  // namespace

int hidden_cases() {
  using namespace coopviz_exercise;
  // {n, ints per thread}: 1 and 8 fill the SM's threads with any large block, 30 and 48 make
  // shared memory the limit, and 56 leaves room for one block of 1024 threads at most.
  const std::pair<int, int> setups[] = {{50, 1},     {20000, 1}, {30000, 8},
                                        {70001, 30}, {9999, 48}, {60000, 56}};
  int failed = 0;
  for (const auto& [n, per_thread] : setups) {
    const Launch want = reference_launch(n, per_thread);
    Shape shape{unsigned(want.grid), unsigned(want.block), n,
                std::to_string(per_thread) + " ints per thread"};
    failed += run_cases(
        {shape}, {"ramp", "random", "extremes"}, [&](const Shape& s, const std::string& kind) {
          const Launch got = choose_launch(s.n, per_thread);
          if (got.grid != want.grid || got.block != want.block || got.smem != want.smem) {
            Verdict v;
            v.passed = false;
            v.problem =
                "choose_launch gave " + words(got) + "; the occupancy rule gives " + words(want);
            return v;
          }
          const std::vector<int> input = make_input(kind, s.n);
          std::vector<int> expected(size_t(s.n));
          const int chunk = want.block * per_thread;
          for (int i = 0; i < s.n; ++i) {
            const int first = i / chunk * chunk, count = std::min(chunk, s.n - first);
            expected[i] = input[first + count - 1 - (i - first)];
          }
          DeviceArray<int> d_in(input, "in"), d_out(s.n, 0xff, "out");
          cudaFuncSetAttribute(reverse_chunks, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(got.smem));
          reverse_chunks<<<got.grid, got.block, got.smem>>>(d_in.get(), d_out.get(), s.n,
                                                            per_thread);
          if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
          return compare(d_out.read(), expected);
        });
  }
  return failed == 0 ? 0 : 1;
}
