// The JSON form of trace headers and events, shared by both trace file encodings (the CBOR file
// holds the same document). Internal to device/trace: trace_file.cpp is the public entry.
//
// Reading treats the document as untrusted: every number is checked against the range of the
// field it fills (nlohmann would convert silently, and an out-of-range float cast is undefined
// behaviour), device properties against what any CUDA device can have (they size loops in the
// occupancy views), and a wrong field is an error naming it.
#pragma once

#include <nlohmann/json.hpp>

#include "device/launch/result.hpp"
#include "device/trace/trace.hpp"

namespace coop::trace_json {

using json = nlohmann::json;

// Nesting deeper than this is refused before the document is built: nlohmann's CBOR reader
// recurses once per level, and a few thousand levels overflow the stack. Real documents nest 5.
inline constexpr int kMaxNesting = 64;

// Parses a JSON text or a CBOR item, refusing deeper nesting than kMaxNesting. The error says
// which of the two was wrong.
Result<json> parse_json(const std::string& text);
Result<json> parse_cbor(const std::string& bytes, size_t begin, size_t end);

json header_json(const TraceHeader& header);
Status header_from(const json& j, TraceHeader& header);

json event_json(const Event& e);
Result<Event> event_from(const json& j);

// An unsigned integer field of `j` (`fallback` when absent) that must be at most `max`.
Result<uint64_t> unsigned_field(const json& j, const char* key, uint64_t fallback, uint64_t max);

// A string field of `j` (`fallback` when absent).
Result<std::string> string_field(const json& j, const char* key, const char* fallback);

}  // namespace coop::trace_json
