// libFuzzer target: the launch options a student types (--grid, --block, --cluster, --smem,
// --param name=value, --emulate sm_XX) and the validation every launch passes before any backend
// sees it.
// Whatever the text, parsing either fails with a message or gives values inside the stated
// limits, and validate_launch accepts only what really fits each device preset.
//
// Input: lines of text, so the seed corpus stays readable:
//   0 grid   1 block   2 cluster   3 dynamic shared bytes   4 mode (normal/cooperative/cluster)
//   5 kernel resources "regs static_smem max_threads"   6.. lesson parameters "name=value"
// A grid/block/cluster/smem/resource line that does not parse still reaches validate_launch as
// raw bytes, so zero, huge and overflowing values that the parser would refuse are checked too.
//
// Built by scripts/fuzz.sh with clang++ -fsanitize=fuzzer,address,undefined.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "device/launch/launch_checks.hpp"
#include "device/launch/launch_config.hpp"
#include "device/occupancy/occupancy.hpp"
#include "device/occupancy/presets.hpp"
#include "lessons/lesson.hpp"

// lesson.cpp looks lessons up in the registry; the real one (registry.cpp) reads the lesson
// folders, so this target brings its own single lesson with parameters of every shape.
namespace coop::lessons {

const LessonDef& fuzz_lesson() {
  static const LessonDef lesson = [] {
    LessonDef l;
    l.id = "fuzz-lesson";
    l.title = "Parameters of every shape";
    l.params = {
        {"tile", 4, 1, 32, "a power of two", true},
        {"n", 1 << 20, 1, int64_t(1) << 40, "a large count"},
        {"offset", 0, -1000, 1000, "may be negative"},
        {"variant", 0, 0, 3, "small enumeration"},
        {"wide", 0, INT64_MIN + 1, INT64_MAX, "the whole range"},
        {"blocks", 64, 1, int64_t(1) << 30, "blocks, power of two", true},
    };
    return l;
  }();
  return lesson;
}

const std::vector<LessonDef>& registry() {
  static const std::vector<LessonDef> lessons{fuzz_lesson()};
  return lessons;
}

}  // namespace coop::lessons

namespace {

using coop::Dim3;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "config_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Up to n little-endian 32-bit words from the line's bytes (missing bytes are zero).
void raw_words(std::string_view line, uint32_t* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = 0;
    for (int b = 0; b < 4; ++b) {
      const size_t at = size_t(i) * 4 + size_t(b);
      if (at < line.size()) out[i] |= uint32_t(uint8_t(line[at])) << (8 * b);
    }
  }
}

void check_count(std::string_view text, uint64_t limit) {
  coop::Result<uint64_t> v = coop::parse_count(text, "--count", limit);
  if (!v) {
    if (v.message().find("--count") == std::string::npos) fail("parse_count", "unnamed error");
    return;
  }
  if (*v > limit) fail("parse_count", "value over the limit accepted");
  const std::string again = std::to_string(*v);
  coop::Result<uint64_t> back = coop::parse_count(again, "--count", limit);
  if (!back || *back != *v) fail("parse_count", "does not round trip: " + again);
}

Dim3 dim_from_line(std::string_view line, const char* what) {
  coop::Result<Dim3> d = coop::parse_dim3(line, what);
  if (d) {
    for (uint32_t v : {d->x, d->y, d->z})
      if (v == 0 || v > 0x7fffffffu) fail("parse_dim3", "out-of-range dimension accepted");
    coop::Result<Dim3> back = coop::parse_dim3(d->str(), what);
    if (!back || !(*back == *d)) fail("parse_dim3", "does not round trip: " + d->str());
    return *d;
  }
  if (d.message().find(what) == std::string::npos) fail("parse_dim3", "unnamed error");
  uint32_t w[3];
  raw_words(line, w, 3);
  return Dim3{w[0], w[1], w[2]};
}

using u128 = unsigned __int128;

