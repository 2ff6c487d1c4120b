// [SECTION] Trace files: JSON mapping of headers and events, CBOR framing, validation, atomic save.
#include "device/trace/trace_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "device/trace/event_codec.hpp"
#include "device/trace/names.hpp"

namespace coop {
namespace {

using json = nlohmann::json;

// [SECTION] JSON mapping

json dim_json(const Dim3& d) { return json::array({d.x, d.y, d.z}); }

Result<Dim3> dim_from(const json& j, const char* what) {
  if (!j.is_array() || j.size() != 3)
    return Status::error(std::string(what) + " must be an array of 3 integers");
  Dim3 d;
  uint32_t* parts[3] = {&d.x, &d.y, &d.z};
  for (int i = 0; i < 3; ++i) {
    if (!j[i].is_number_unsigned() || j[i].get<uint64_t>() == 0 ||
        j[i].get<uint64_t>() > 0x7fffffffu)
      return Status::error(std::string(what) + " entries must be integers from 1 to 2^31-1");
    *parts[i] = j[i].get<uint32_t>();
  }
  return d;
}

json device_json(const DeviceProps& d) {
  return {{"name", d.name}, {"source", d.source}, {"cc", d.cc_string()},
          {"sm_count", d.sm_count}, {"warp_size", d.warp_size},
          {"max_threads_per_block", d.max_threads_per_block},
          {"max_threads_per_sm", d.max_threads_per_sm}, {"max_blocks_per_sm", d.max_blocks_per_sm},
          {"regs_per_sm", d.regs_per_sm}, {"regs_per_block", d.regs_per_block},
          {"smem_per_sm", d.smem_per_sm}, {"smem_per_block", d.smem_per_block},
          {"smem_per_block_optin", d.smem_per_block_optin},
          {"reserved_smem_per_block", d.reserved_smem_per_block},
          {"cooperative_launch", d.cooperative_launch}, {"cluster_launch", d.cluster_launch},
          {"clock_mhz", d.clock_mhz}};
}

DeviceProps device_from(const json& j) {
  DeviceProps d;
  d.name = j.value("name", "");
  d.source = j.value("source", "");
  const std::string cc = j.value("cc", "0.0");
  const size_t dot = cc.find('.');
  d.cc_major = std::atoi(cc.substr(0, dot).c_str());
  d.cc_minor = dot == std::string::npos ? 0 : std::atoi(cc.substr(dot + 1).c_str());
  d.sm_count = j.value("sm_count", 0);
  d.warp_size = j.value("warp_size", 32);
  d.max_threads_per_block = j.value("max_threads_per_block", 1024);
  d.max_threads_per_sm = j.value("max_threads_per_sm", 2048);
  d.max_blocks_per_sm = j.value("max_blocks_per_sm", 32);
  d.regs_per_sm = j.value("regs_per_sm", 65536);
  d.regs_per_block = j.value("regs_per_block", 65536);
  d.smem_per_sm = j.value("smem_per_sm", size_t(0));
  d.smem_per_block = j.value("smem_per_block", size_t(0));
  d.smem_per_block_optin = j.value("smem_per_block_optin", size_t(0));
  d.reserved_smem_per_block = j.value("reserved_smem_per_block", size_t(0));
  d.cooperative_launch = j.value("cooperative_launch", false);
  d.cluster_launch = j.value("cluster_launch", false);
  d.clock_mhz = j.value("clock_mhz", 0);
  return d;
}

json header_json(const TraceHeader& h) {
  json buffers = json::array();
  for (const BufferInfo& b : h.buffers)
    buffers.push_back({{"name", b.name}, {"base", b.base}, {"bytes", b.bytes},
                       {"type", name_of(b.type)}, {"element_size", b.element_size},
                       {"shared", b.shared}});
  return {{"lesson", h.lesson}, {"kernel", h.kernel}, {"backend", to_string(h.backend)},
          {"device", device_json(h.device)},
          {"launch", {{"grid", dim_json(h.launch.grid)}, {"block", dim_json(h.launch.block)},
                      {"cluster", dim_json(h.launch.cluster)},
                      {"dynamic_smem", h.launch.dynamic_smem},
                      {"mode", to_string(h.launch.mode)}}},
          {"seed", h.seed}, {"params", h.params}, {"recorded_at", h.recorded_at},
          {"coopviz_version", h.coopviz_version}, {"capacity", h.capacity},
          {"attempts", h.attempts}, {"kernel_ms", h.kernel_ms}, {"buffers", buffers},
          {"source_file", h.source_file}, {"source", h.source}, {"schedule", h.schedule}};
}

Status header_from(const json& j, TraceHeader& h) {
  if (!j.is_object()) return Status::error("launch header is not an object");
  try {
    h.lesson = j.value("lesson", "");
    h.kernel = j.value("kernel", "");
    const std::string backend = j.value("backend", "emu");
    if (backend != "gpu" && backend != "emu")
      return Status::error("unknown backend '" + backend + "'");
    h.backend = backend == "gpu" ? Backend::Gpu : Backend::Emu;
    h.device = device_from(j.at("device"));
    const json& l = j.at("launch");
    auto grid = dim_from(l.at("grid"), "launch.grid");
    if (!grid) return grid.status();
    auto block = dim_from(l.at("block"), "launch.block");
    if (!block) return block.status();
    auto cluster = dim_from(l.value("cluster", json::array({1, 1, 1})), "launch.cluster");
    if (!cluster) return cluster.status();
    h.launch.grid = *grid;
    h.launch.block = *block;
    h.launch.cluster = *cluster;
    h.launch.dynamic_smem = l.value("dynamic_smem", 0u);
    const std::string mode = l.value("mode", "normal");
    h.launch.mode = mode == "cooperative" ? LaunchMode::Cooperative
                    : mode == "cluster"   ? LaunchMode::Cluster
                                          : LaunchMode::Normal;
    if (h.launch.block.count() > 1024)
      return Status::error("launch.block has " + std::to_string(h.launch.block.count()) +
                           " threads; a block holds at most 1024");
    if (h.launch.total_threads() > kMaxTracedThreads)
      return Status::error("launch has " + std::to_string(h.launch.total_threads()) +
                           " threads; a trace holds at most " + std::to_string(kMaxTracedThreads));
    h.seed = j.value("seed", uint64_t(0));
    h.params = j.value("params", std::map<std::string, std::string>{});
    h.recorded_at = j.value("recorded_at", "");
    h.coopviz_version = j.value("coopviz_version", "");
    h.capacity = j.value("capacity", uint64_t(0));
    h.attempts = j.value("attempts", uint64_t(0));
    h.kernel_ms = j.value("kernel_ms", 0.0);
    h.source_file = j.value("source_file", "");
    h.source = j.value("source", "");
    h.schedule = j.value("schedule", "");
    h.buffers.clear();
    for (const json& b : j.value("buffers", json::array())) {
      BufferInfo info;
      info.name = b.value("name", "");
      info.base = b.value("base", uint64_t(0));
      info.bytes = b.value("bytes", uint64_t(0));
      info.type = value_type_named(b.value("type", "none")).value_or(ValueType::None);
      info.element_size = b.value("element_size", 0u);
      info.shared = b.value("shared", false);
      h.buffers.push_back(info);
    }
  } catch (const json::exception& e) {
    return Status::error(std::string("launch header: ") + e.what());
  }
  return {};
}

json event_json(const Event& e) {
  return {{"seq", e.sequence},     {"time", e.time},
          {"thread", e.thread},    {"kind", name_of(e.kind)},
          {"op", name_of(e.op)},   {"group", name_of(e.group_kind)},
          {"group_id", e.group_id}, {"rank", e.rank},
          {"group_size", e.group_size}, {"extra", e.extra},
          {"line", e.line},        {"a", e.a},
          {"b", e.b},              {"address", e.address},
          {"type", name_of(e.value_type)}, {"flags", e.flags}};
}

Result<Event> event_from(const json& j) {
  if (!j.is_object()) return Status::error("event is not an object");
  Event e{};
  try {
    auto kind = event_kind_named(j.at("kind").get<std::string>());
    auto group = group_kind_named(j.value("group", "none"));
    auto op = op_named(j.value("op", "none"));
    auto type = value_type_named(j.value("type", "none"));
    if (!kind) return Status::error("unknown event kind '" + j.at("kind").get<std::string>() + "'");
    if (!group || !op || !type) return Status::error("unknown group, op or value type name");
    e.kind = *kind;
    e.group_kind = *group;
    e.op = *op;
    e.value_type = *type;
    e.sequence = j.at("seq").get<uint32_t>();
    e.time = j.value("time", uint64_t(0));
    e.thread = j.at("thread").get<uint32_t>();
    e.group_id = j.value("group_id", 0u);
    e.rank = j.value("rank", 0u);
    e.group_size = j.value("group_size", 0u);
    e.extra = j.value("extra", 0u);
    e.line = j.value("line", uint16_t(0));
    e.a = j.value("a", uint64_t(0));
    e.b = j.value("b", uint64_t(0));
    e.address = j.value("address", uint64_t(0));
    e.flags = j.value("flags", uint16_t(0));
  } catch (const json::exception& ex) {
    return Status::error(std::string("event: ") + ex.what());
  }
  return e;
}

// [SECTION] Validation shared by both encodings

Status validate_events(const Trace& t, size_t launch) {
  const uint64_t threads = t.header.launch.total_threads();
  const std::string where = "launch " + std::to_string(launch) + ": ";
  if (t.events.size() > t.header.attempts && t.header.attempts != 0)
    return Status::error(where + "holds " + std::to_string(t.events.size()) +
                         " events but says only " + std::to_string(t.header.attempts) +
                         " were recorded");
  uint32_t previous = 0;
  for (size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    const std::string at = where + "event " + std::to_string(i) + ": ";
    if (uint8_t(e.kind) == 0 || e.kind >= EventKind::Count)
      return Status::error(at + "invalid kind " + std::to_string(int(e.kind)));
    if (e.group_kind >= GroupKind::Count)
      return Status::error(at + "invalid group kind " + std::to_string(int(e.group_kind)));
    if (uint8_t(e.value_type) > uint8_t(ValueType::Mask))
      return Status::error(at + "invalid value type " + std::to_string(int(e.value_type)));
    if (!is_known_op(uint8_t(e.op)))
      return Status::error(at + "invalid op " + std::to_string(int(e.op)));
    if (e.thread >= threads)
      return Status::error(at + "thread " + std::to_string(e.thread) + " is outside the launch's " +
                           std::to_string(threads) + " threads");
    if (i > 0 && e.sequence <= previous)
      return Status::error(at + "sequence numbers must increase");
    previous = e.sequence;
  }
  return {};
}

// [SECTION] CBOR framing

constexpr unsigned char kSelfDescribe[] = {0xD9, 0xD9, 0xF7};  // tag 55799: "this is CBOR"
constexpr unsigned char kEmbeddedCbor[] = {0xD8, 0x18};        // tag 24: encoded CBOR item

void put_bytes_header(std::string& out, uint64_t length) {
  out.push_back(char(0x5B));  // byte string, 8-byte length
  for (int i = 7; i >= 0; --i) out.push_back(char((length >> (8 * i)) & 0xff));
}

// Reads a byte-string header at `pos`; returns the payload length and advances `pos`.
Result<uint64_t> get_bytes_header(const std::string& in, size_t& pos, const char* what) {
  if (pos >= in.size()) return Status::error(std::string("file ends before ") + what);
  const unsigned char first = static_cast<unsigned char>(in[pos++]);
  if ((first >> 5) != 2) return Status::error(std::string(what) + " is not a CBOR byte string");
  const unsigned info = first & 0x1f;
  uint64_t len = 0;
  int extra = 0;
  if (info < 24) len = info;
  else if (info == 24) extra = 1;
  else if (info == 25) extra = 2;
  else if (info == 26) extra = 4;
  else if (info == 27) extra = 8;
  else return Status::error(std::string(what) + " has an unsupported length encoding");
  if (pos + extra > in.size()) return Status::error(std::string("file ends inside ") + what);
  for (int i = 0; i < extra; ++i) len = (len << 8) | static_cast<unsigned char>(in[pos++]);
  if (len > in.size() - pos)
    return Status::error(std::string(what) + " says " + std::to_string(len) +
                         " bytes but the file has only " + std::to_string(in.size() - pos) +
                         " left (truncated?)");
  return len;
}

Result<std::vector<Trace>> from_document(const json& doc) {
  if (!doc.is_object() || doc.value("format", "") != kTraceFormatName)
    return Status::error("not a coopviz trace (no \"format\": \"coopviz-trace\")");
  const int version = doc.value("version", 0);
  if (version < 1 || version > kTraceFormatVersion)
    return Status::error("trace format version " + std::to_string(version) +
                         " is not supported: this coopviz reads versions 1 to " +
                         std::to_string(kTraceFormatVersion));
  if (!doc.contains("launches") || !doc["launches"].is_array())
    return Status::error("trace has no \"launches\" array");
  std::vector<Trace> out;
  for (const json& l : doc["launches"]) {
    Trace t;
    if (Status s = header_from(l.value("header", json()), t.header); !s) return s;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

TraceEncoding encoding_for(const std::string& path) {
  const std::string ext = ".json";
  return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0
             ? TraceEncoding::Json
             : TraceEncoding::Cbor;
}

std::string encode_traces(const std::vector<Trace>& launches, TraceEncoding encoding) {
  json doc = {{"format", kTraceFormatName}, {"version", kTraceFormatVersion}};
  json list = json::array();
  for (const Trace& t : launches) {
    json l = {{"header", header_json(t.header)}, {"event_count", t.events.size()}};
    if (encoding == TraceEncoding::Cbor) l["event_encoding"] = kPackedEventEncoding;
    if (encoding == TraceEncoding::Json) {
      json events = json::array();
      for (const Event& e : t.events) events.push_back(event_json(e));
      l["events"] = std::move(events);
    }
    list.push_back(std::move(l));
  }
  doc["launches"] = std::move(list);
  if (encoding == TraceEncoding::Json) return doc.dump(1) + "\n";
  const std::vector<uint8_t> head = json::to_cbor(doc);
  std::string out(reinterpret_cast<const char*>(kSelfDescribe), sizeof kSelfDescribe);
  out.append(reinterpret_cast<const char*>(kEmbeddedCbor), sizeof kEmbeddedCbor);
  put_bytes_header(out, head.size());
  out.append(reinterpret_cast<const char*>(head.data()), head.size());
  for (const Trace& t : launches) {
    const std::string packed = pack_events(t.events);
    put_bytes_header(out, packed.size());
    out.append(packed);
  }
  return out;
}

namespace {
Result<std::vector<Trace>> decode_unchecked(const std::string& bytes);
}  // namespace

Result<std::vector<Trace>> decode_traces(const std::string& bytes) {
  try {
    return decode_unchecked(bytes);
  } catch (const std::exception& e) {  // a field of the wrong type deep inside the document
    return Status::error(std::string("malformed trace: ") + e.what());
  }
}

namespace {
Result<std::vector<Trace>> decode_unchecked(const std::string& bytes) {
  const size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return Status::error("the trace file is empty");
  if (bytes[first] == '{') {
    json doc = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return Status::error("the trace file is not valid JSON");
    auto traces = from_document(doc);
    if (!traces) return traces;
    const json& list = doc["launches"];
    for (size_t i = 0; i < traces->size(); ++i) {
      const json& events = list[i].value("events", json::array());
      if (!events.is_array()) return Status::error("launch " + std::to_string(i) + ": events is not an array");
      Trace& t = (*traces)[i];
      t.events.reserve(events.size());
      for (const json& e : events) {
        auto ev = event_from(e);
        if (!ev) return Status::error("launch " + std::to_string(i) + ": " + ev.message());
        t.events.push_back(*ev);
      }
      if (Status s = validate_events(t, i); !s) return s;
    }
    return traces;
  }
  if (bytes.size() < 5 || std::memcmp(bytes.data(), kSelfDescribe, 3) != 0 ||
      std::memcmp(bytes.data() + 3, kEmbeddedCbor, 2) != 0)
    return Status::error("not a coopviz trace: neither JSON nor coopviz CBOR");
  size_t pos = 5;
  auto head_len = get_bytes_header(bytes, pos, "the trace header");
  if (!head_len) return head_len.status();
  json doc = json::from_cbor(bytes.begin() + long(pos), bytes.begin() + long(pos + *head_len),
                             /*strict=*/true, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::error("the trace header is not valid CBOR");
  pos += *head_len;
  auto traces = from_document(doc);
  if (!traces) return traces;
  for (size_t i = 0; i < traces->size(); ++i) {
    auto len = get_bytes_header(bytes, pos, "an event block");
    if (!len) return Status::error("launch " + std::to_string(i) + ": " + len.message());
    const json& entry = doc["launches"][i];
    const uint64_t count = entry.value("event_count", uint64_t(0));
    const std::string encoding = entry.value("event_encoding", "raw64");
    const std::string where = "launch " + std::to_string(i) + ": ";
    // Untrusted counts: refuse what this machine could not hold before allocating anything.
    const double need = double(count) * sizeof(Event);
    const double ram = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
    if (need > ram / 2)
      return Status::error(where + std::to_string(count) + " events would take " +
                           std::to_string(uint64_t(need / (1 << 20))) +
                           " MiB, more than half of this machine's memory");
    Trace& t = (*traces)[i];
    if (encoding == kPackedEventEncoding) {
      if (Status s = unpack_events(std::string_view(bytes).substr(pos, *len), count, t.events); !s)
        return Status::error(where + s.message());
    } else if (encoding == "raw64") {
      if (*len % sizeof(Event) != 0)
        return Status::error(where + "event block of " + std::to_string(*len) +
                             " bytes is not a whole number of 64-byte events");
      if (count != *len / sizeof(Event))
        return Status::error(where + "header promises " + std::to_string(count) +
                             " events, the file holds " + std::to_string(*len / sizeof(Event)));
      t.events.resize(count);
      std::memcpy(t.events.data(), bytes.data() + pos, *len);
    } else {
      return Status::error(where + "unknown event encoding '" + encoding + "'");
    }
    pos += *len;
    if (Status s = validate_events(t, i); !s) return s;
  }
  if (pos != bytes.size())
    return Status::error(std::to_string(bytes.size() - pos) + " unexpected bytes after the last launch");
  return traces;
}
}  // namespace

Status write_file_atomically(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::error("cannot write " + tmp + ": " + std::strerror(errno));
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return Status::error("writing " + path + " failed (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    return Status::error("cannot replace " + path + ": " + why);
  }
  return {};
}

Status save_traces(const std::string& path, const std::vector<Trace>& launches) {
  return write_file_atomically(path, encode_traces(launches, encoding_for(path)));
}

Result<std::vector<Trace>> load_traces(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("cannot open " + path + ": " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) return Status::error("cannot read " + path);
  std::string bytes(size_t(size), '\0');
  in.read(bytes.data(), size);
  if (!in) return Status::error("reading " + path + " failed");
  auto traces = decode_traces(bytes);
  if (!traces) return Status::error(path + ": " + traces.message());
  return traces;
}

}  // namespace coop
