// [SECTION] Trace files: validation, CBOR framing, atomic save. The JSON form of headers and
// events is in trace_json.cpp.
#include "device/trace/trace_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "device/trace/event_codec.hpp"
#include "device/trace/names.hpp"
#include "device/trace/trace_json.hpp"
#include "device/trace/user_file.hpp"

namespace coop {
namespace {

using trace_json::event_from;
using trace_json::event_json;
using trace_json::header_from;
using trace_json::header_json;
using trace_json::json;

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
    // Built only for a message: making it for every one of millions of valid events was a
    // tenth of the load time.
    const auto at = [&] { return where + "event " + std::to_string(i) + ": "; };
    if (uint8_t(e.kind) == 0 || e.kind >= EventKind::Count)
      return Status::error(at() + "invalid kind " + std::to_string(int(e.kind)));
    if (e.group_kind >= GroupKind::Count)
      return Status::error(at() + "invalid group kind " + std::to_string(int(e.group_kind)));
    if (uint8_t(e.value_type) > uint8_t(ValueType::Mask))
      return Status::error(at() + "invalid value type " + std::to_string(int(e.value_type)));
    if (!is_known_op(uint8_t(e.op)))
      return Status::error(at() + "invalid op " + std::to_string(int(e.op)));
    if ((e.kind == EventKind::ThreadBegin || e.kind == EventKind::ThreadEnd) &&
        e.extra >= kMaxTracedSms)
      return Status::error(at() + "SM id " + std::to_string(e.extra) + " is not below the " +
                           std::to_string(kMaxTracedSms) + " SMs a trace may name");
    if (e.thread >= threads)
      return Status::error(at() + "thread " + std::to_string(e.thread) + " is outside the launch's " +
                           std::to_string(threads) + " threads");
    if (i > 0 && e.sequence <= previous)
      return Status::error(at() + "sequence numbers must increase");
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
  const auto format = doc.is_object() ? doc.find("format") : doc.end();
  if (!doc.is_object() || format == doc.end() || *format != kTraceFormatName)
    return Status::error("not a coopviz trace (no \"format\": \"coopviz-trace\")");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || *version < 1 ||
      *version > kTraceFormatVersion)
    return Status::error("trace format version " +
                         (version == doc.end() ? std::string("(none)")
                          : version->is_number_integer()
                              ? version->dump()
                              : std::string("of type ") + version->type_name()) +
                         " is not supported: this coopviz reads versions 1 to " +
                         std::to_string(kTraceFormatVersion));
  const auto launches = doc.find("launches");
  if (launches == doc.end() || !launches->is_array())
    return Status::error("trace has no \"launches\" array");
  std::vector<Trace> out;
  for (const json& l : *launches) {
    const std::string where = "launch " + std::to_string(out.size()) + ": ";
    if (!l.is_object() || !l.contains("header"))
      return Status::error(where + "not an object with a \"header\"");
    Trace t;
    if (Status s = header_from(l["header"], t.header); !s)
      return Status::error(where + s.message());
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

uint64_t event_bytes_limit() {
  static const uint64_t limit =
      uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGE_SIZE)) / 2;
  return limit;
}

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
  // JSON text must be UTF-8; a string that is not (a kernel name or parameter from a CBOR file
  // written elsewhere) is saved with U+FFFD in place of the bad bytes rather than failing.
  if (encoding == TraceEncoding::Json)
    return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
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

Result<std::vector<Trace>> decode_json(const std::string& bytes) {
  auto doc = trace_json::parse_json(bytes);
  if (!doc) return doc.status();
  auto traces = from_document(*doc);
  if (!traces) return traces;
  const json& list = (*doc)["launches"];
  for (size_t i = 0; i < traces->size(); ++i) {
    const std::string where = "launch " + std::to_string(i) + ": ";
    const auto events = list[i].find("events");
    if (events == list[i].end()) continue;  // a header without events
    if (!events->is_array()) return Status::error(where + "events is not an array");
    Trace& t = (*traces)[i];
    t.events.reserve(events->size());
    for (const json& e : *events) {
      auto ev = event_from(e);
      if (!ev)
        return Status::error(where + "event " + std::to_string(t.events.size()) + ": " +
                             ev.message());
      t.events.push_back(*ev);
    }
    if (Status s = validate_events(t, i); !s) return s;
  }
  return traces;
}

