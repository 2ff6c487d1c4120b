// Saving and loading traces.
//
// Two encodings of one versioned document {format, version, launches: [{header, events}]}:
//  - compact (".cvt"): an RFC 8742 CBOR sequence. Item 1 is the document with each launch's
//    header (written by nlohmann-json); then, per launch, one CBOR byte string holding its
//    events: little-endian 64-byte records (the layout of coop::Event), byte-shuffled and zstd-
//    compressed (event_codec.hpp; version 2), or stored as they are (version 1, still read).
//    A 10 M-event trace loads with one decompression per launch instead of a parse per field.
//  - JSON (".json"): the same document with events as objects, for humans and other tools.
// Loading treats the file as untrusted: every count, size, enum and index is checked and a bad
// file is an error naming what is wrong, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device/launch/result.hpp"
#include "device/trace/trace.hpp"

namespace coop {

inline constexpr int kTraceFormatVersion = 2;  // 1 (raw events) is still read
inline constexpr const char* kTraceFormatName = "coopviz-trace";

enum class TraceEncoding { Cbor, Json };

// Chooses the encoding from the file name: ".json" is JSON, anything else CBOR.
TraceEncoding encoding_for(const std::string& path);

// Serializes to bytes / parses from bytes.
std::string encode_traces(const std::vector<Trace>& launches, TraceEncoding encoding);
Result<std::vector<Trace>> decode_traces(const std::string& bytes);

// Writes atomically (temporary file, then rename) so a failed save never leaves half a file.
Status save_traces(const std::string& path, const std::vector<Trace>& launches);
Result<std::vector<Trace>> load_traces(const std::string& path);

// The most bytes of events one launch of a loaded file may unpack to: half of this machine's
// memory. A larger count in a header is refused before anything is allocated.
uint64_t event_bytes_limit();

// Writes `bytes` to `path` through a temporary file and a rename; the error says why it failed.
Status write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace coop
