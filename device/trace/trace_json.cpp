// [SECTION] The JSON form of trace headers and events, read strictly.
//
// Index
//   [SECTION] Parsing with a nesting limit
//   [SECTION] Checked fields
//   [SECTION] Headers
//   [SECTION] Events
#include "device/trace/trace_json.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "device/trace/names.hpp"

namespace coop::trace_json {
namespace {

// [SECTION] Parsing with a nesting limit

// nlohmann's DOM builder, refusing to open a container deeper than kMaxNesting. sax_parse takes
// any type with these members, so this wraps the library's own builder instead of re-writing it.
class NestingLimitedBuilder {
 public:
  using Dom = nlohmann::detail::json_sax_dom_parser<json>;
  explicit NestingLimitedBuilder(json& out) : dom_(out, /*allow_exceptions=*/false) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return dom_.number_float(v, s);
  }
  bool string(json::string_t& v) { return dom_.string(v); }
  bool binary(json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return enter() && dom_.start_object(n); }
  bool key(json::string_t& v) { return dom_.key(v); }
  bool end_object() { return leave() && dom_.end_object(); }
  bool start_array(std::size_t n) { return enter() && dom_.start_array(n); }
  bool end_array() { return leave() && dom_.end_array(); }
  bool parse_error(std::size_t at, const std::string& token, const nlohmann::detail::exception& e) {
    error_ = e.what();
    return dom_.parse_error(at, token, e);
  }
  bool too_deep() const { return too_deep_; }
  // The parser's own words ("... unexpected end of input ..." for a truncated file), or "".
  const std::string& error() const { return error_; }

 private:
  bool enter() {
    too_deep_ = ++depth_ > kMaxNesting;
    return !too_deep_;
  }
  bool leave() {
    --depth_;
    return true;
  }
  Dom dom_;
  int depth_ = 0;
  bool too_deep_ = false;
  std::string error_;
};

template <class Parse>
Result<json> parse_limited(const char* what, const char* format, Parse&& parse) {
  json out;
  NestingLimitedBuilder builder(out);
  if (!parse(builder)) {
    if (builder.too_deep())
      return Status::error(std::string(what) + " nests deeper than " + std::to_string(kMaxNesting) +
                           " levels; a coopviz trace nests about 5");
    return Status::error(std::string(what) + " is not valid " + format +
                         (builder.error().empty() ? "" : " (" + builder.error() + ")"));
  }
  return out;
}

// [SECTION] Checked fields

// A field that is present but wrong. Thrown only inside this file and turned into a Status by
// header_from / event_from, so the many fields read as plainly as the fields they fill.
struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
T integer(const json& j, const char* key, T fallback, T lo = std::numeric_limits<T>::min(),
          T hi = std::numeric_limits<T>::max()) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (it->is_number_unsigned()) {
    const uint64_t v = it->get<uint64_t>();
    if (std::cmp_greater_equal(v, lo) && std::cmp_less_equal(v, hi)) return T(v);
  } else if (it->is_number_integer()) {
    const int64_t v = it->get<int64_t>();
    if (std::cmp_greater_equal(v, lo) && std::cmp_less_equal(v, hi)) return T(v);
  }
  throw BadField(std::string(key) + " must be an integer from " + std::to_string(lo) + " to " +
                 std::to_string(hi));
}

std::string text(const json& j, const char* key, const char* fallback = "") {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_string()) throw BadField(std::string(key) + " must be a string");
  return it->get<std::string>();
}

bool boolean(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return false;
  if (!it->is_boolean()) throw BadField(std::string(key) + " must be true or false");
  return it->get<bool>();
}

const json& object(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_object()) throw BadField(std::string(key) + " must be an object");
  return *it;
}

Dim3 dim(const json& j, const char* key, const char* what, bool required) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw BadField(std::string(what) + " is missing");
    return Dim3{};
  }
  if (!it->is_array() || it->size() != 3)
    throw BadField(std::string(what) + " must be an array of 3 integers");
  Dim3 d;
  uint32_t* parts[3] = {&d.x, &d.y, &d.z};
  for (int i = 0; i < 3; ++i) {
    const json& v = (*it)[size_t(i)];
    if (!v.is_number_unsigned() || v.get<uint64_t>() == 0 || v.get<uint64_t>() > 0x7fffffffu)
      throw BadField(std::string(what) + " entries must be integers from 1 to 2^31-1");
    *parts[i] = v.get<uint32_t>();
  }
  return d;
}

