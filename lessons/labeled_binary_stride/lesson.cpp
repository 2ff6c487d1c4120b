// Lesson "labeled-binary-stride": definition, CPU reference and checks.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lessons/labeled_binary_stride/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"

namespace coop::lessons::labeled_binary_stride {
namespace {

constexpr int kFacts = 8;  // ints per thread written by split_by_label

Status validate(const LaunchConfig& c, const Params&) {
  const uint64_t n = c.block.count();
  if (n % 32 != 0)
    return Status::error("labeled-binary-stride cuts each block into warp tiles of 32: block " +
                         c.block.str() + " has " + std::to_string(n) +
                         " threads, not a multiple of 32");
  if (c.total_threads() > (1u << 20))
    return Status::error(
        "labeled-binary-stride records every thread: at most 1048576 threads, "
        "got " +
        std::to_string(c.total_threads()));
  return {};
}

// What split_by_label must report for lane `lane` of a warp whose lanes carry `labels`:
// the group of lanes sharing a label, ranked in lane order, groups numbered by first lane.
std::vector<int> expected_facts(const int* labels, int lane, int stride) {
  int rank = 0, size = 0, leader = -1;
  for (int l = 0; l < 32; ++l)
    if (labels[l] == labels[lane]) {
      if (leader < 0) leader = l;
      ++size;
      rank += l < lane;
    }
  int meta = 0;  // groups whose first lane comes before this group's first lane
  for (int l = 0; l < leader; ++l) {
    bool first_of_its_label = true;
    for (int k = 0; k < l; ++k) first_of_its_label &= labels[k] != labels[l];
    meta += first_of_its_label;
  }
  const int residue = lane % stride;
  const int dealt_size = (32 - residue + stride - 1) / stride;
  return {rank, size, meta, leader, lane / 2, lane % 2, lane / stride, dealt_size};
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const LaunchConfig& c = req.config;
  const int labels = int(req.params.at("labels"));
  const int stride = int(req.params.at("stride"));
  const size_t threads = c.total_threads();

  std::vector<int> colour(threads);
  std::mt19937 rng(uint32_t(req.params.at("data")));
  std::uniform_int_distribution<int> pick(0, labels - 1);
  for (int& x : colour) x = pick(rng);

  auto d_colour = DeviceArray<int>::create(exec, threads, "colour");
  auto d_facts = DeviceArray<int>::create(exec, threads * kFacts, "facts");
  for (Status s : {d_colour.status(), d_facts.status()})
    if (!s) return s;
  if (Status s = d_colour->upload(colour); !s) return s;
  if (Status s = d_facts->zero(); !s) return s;
  Trace trace;
  Status launched =
      exec.launch(kernels().split_by_label, c, trace, d_colour->get(), d_facts->get(), stride);
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto facts = d_facts->download();
  if (!facts) return facts.status();

  auto expected = [&](size_t g) {
    return expected_facts(&colour[g / 32 * 32], int(g % 32), stride);
  };
  auto got = [&](size_t g, int first, int count) {
    return std::vector<int>(facts->begin() + long(g * kFacts + first),
                            facts->begin() + long(g * kFacts + first + count));
  };
  auto part = [&](size_t g, int first, int count) {
    const std::vector<int> e = expected(g);
    return std::vector<int>(e.begin() + first, e.begin() + first + count);
  };
  auto join = [](const std::vector<int>& v) {
    std::string s;
    for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
  };
  auto check = [&](std::string name, int first, int count) {
    out.checks.push_back(all_of(
        std::move(name), threads,
        [&](size_t g) { return got(g, first, count) == part(g, first, count); },
        [&](size_t g) {
          return "thread " + std::to_string(g) + " (label " + std::to_string(colour[g]) +
                 ") wrote " + join(got(g, first, count)) + ", expected " +
                 join(part(g, first, count));
        }));
  };
  check("labeled_partition: rank, size and meta rank among the lanes sharing a label", 0, 3);
  check("reduce(less) over each label group finds its first lane", 3, 1);
  check("binary_partition(odd lane): rank lane / 2, meta rank 0 for even, 1 for odd", 4, 2);
  check("stride_partition(" + std::to_string(stride) + "): rank lane / " + std::to_string(stride) +
            ", lanes r, r + " + std::to_string(stride) + ", ... together",
        6, 2);
  // The trace names the partitions by kind, so the view can colour each thread by its label.
  const Trace& t = out.launches.back();
  const size_t labeled = count_events(t, [](const Event& e) {
    return e.kind == EventKind::GroupCreate && e.group_kind == GroupKind::Labeled;
  });
  const size_t strided = count_events(t, [](const Event& e) {
    return e.kind == EventKind::GroupCreate && e.group_kind == GroupKind::Stride;
  });
  out.checks.push_back(make_check("one labeled and one stride group creation per thread",
                                  std::to_string(threads) + " and " + std::to_string(threads),
                                  std::to_string(labeled) + " and " + std::to_string(strided),
                                  labeled == threads && strided == threads));
  out.checks.push_back(nothing_dropped(out.launches));

  std::string lane_colours, groups;
  for (int l = 0; l < 32; ++l) lane_colours += (l ? " " : "") + std::to_string(colour[size_t(l)]);
  for (int label = 0; label < labels; ++label) {
    int members = 0;
    for (int l = 0; l < 32; ++l) members += colour[size_t(l)] == label;
    groups += (label ? ", " : "") + std::string("label ") + std::to_string(label) + ": " +
              std::to_string(members);
  }
  out.results.emplace_back("labels of warp 0, lane 0 first", lane_colours);
  out.results.emplace_back("label group sizes in warp 0", groups);
  const int largest = (32 + stride - 1) / stride, smallest = 32 / stride;
  out.results.emplace_back("stride groups per warp",
                           std::to_string(stride) + " of " + std::to_string(largest) +
                               (largest == smallest ? "" : " or " + std::to_string(smallest)) +
                               " lanes");
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "labeled-binary-stride";
  l.order = 30;
  l.title = "Labeled, binary and stride partitions";
  l.level = Level::Intermediate;
  l.concepts = {"labeled_partition", "binary_partition", "stride_partition",
                "coalesced_group",   "meta_group_rank",  "reduce"};
  l.params = {
      {"labels", 3, 1, 8, "how many colours the host deals out at random (1 to 8)"},
      {"stride", 4, 1, 32, "stride_partition's group count: lane r joins group r % stride"},
      {"data", 1, 0, 1 << 30, "seed of the random colours"},
  };
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {64, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::labeled_binary_stride