// What validate_launch promises when it accepts, recomputed without any chance of overflow.
void check_accepted(const coop::LaunchConfig& c, const coop::DeviceProps& d,
                    const coop::KernelResources& k) {
  const Dim3 dims[] = {c.grid, c.block};
  for (const Dim3& v : dims)
    if (v.x == 0 || v.y == 0 || v.z == 0) fail("validate_launch", "zero dimension accepted");
  const u128 block = u128(c.block.x) * c.block.y * c.block.z;
  const u128 grid = u128(c.grid.x) * c.grid.y * c.grid.z;
  if (c.block.x > d.max_block_dims.x || c.block.y > d.max_block_dims.y ||
      c.block.z > d.max_block_dims.z || c.grid.x > d.max_grid_dims.x ||
      c.grid.y > d.max_grid_dims.y || c.grid.z > d.max_grid_dims.z)
    fail("validate_launch", "dimension over the device limit accepted on " + d.name);
  if (block > u128(d.max_threads_per_block)) fail("validate_launch", "block too large accepted");
  if (k.max_threads_per_block > 0 && block > u128(k.max_threads_per_block))
    fail("validate_launch", "block over the kernel's limit accepted");
  if (grid * block > 0xffffffffu)
    fail("validate_launch", "grid of more than 2^32-1 threads accepted: " + c.grid.str() + " x " +
                                c.block.str() + " on " + d.name);
  if (u128(k.static_smem) + c.dynamic_smem > u128(coop::max_smem_per_block(d)))
    fail("validate_launch", "shared memory over the limit accepted");
  if (c.mode == coop::LaunchMode::Cooperative &&
      (!d.cooperative_launch || grid > coop::max_cooperative_blocks(c, d, k)))
    fail("validate_launch", "cooperative grid over the residency limit accepted");
  if (c.mode == coop::LaunchMode::Cluster) {
    const u128 cluster = u128(c.cluster.x) * c.cluster.y * c.cluster.z;
    if (!d.cluster_launch || cluster == 0 || cluster > u128(d.max_cluster_size) ||
        c.grid.x % c.cluster.x || c.grid.y % c.cluster.y || c.grid.z % c.cluster.z)
      fail("validate_launch", "bad cluster accepted");
  }
}

// --emulate and --arch name a preset as "sm_90", "90" or "9.0"; a name found must find itself.
void check_preset_name(std::string_view text) {
  coop::Result<coop::DeviceProps> d = coop::find_preset(text);
  if (!d) {
    if (d.message().find("unknown architecture") == std::string::npos)
      fail("find_preset", "unnamed error");
    return;
  }
  coop::Result<coop::DeviceProps> again = coop::find_preset(d->arch_string());
  if (!again || again->name != d->name) fail("find_preset", "does not round trip: " + d->name);
}

void check_param_items(const std::vector<std::string>& items) {
  using namespace coop::lessons;
  const LessonDef& lesson = *find_lesson("fuzz-lesson");
  coop::Result<Params> p = parse_params(lesson, items);
  if (!p) {
    if (p.message().empty()) fail("parse_params", "an error without a message");
    return;
  }
  if (p->size() != lesson.params.size()) fail("parse_params", "unknown or missing parameter");
  for (const ParamDef& def : lesson.params) {
    const int64_t v = p->at(def.name);
    if (v < def.min || v > def.max) fail("parse_params", def.name + " out of range accepted");
    if (def.power_of_two && (v <= 0 || (v & (v - 1)) != 0))
      fail("parse_params", def.name + " not a power of two accepted");
  }
  if (!check_params(lesson, *p)) fail("parse_params", "check_params disagrees");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> lines = split_lines(text);
  lines.resize(std::max<size_t>(lines.size(), 6));

  for (std::string_view line : lines) {
    check_count(line, 0x7fffffffu);
    check_count(line, UINT64_MAX);
    check_count(line, 0);
    check_preset_name(line);
  }

  coop::LaunchConfig config;
  config.grid = dim_from_line(lines[0], "--grid");
  config.block = dim_from_line(lines[1], "--block");
  config.cluster = dim_from_line(lines[2], "--cluster");
  if (coop::Result<uint64_t> smem = coop::parse_count(lines[3], "--smem", 0xffffffffu); smem) {
    config.dynamic_smem = uint32_t(*smem);
  } else {
    raw_words(lines[3], &config.dynamic_smem, 1);
  }
  const std::string_view mode = lines[4];
  config.mode = mode == "cooperative"              ? coop::LaunchMode::Cooperative
                : mode == "cluster"                ? coop::LaunchMode::Cluster
                : mode == "normal" || mode.empty() ? coop::LaunchMode::Normal
                                                   : coop::LaunchMode(uint8_t(mode.front()) % 3);

  coop::KernelResources kernel;
  {
    const std::string_view r = lines[5];
    int64_t v[3] = {32, 0, 1024};
    const char* p = r.data();
    const char* end = r.data() + r.size();
    bool parsed = true;
    for (int i = 0; i < 3 && parsed; ++i) {
      while (p < end && *p == ' ') ++p;
      auto [next, ec] = std::from_chars(p, end, v[i]);
      parsed = ec == std::errc();
      p = next;
    }
    if (parsed) {
      kernel.regs_per_thread = int(v[0]);
      kernel.static_smem = size_t(v[1]);
      kernel.max_threads_per_block = int(v[2]);
    } else {
      uint32_t w[4];
      raw_words(r, w, 4);
      kernel.regs_per_thread = int(w[0]);
      kernel.static_smem = (size_t(w[1]) << 32) | w[2];
      kernel.max_threads_per_block = int(w[3]);
    }
  }

  for (const coop::DeviceProps& device : coop::device_presets()) {
    const coop::Status s = coop::validate_launch(config, device, kernel);
    if (s.ok())
      check_accepted(config, device, kernel);
    else if (s.message().empty())
      fail("validate_launch", "an error without a message");
  }

  std::vector<std::string> items;
  for (size_t i = 6; i < lines.size(); ++i) items.emplace_back(lines[i]);
  check_param_items(items);
  return 0;
}