Result<std::vector<Trace>> decode_cbor(const std::string& bytes) {
  if (bytes.size() < 5 || std::memcmp(bytes.data(), kSelfDescribe, 3) != 0 ||
      std::memcmp(bytes.data() + 3, kEmbeddedCbor, 2) != 0)
    return Status::error("not a coopviz trace: neither JSON nor coopviz CBOR");
  size_t pos = 5;
  auto head_len = get_bytes_header(bytes, pos, "the trace header");
  if (!head_len) return head_len.status();
  auto doc = trace_json::parse_cbor(bytes, pos, pos + *head_len);
  if (!doc) return doc.status();
  pos += *head_len;
  auto traces = from_document(*doc);
  if (!traces) return traces;
  for (size_t i = 0; i < traces->size(); ++i) {
    const std::string where = "launch " + std::to_string(i) + ": ";
    auto len = get_bytes_header(bytes, pos, "an event block");
    if (!len) return Status::error(where + len.message());
    const json& entry = (*doc)["launches"][i];
    auto count = trace_json::unsigned_field(entry, "event_count", 0, UINT64_MAX);
    if (!count) return Status::error(where + count.message());
    auto encoding = trace_json::string_field(entry, "event_encoding", "raw64");
    if (!encoding) return Status::error(where + encoding.message());
    // Untrusted counts: refuse what this machine could not hold before allocating anything.
    const uint64_t limit = event_bytes_limit();
    if (*count > limit / sizeof(Event))
      return Status::error(where + "the event block's decompressed size of " +
                           std::to_string(*count) + " x 64 bytes exceeds the limit of " +
                           std::to_string(limit) + " bytes (half of this machine's memory)");
    Trace& t = (*traces)[i];
    if (*encoding == kPackedEventEncoding) {
      if (Status s = unpack_events(std::string_view(bytes).substr(pos, *len), *count, t.events); !s)
        return Status::error(where + s.message());
    } else if (*encoding == "raw64") {
      if (*len % sizeof(Event) != 0)
        return Status::error(where + "event block of " + std::to_string(*len) +
                             " bytes is not a whole number of 64-byte events");
      if (*count != *len / sizeof(Event))
        return Status::error(where + "header promises " + std::to_string(*count) +
                             " events, the file holds " + std::to_string(*len / sizeof(Event)));
      t.events.resize(*count);
      if (*count > 0) std::memcpy(t.events.data(), bytes.data() + pos, *len);
    } else {
      return Status::error(where + "unknown event encoding '" + *encoding +
                           "' (known: " + kPackedEventEncoding + ", raw64)");
    }
    pos += *len;
    if (Status s = validate_events(t, i); !s) return s;
  }
  if (pos != bytes.size())
    return Status::error(std::to_string(bytes.size() - pos) +
                         " unexpected bytes after the last launch");
  return traces;
}

}  // namespace

Result<std::vector<Trace>> decode_traces(const std::string& bytes) {
  try {
    const size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return Status::error("the trace file is empty");
    return bytes[first] == '{' ? decode_json(bytes) : decode_cbor(bytes);
  } catch (const std::exception& e) {  // e.g. out of memory for the events a header promises
    return Status::error(std::string("malformed trace: ") + e.what());
  }
}

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
  Result<std::string> bytes = read_user_file(path, kTraceFileLimit);
  if (!bytes) return bytes.status();
  auto traces = decode_traces(*bytes);
  if (!traces) return Status::error(path + ": " + traces.message());
  return traces;
}

}  // namespace coop