// [SECTION] Headers

json dim_json(const Dim3& d) {
  return json::array({d.x, d.y, d.z});
}

json device_json(const DeviceProps& d) {
  return {{"name", d.name},
          {"source", d.source},
          {"cc", d.cc_string()},
          {"sm_count", d.sm_count},
          {"warp_size", d.warp_size},
          {"max_threads_per_block", d.max_threads_per_block},
          {"max_threads_per_sm", d.max_threads_per_sm},
          {"max_blocks_per_sm", d.max_blocks_per_sm},
          {"regs_per_sm", d.regs_per_sm},
          {"regs_per_block", d.regs_per_block},
          {"smem_per_sm", d.smem_per_sm},
          {"smem_per_block", d.smem_per_block},
          {"smem_per_block_optin", d.smem_per_block_optin},
          {"reserved_smem_per_block", d.reserved_smem_per_block},
          {"cooperative_launch", d.cooperative_launch},
          {"cluster_launch", d.cluster_launch},
          {"clock_mhz", d.clock_mhz}};
}

// "9.0" -> 9, 0. Both parts 0..99.
void parse_cc(const std::string& cc, DeviceProps& d) {
  const size_t dot = cc.find('.');
  const char* end = cc.data() + cc.size();
  const char* mid = dot == std::string::npos ? end : cc.data() + dot;
  auto major = std::from_chars(cc.data(), mid, d.cc_major);
  auto minor = dot == std::string::npos ? std::from_chars_result{end, std::errc()}
                                        : std::from_chars(mid + 1, end, d.cc_minor);
  if (dot == std::string::npos) d.cc_minor = 0;
  if (major.ec != std::errc() || major.ptr != mid || minor.ec != std::errc() || minor.ptr != end ||
      d.cc_major < 0 || d.cc_major > 99 || d.cc_minor < 0 || d.cc_minor > 99)
    throw BadField("device.cc '" + cc + "' is not a compute capability such as \"9.0\"");
}

// Bounds that hold for every CUDA device so far, with room for a few generations. The occupancy
// views loop over ranges these values set, so an absurd file could otherwise stall the app.
DeviceProps device_from(const json& j) {
  constexpr int kMostRegs = 1 << 20;
  constexpr size_t kMostSmem = size_t(16) << 20;
  DeviceProps d;
  d.name = text(j, "name");
  d.source = text(j, "source");
  parse_cc(text(j, "cc", "0.0"), d);
  d.sm_count = integer(j, "sm_count", 0, 0, int(kMaxTracedSms));
  d.warp_size = integer(j, "warp_size", 32, 32, 32);
  d.max_threads_per_block = integer(j, "max_threads_per_block", 1024, 1, 1024);
  d.max_threads_per_sm = integer(j, "max_threads_per_sm", 2048, 0, 4096);
  d.max_blocks_per_sm = integer(j, "max_blocks_per_sm", 32, 0, 256);
  d.regs_per_sm = integer(j, "regs_per_sm", 65536, 0, kMostRegs);
  d.regs_per_block = integer(j, "regs_per_block", 65536, 0, kMostRegs);
  d.smem_per_sm = integer(j, "smem_per_sm", size_t(0), size_t(0), kMostSmem);
  d.smem_per_block = integer(j, "smem_per_block", size_t(0), size_t(0), kMostSmem);
  d.smem_per_block_optin = integer(j, "smem_per_block_optin", size_t(0), size_t(0), kMostSmem);
  d.reserved_smem_per_block =
      integer(j, "reserved_smem_per_block", size_t(0), size_t(0), kMostSmem);
  d.cooperative_launch = boolean(j, "cooperative_launch");
  d.cluster_launch = boolean(j, "cluster_launch");
  d.clock_mhz = integer(j, "clock_mhz", 0, 0, 100000);
  return d;
}

