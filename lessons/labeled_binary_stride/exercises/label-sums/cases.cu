// Hidden cases of label-sums: one block, many, the largest, n not a multiple of 32 or of the
// block; labels from one to many per warp, over values of every sign and size.
// The last shape (n 40 in a block of 128) leaves whole warps and tiles past n.
int hidden_cases() {
  using namespace coopviz_exercise;
  const std::vector<Shape> shapes = {covering(32, 32),    covering(1024, 256), covering(2048, 1024),
                                     covering(1000, 128), covering(77, 96),    covering(300, 64),
                                     covering(40, 128)};
  return run_cases(shapes, {"ones", "random", "negative", "extremes"},
                   [](const Shape& s, const std::string& kind) {
                     const std::vector<int> value = make_input(kind, s.n);
                     // How many labels changes with the shape: one, two, a few, many.
                     const int labels = 1 + int(s.block % 7) + int(s.n % 5);
                     std::vector<int> label = make_input("random", s.n);
                     for (int& l : label) l = (l + 100) % labels;
                     std::vector<int> want(size_t(s.n), 0);
                     for (int i = 0; i < s.n; ++i)
                       for (int j = i / 32 * 32; j < s.n && j < i / 32 * 32 + 32; ++j)
                         if (label[j] == label[i]) want[i] += value[j];
                     DeviceArray<int> d_label(label, "label"), d_value(value, "value"),
                         d_sums(s.n, 0xff, "same_label_sum");
                     label_sums<<<s.grid, s.block>>>(d_label.get(), d_value.get(), d_sums.get(),
                                                     s.n);
                     if (cudaError_t e = finished(); e != cudaSuccess) return failure(e);
                     return compare(d_sums.read(), want);
                   });
}