LaunchMode mode_named(const std::string& mode) {
  for (LaunchMode m : {LaunchMode::Normal, LaunchMode::Cooperative, LaunchMode::Cluster})
    if (mode == to_string(m)) return m;
  throw BadField("launch.mode '" + mode + "' is not normal, cooperative or cluster");
}

void read_header(const json& j, TraceHeader& h) {
  h.lesson = text(j, "lesson");
  h.kernel = text(j, "kernel");
  const std::string backend = text(j, "backend", "emu");
  if (backend != "gpu" && backend != "emu") throw BadField("unknown backend '" + backend + "'");
  h.backend = backend == "gpu" ? Backend::Gpu : Backend::Emu;
  h.device = device_from(object(j, "device"));
  const json& l = object(j, "launch");
  h.launch.grid = dim(l, "grid", "launch.grid", true);
  h.launch.block = dim(l, "block", "launch.block", true);
  h.launch.cluster = dim(l, "cluster", "launch.cluster", false);
  h.launch.dynamic_smem = integer(l, "dynamic_smem", 0u);
  h.launch.mode = mode_named(text(l, "mode", "normal"));
  if (h.launch.block.count() > 1024)
    throw BadField("launch.block has " + std::to_string(h.launch.block.count()) +
                   " threads; a block holds at most 1024");
  // Compared without forming the product, which three 31-bit dimensions overflow.
  if (count_exceeds(h.launch.grid, h.launch.block.count(), kMaxTracedThreads))
    throw BadField("launch of " + h.launch.grid.str() + " blocks of " + h.launch.block.str() +
                   " threads is more than the " + std::to_string(kMaxTracedThreads) +
                   " threads a trace holds");
  h.seed = integer(j, "seed", uint64_t(0));
  h.params.clear();
  if (const auto it = j.find("params"); it != j.end()) {
    if (!it->is_object()) throw BadField("params must be an object of strings");
    for (const auto& [name, value] : it->items()) {
      if (!value.is_string()) throw BadField("params." + name + " must be a string");
      h.params[name] = value.get<std::string>();
    }
  }
  h.recorded_at = text(j, "recorded_at");
  h.coopviz_version = text(j, "coopviz_version");
  h.capacity = integer(j, "capacity", uint64_t(0));
  h.attempts = integer(j, "attempts", uint64_t(0));
  h.untraced = integer(j, "untraced", uint64_t(0));
  h.kernel_ms = 0;
  if (const auto it = j.find("kernel_ms"); it != j.end()) {
    if (!it->is_number() || !std::isfinite(it->get<double>()))
      throw BadField("kernel_ms must be a finite number");
    h.kernel_ms = it->get<double>();
  }
  h.clock = text(j, "clock");
  h.clock_resolution_ns = integer(j, "clock_resolution_ns", 0u, 0u, 1000000000u);
  h.source_file = text(j, "source_file");
  h.source = text(j, "source");
  h.schedule = text(j, "schedule");
  h.buffers.clear();
  if (const auto it = j.find("buffers"); it != j.end()) {
    if (!it->is_array()) throw BadField("buffers must be an array");
    for (const json& b : *it) {
      if (!b.is_object()) throw BadField("each buffer must be an object");
      BufferInfo info;
      info.name = text(b, "name");
      info.base = integer(b, "base", uint64_t(0));
      info.bytes = integer(b, "bytes", uint64_t(0));
      info.type = value_type_named(text(b, "type", "none")).value_or(ValueType::None);
      info.element_size = integer(b, "element_size", 0u);
      info.shared = boolean(b, "shared");
      h.buffers.push_back(info);
    }
  }
}

}  // namespace

Result<json> parse_json(const std::string& text) {
  return parse_limited("the trace file", "JSON", [&](NestingLimitedBuilder& b) {
    return json::sax_parse(text, &b, json::input_format_t::json, /*strict=*/true);
  });
}

Result<json> parse_cbor(const std::string& bytes, size_t begin, size_t end) {
  return parse_limited("the trace header", "CBOR", [&](NestingLimitedBuilder& b) {
    return json::sax_parse(bytes.begin() + long(begin), bytes.begin() + long(end), &b,
                           json::input_format_t::cbor, /*strict=*/true);
  });
}

json header_json(const TraceHeader& h) {
  json buffers = json::array();
  for (const BufferInfo& b : h.buffers)
    buffers.push_back({{"name", b.name},
                       {"base", b.base},
                       {"bytes", b.bytes},
                       {"type", name_of(b.type)},
                       {"element_size", b.element_size},
                       {"shared", b.shared}});
  return {{"lesson", h.lesson},
          {"kernel", h.kernel},
          {"backend", to_string(h.backend)},
          {"device", device_json(h.device)},
          {"launch",
           {{"grid", dim_json(h.launch.grid)},
            {"block", dim_json(h.launch.block)},
            {"cluster", dim_json(h.launch.cluster)},
            {"dynamic_smem", h.launch.dynamic_smem},
            {"mode", to_string(h.launch.mode)}}},
          {"seed", h.seed},
          {"params", h.params},
          {"recorded_at", h.recorded_at},
          {"coopviz_version", h.coopviz_version},
          {"capacity", h.capacity},
          {"attempts", h.attempts},
          {"untraced", h.untraced},
          {"kernel_ms", h.kernel_ms},
          {"clock", h.clock},
          {"clock_resolution_ns", h.clock_resolution_ns},
          {"buffers", buffers},
          {"source_file", h.source_file},
          {"source", h.source},
          {"schedule", h.schedule}};
}

Status header_from(const json& j, TraceHeader& h) {
  if (!j.is_object()) return Status::error("launch header is not an object");
  try {
    read_header(j, h);
  } catch (const BadField& e) {
    return Status::error(std::string("launch header: ") + e.what());
  }
  return {};
}

// [SECTION] Events

json event_json(const Event& e) {
  return {{"seq", e.sequence},
          {"time", e.time},
          {"thread", e.thread},
          {"kind", name_of(e.kind)},
          {"op", name_of(e.op)},
          {"group", name_of(e.group_kind)},
          {"group_id", e.group_id},
          {"rank", e.rank},
          {"group_size", e.group_size},
          {"extra", e.extra},
          {"line", e.line},
          {"a", e.a},
          {"b", e.b},
          {"address", e.address},
          {"type", name_of(e.value_type)},
          {"flags", e.flags}};
}

Result<Event> event_from(const json& j) {
  if (!j.is_object()) return Status::error("event is not an object");
  Event e{};
  try {
    if (!j.contains("kind")) throw BadField("kind is missing");
    const std::string kind_name = text(j, "kind");
    const auto kind = event_kind_named(kind_name);
    if (!kind) throw BadField("unknown event kind '" + kind_name + "'");
    const auto group = group_kind_named(text(j, "group", "none"));
    const auto op = op_named(text(j, "op", "none"));
    const auto type = value_type_named(text(j, "type", "none"));
    if (!group || !op || !type) throw BadField("unknown group, op or value type name");
    e.kind = *kind;
    e.group_kind = *group;
    e.op = *op;
    e.value_type = *type;
    if (!j.contains("seq") || !j.contains("thread")) throw BadField("seq and thread are required");
    e.sequence = integer(j, "seq", 0u);
    e.time = integer(j, "time", uint64_t(0));
    e.thread = integer(j, "thread", 0u);
    e.group_id = integer(j, "group_id", 0u);
    e.rank = integer(j, "rank", 0u);
    e.group_size = integer(j, "group_size", 0u);
    e.extra = integer(j, "extra", 0u);
    e.line = integer(j, "line", uint16_t(0));
    e.a = integer(j, "a", uint64_t(0));
    e.b = integer(j, "b", uint64_t(0));
    e.address = integer(j, "address", uint64_t(0));
    e.flags = integer(j, "flags", uint16_t(0));
  } catch (const BadField& ex) {
    return Status::error(std::string("event: ") + ex.what());
  }
  return e;
}

Result<uint64_t> unsigned_field(const json& j, const char* key, uint64_t fallback, uint64_t max) {
  try {
    return integer(j, key, fallback, uint64_t(0), max);
  } catch (const BadField& e) {
    return Status::error(e.what());
  }
}

Result<std::string> string_field(const json& j, const char* key, const char* fallback) {
  try {
    return text(j, key, fallback);
  } catch (const BadField& e) {
    return Status::error(e.what());
  }
}

}  // namespace coop::trace_json
