// Trace files: round trips in both encodings, and clear errors for damaged input.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include <zstd.h>
#include <nlohmann/json.hpp>

#include "device/trace/event_codec.hpp"
#include "device/trace/trace_file.hpp"

namespace coop {
namespace {

Trace sample_trace(size_t events) {
  Trace t;
  t.header.lesson = "block-reduce";
  t.header.kernel = "reduce_block";
  t.header.backend = Backend::Emu;
  t.header.device.name = "NVIDIA H100";
  t.header.device.cc_major = 9;
  t.header.launch.grid = {4, 1, 1};
  t.header.launch.block = {64, 2, 1};
  t.header.params = {{"tiles", "1"}};
  t.header.capacity = 1000;
  t.header.attempts = events + 3;
  t.header.source = "__global__ void k() {}\n";
  t.header.buffers.push_back({"input", 0x7000, 4096, ValueType::F32, 4, false});
  for (size_t i = 0; i < events; ++i) {
    Event e{};
    e.kind = i % 2 ? EventKind::Barrier : EventKind::GroupCreate;
    e.group_kind = GroupKind::Tile;
    e.op = Op::None;
    e.sequence = uint32_t(i * 2 + 1);
    e.thread = uint32_t(i % 512);
    e.time = 1000 + i;
    e.rank = uint32_t(i % 32);
    e.group_size = 32;
    e.a = 0x3f800000u;
    e.b = ~0ull;
    e.line = uint16_t(10 + i % 5);
    e.value_type = ValueType::F32;
    t.events.push_back(e);
  }
  return t;
}

void expect_same(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.header.lesson, b.header.lesson);
  EXPECT_EQ(a.header.kernel, b.header.kernel);
  EXPECT_EQ(a.header.launch, b.header.launch);
  EXPECT_EQ(a.header.params, b.header.params);
  EXPECT_EQ(a.header.attempts, b.header.attempts);
  EXPECT_EQ(a.header.source, b.header.source);
  ASSERT_EQ(a.header.buffers.size(), b.header.buffers.size());
  EXPECT_EQ(a.header.buffers[0].name, b.header.buffers[0].name);
  ASSERT_EQ(a.events.size(), b.events.size());
  EXPECT_EQ(0, std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(Event)));
  EXPECT_EQ(a.dropped(), b.dropped());
}

TEST(TraceFile, CborRoundTripKeepsEveryByte) {
  const Trace t = sample_trace(300);
  auto back = decode_traces(encode_traces({t}, TraceEncoding::Cbor));
  ASSERT_TRUE(back) << back.message();
  ASSERT_EQ(back->size(), 1u);
  expect_same(t, (*back)[0]);
}

TEST(TraceFile, JsonRoundTripKeepsEveryField) {
  const Trace t = sample_trace(50);
  const std::string text = encode_traces({t, t}, TraceEncoding::Json);
  EXPECT_NE(text.find("\"group_create\""), std::string::npos);
  auto back = decode_traces(text);
  ASSERT_TRUE(back) << back.message();
  ASSERT_EQ(back->size(), 2u);
  expect_same(t, (*back)[1]);
}

TEST(TraceFile, EmptyTraceRoundTrips) {
  const Trace t = sample_trace(0);
  auto back = decode_traces(encode_traces({t}, TraceEncoding::Cbor));
  ASSERT_TRUE(back) << back.message();
  EXPECT_TRUE((*back)[0].events.empty());
}

TEST(TraceFile, TruncatedCborIsAClearError) {
  const std::string bytes = encode_traces({sample_trace(100)}, TraceEncoding::Cbor);
  for (size_t cut : {size_t(0), size_t(3), size_t(40), bytes.size() / 2, bytes.size() - 1}) {
    auto back = decode_traces(bytes.substr(0, cut));
    EXPECT_FALSE(back) << "cut at " << cut;
  }
  auto back = decode_traces(bytes.substr(0, bytes.size() - 10));
  ASSERT_FALSE(back);
  EXPECT_NE(back.message().find("truncated"), std::string::npos) << back.message();
}

TEST(TraceFile, WrongVersionNamesBothVersions) {
  std::string text = encode_traces({sample_trace(1)}, TraceEncoding::Json);
  const size_t at = text.find("\"version\": 2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "\"version\": 7");
  auto back = decode_traces(text);
  ASSERT_FALSE(back);
  EXPECT_NE(back.message().find("version 7"), std::string::npos) << back.message();
}

TEST(TraceFile, EventOutsideTheLaunchIsRejected) {
  Trace t = sample_trace(4);
  t.events[2].thread = 999999;
  auto back = decode_traces(encode_traces({t}, TraceEncoding::Cbor));
  ASSERT_FALSE(back);
  EXPECT_NE(back.message().find("thread 999999"), std::string::npos) << back.message();
}

TEST(TraceFile, CorruptKindIsRejected) {
  Trace t = sample_trace(4);
  t.events[3].kind = EventKind(200);
  auto back = decode_traces(encode_traces({t}, TraceEncoding::Cbor));
  ASSERT_FALSE(back);
  EXPECT_NE(back.message().find("invalid kind"), std::string::npos) << back.message();
}

TEST(TraceFile, DamagedEventBlockIsAClearError) {
  std::string bytes = encode_traces({sample_trace(500)}, TraceEncoding::Cbor);
  for (size_t k = 1; k <= 16; ++k) bytes[bytes.size() - k * 3] ^= 0x5a;
  auto back = decode_traces(bytes);
  ASSERT_FALSE(back);
  EXPECT_NE(back.message().find("launch 0: the event block"), std::string::npos) << back.message();
}

TEST(TraceFile, EventBlocksAreCompressed) {
  const Trace t = sample_trace(20000);
  const std::string bytes = encode_traces({t}, TraceEncoding::Cbor);
  EXPECT_LT(bytes.size(), t.events.size() * sizeof(Event) / 20) << "shuffled + zstd";
}

// Files of format version 1 stored events as raw 64-byte records; they still load.
TEST(TraceFile, VersionOneRawFilesStillLoad) {
  const Trace t = sample_trace(7);
  // Build a version-1 file by hand: the header document, then the raw records.
  std::string json_text = encode_traces({t}, TraceEncoding::Json);
  nlohmann::json v1 = nlohmann::json::parse(json_text);
  v1["version"] = 1;
  v1["launches"][0].erase("events");
  const std::vector<uint8_t> head = nlohmann::json::to_cbor(v1);
  std::string bytes = {char(0xD9), char(0xD9), char(0xF7), char(0xD8), char(0x18), char(0x5B)};
  auto put_len = [&](uint64_t n) {
    for (int i = 7; i >= 0; --i) bytes.push_back(char((n >> (8 * i)) & 0xff));
  };
  put_len(head.size());
  bytes.append(head.begin(), head.end());
  bytes.push_back(char(0x5B));
  put_len(t.events.size() * sizeof(Event));
  bytes.append(reinterpret_cast<const char*>(t.events.data()), t.events.size() * sizeof(Event));
  auto back = decode_traces(bytes);
  ASSERT_TRUE(back) << back.message();
  expect_same(t, (*back)[0]);
}

TEST(TraceFile, GarbageIsNotATrace) {
  EXPECT_FALSE(decode_traces(""));
  EXPECT_FALSE(decode_traces("hello"));
  EXPECT_FALSE(decode_traces("{\"format\": 3}"));
  EXPECT_FALSE(decode_traces("{\"format\": \"coopviz-trace\", \"version\": 1, \"launches\": 5}"));
}

TEST(TraceFile, SaveIsAtomicAndReportsFailure) {
  const std::string path = ::testing::TempDir() + "coopviz_trace_test.cvt";
  ASSERT_TRUE(save_traces(path, {sample_trace(10)}).ok());
  auto back = load_traces(path);
  ASSERT_TRUE(back) << back.message();
  EXPECT_EQ((*back)[0].events.size(), 10u);
  Status bad = save_traces("/nonexistent-dir/x.cvt", {sample_trace(1)});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("/nonexistent-dir"), std::string::npos);
}

TEST(TraceFile, FinalizeNumbersPhasesPerThreadAndGroup) {
  Trace t;
  t.header.launch.block = {64, 1, 1};
  for (uint32_t i = 0; i < 6; ++i) {
    Event e{};
    e.kind = EventKind::Barrier;
    e.thread = i % 2;
    e.group_kind = GroupKind::Block;
    e.sequence = i;
    t.events.push_back(e);
  }
  finalize_trace(t);
  EXPECT_EQ(t.events[0].extra, 1u);
  EXPECT_EQ(t.events[1].extra, 1u);
  EXPECT_EQ(t.events[4].extra, 3u);
  EXPECT_EQ(t.events[5].extra, 3u);
}

// [SECTION] Damaged and hostile files (inputs found by tests/fuzz/trace_fuzz.cpp and kept in
// tests/fuzz/corpus/trace/regress-*)

// The JSON text of `t` with the first `from` replaced by `to`.
std::string json_edited(const Trace& t, const std::string& from, const std::string& to) {
  std::string text = encode_traces({t}, TraceEncoding::Json);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

std::string decode_error(const std::string& bytes) {
  auto back = decode_traces(bytes);
  EXPECT_FALSE(back) << "accepted";
  return back ? std::string() : back.message();
}

// A CBOR trace file assembled by hand: the header document `doc`, then one event block per entry.
std::string cbor_file(const nlohmann::json& doc, const std::vector<std::string>& blocks) {
  std::string bytes = {char(0xD9), char(0xD9), char(0xF7), char(0xD8), char(0x18)};
  auto put_block = [&](const std::string& payload) {
    bytes.push_back(char(0x5B));
    for (int i = 7; i >= 0; --i) bytes.push_back(char((payload.size() >> (8 * i)) & 0xff));
    bytes += payload;
  };
  const std::vector<uint8_t> head = nlohmann::json::to_cbor(doc);
  put_block(std::string(head.begin(), head.end()));
  for (const std::string& b : blocks) put_block(b);
  return bytes;
}

// The header document of `t` as a format 2 file holds it, with its packed event block.
nlohmann::json packed_doc(const Trace& t) {
  nlohmann::json doc = nlohmann::json::parse(encode_traces({t}, TraceEncoding::Json));
  doc["launches"][0].erase("events");
  doc["launches"][0]["event_encoding"] = kPackedEventEncoding;
  return doc;
}

// The packed events of `t` re-compressed as a zstd frame that does not state its size, as other
// writers may.
std::string frame_without_size(const Trace& t) {
  const std::string packed = pack_events(t.events);
  std::string shuffled(t.events.size() * sizeof(Event), '\0');
  ZSTD_decompress(shuffled.data(), shuffled.size(), packed.data(), packed.size());
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
  std::string out(ZSTD_compressBound(shuffled.size()), '\0');
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  ZSTD_inBuffer in{shuffled.data(), shuffled.size(), 0};
  ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
  ZSTD_freeCCtx(c);
  out.resize(o.pos);
  return out;
}

TEST(TraceFile, HandBuiltPackedFileLoads) {
  // The helpers above build what encode_traces writes; the cases below each change one thing.
  const Trace t = sample_trace(9);
  auto back = decode_traces(cbor_file(packed_doc(t), {pack_events(t.events)}));
  ASSERT_TRUE(back) << back.message();
  expect_same(t, (*back)[0]);
}

TEST(TraceFile, OversizedEventCountIsRefusedBeforeAllocating) {
  const Trace t = sample_trace(9);
  nlohmann::json doc = packed_doc(t);
  doc["launches"][0]["event_count"] = uint64_t(1) << 50;  // 64 PiB of events
  const std::string message = decode_error(cbor_file(doc, {pack_events(t.events)}));
  EXPECT_NE(message.find("launch 0: the event block's decompressed size of 1125899906842624 x 64 "
                         "bytes exceeds the limit of " +
                         std::to_string(event_bytes_limit()) + " bytes"),
            std::string::npos)
      << message;
  doc["launches"][0]["event_count"] = UINT64_MAX;  // would wrap around when multiplied by 64
  EXPECT_NE(decode_error(cbor_file(doc, {pack_events(t.events)})).find("exceeds the limit"),
            std::string::npos);
}

TEST(TraceFile, CountBeyondWhatTheFrameHoldsIsAnError) {
  const Trace t = sample_trace(9);
  nlohmann::json doc = packed_doc(t);
  doc["launches"][0]["event_count"] = 10;
  EXPECT_NE(decode_error(cbor_file(doc, {pack_events(t.events)}))
                .find("the event block holds 576 bytes, not the 640 that 10 events take"),
            std::string::npos);
  // A frame that does not state its size is read until it runs out; a header that promises
  // millions of events then costs no more memory than the frame really holds.
  doc["launches"][0]["event_count"] = 5000000;
  EXPECT_NE(decode_error(cbor_file(doc, {frame_without_size(t)}))
                .find("launch 0: the event block ends after 576 of 320000000 bytes"),
            std::string::npos);
  doc["launches"][0]["event_count"] = 4;
  EXPECT_NE(decode_error(cbor_file(doc, {frame_without_size(t)}))
                .find("the event block holds more than the 256 bytes that 4 events take"),
            std::string::npos);
}

TEST(TraceFile, FrameWithoutItsSizeStillLoads) {
  const Trace t = sample_trace(9);
  auto back = decode_traces(cbor_file(packed_doc(t), {frame_without_size(t)}));
  ASSERT_TRUE(back) << back.message();
  expect_same(t, (*back)[0]);
}

TEST(TraceFile, BadZstdFramesAreNamed) {
  const Trace t = sample_trace(9);
  const nlohmann::json doc = packed_doc(t);
  const std::string packed = pack_events(t.events);
  EXPECT_NE(decode_error(cbor_file(doc, {"not zstd at all"}))
                .find("launch 0: the event block is not a zstd frame"),
            std::string::npos);
  EXPECT_NE(decode_error(cbor_file(doc, {""})).find("not a zstd frame"), std::string::npos);
  EXPECT_NE(decode_error(cbor_file(doc, {packed.substr(0, packed.size() - 4)}))
                .find("launch 0: the event block ends after"),
            std::string::npos);
  EXPECT_NE(decode_error(cbor_file(doc, {packed + "tail"}))
                .find("the event block has 4 bytes after its zstd frame"),
            std::string::npos);
  EXPECT_NE(decode_error(cbor_file(doc, {packed + packed})).find("after its zstd frame"),
            std::string::npos);
  // A frame header asking for a 256 MiB window (exponent 18), then an empty last block.
  const std::string huge_window("\x28\xB5\x2F\xFD\x00\x90\x01\x00\x00", 9);
  EXPECT_NE(decode_error(cbor_file(doc, {huge_window}))
                .find("launch 0: the event block needs a zstd window larger than the limit of "
                      "134217728 bytes"),
            std::string::npos);
}

TEST(TraceFile, WrongTypesInTheFileDocumentAreNamed) {
  const Trace t = sample_trace(2);
  const std::string packed = pack_events(t.events);
  nlohmann::json doc = packed_doc(t);
  doc["launches"][0]["event_encoding"] = 7;
  EXPECT_NE(
      decode_error(cbor_file(doc, {packed})).find("launch 0: event_encoding must be a string"),
      std::string::npos);
  doc["launches"][0]["event_encoding"] = "lz4";
  EXPECT_NE(decode_error(cbor_file(doc, {packed})).find("unknown event encoding 'lz4'"),
            std::string::npos);
  doc = packed_doc(t);
  doc["launches"][0]["event_count"] = "2";
  EXPECT_NE(decode_error(cbor_file(doc, {packed})).find("launch 0: event_count must be an integer"),
            std::string::npos);
  doc = packed_doc(t);
  doc["version"] = "2";
  EXPECT_NE(decode_error(cbor_file(doc, {packed})).find("version of type string is not supported"),
            std::string::npos);
  doc["version"] = 0;
  EXPECT_NE(decode_error(cbor_file(doc, {packed})).find("reads versions 1 to 2"),
            std::string::npos);
  doc = packed_doc(t);
  doc["launches"][0] = 5;
  EXPECT_NE(decode_error(cbor_file(doc, {packed})).find("launch 0: not an object"),
            std::string::npos);
}

TEST(TraceFile, WrongMagicIsNotATrace) {
  std::string bytes = encode_traces({sample_trace(2)}, TraceEncoding::Cbor);
  bytes[1] = 'X';
  EXPECT_NE(decode_error(bytes).find("not a coopviz trace: neither JSON nor coopviz CBOR"),
            std::string::npos);
  EXPECT_NE(decode_error("\xD9\xD9\xF7\xD8").find("not a coopviz trace"), std::string::npos);
}

TEST(TraceFile, MissingOrExtraEventBlocksAreNamed) {
  const Trace t = sample_trace(2);
  const std::string packed = pack_events(t.events);
  EXPECT_NE(
      decode_error(cbor_file(packed_doc(t), {})).find("launch 0: file ends before an event block"),
      std::string::npos);
  EXPECT_NE(decode_error(cbor_file(packed_doc(t), {packed, packed}))
                .find("unexpected bytes after the last launch"),
            std::string::npos);
}

TEST(TraceFile, DeeplyNestedCborHeaderIsAnErrorNotAStackOverflow) {
  // A 5 KB file: the header item is 5000 nested one-element arrays.
  std::string bytes = "\xD9\xD9\xF7\xD8\x18\x5B";
  const std::string head = std::string(5000, '\x81') + '\0';
  for (int i = 7; i >= 0; --i) bytes.push_back(char((head.size() >> (8 * i)) & 0xff));
  bytes += head;
  EXPECT_NE(decode_error(bytes).find("nests deeper than 64 levels"), std::string::npos);
  const std::string deep_json =
      "{\"x\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_NE(decode_error(deep_json).find("nests deeper"), std::string::npos);
}

TEST(TraceFile, NumbersOutsideTheirFieldAreNamed) {
  // A float far outside the field's type reached an undefined float-to-integer conversion.
  const Trace t = sample_trace(2);
  EXPECT_NE(decode_error(json_edited(t, "\"seed\": 0", "\"seed\": 1e300"))
                .find("seed must be an integer"),
            std::string::npos);
  EXPECT_NE(decode_error(json_edited(t, "\"sm_count\": 0", "\"sm_count\": 1e300"))
                .find("sm_count must be an integer from 0 to 4096"),
            std::string::npos);
  EXPECT_NE(decode_error(json_edited(t, "\"thread\": 0", "\"thread\": -1"))
                .find("event 0: event: thread must be an integer"),
            std::string::npos);
}

TEST(TraceFile, ImpossibleDevicesAreRejected) {
  // The occupancy views divide by the warp size and step through shared memory sizes: values no
  // device has are refused rather than trusted.
  Trace t = sample_trace(2);
  t.header.device.warp_size = 0;
  EXPECT_NE(decode_error(encode_traces({t}, TraceEncoding::Cbor)).find("warp_size"),
            std::string::npos);
  t.header.device.warp_size = 32;
  t.header.device.smem_per_block_optin = size_t(1) << 40;
  EXPECT_NE(decode_error(encode_traces({t}, TraceEncoding::Cbor)).find("smem_per_block_optin"),
            std::string::npos);
  t.header.device.smem_per_block_optin = 0;
  EXPECT_NE(
      decode_error(json_edited(t, "\"cc\": \"9.0\"", "\"cc\": \"9.x\"")).find("compute capability"),
      std::string::npos);
}

TEST(TraceFile, TruncatedJsonSaysWhereItEnds) {
  const std::string text = encode_traces({sample_trace(4)}, TraceEncoding::Json);
  // Cut between two lines, so the parser runs out of input rather than out of a string.
  const std::string message = decode_error(text.substr(0, text.rfind('\n', text.size() / 2)));
  EXPECT_NE(message.find("not valid JSON"), std::string::npos) << message;
  EXPECT_NE(message.find("unexpected end of input"), std::string::npos) << message;
}

TEST(TraceFile, ThreadCountThatWrapsAroundIsRejected) {
  // 2^21 x 2^21 x 2^22 blocks of one thread is 2^64 threads, which wrapped around to 0.
  Trace t = sample_trace(0);
  t.header.launch.grid = {1u << 21, 1u << 21, 1u << 22};
  t.header.launch.block = {1, 1, 1};
  EXPECT_NE(decode_error(encode_traces({t}, TraceEncoding::Cbor)).find("threads a trace holds"),
            std::string::npos);
}

TEST(TraceFile, UnknownLaunchModeIsAnError) {
  EXPECT_NE(decode_error(json_edited(sample_trace(1), "\"mode\": \"normal\"", "\"mode\": \"warp\""))
                .find("launch.mode 'warp'"),
            std::string::npos);
}

TEST(TraceFile, BlockRecordOnAnImpossibleSmIsRejected) {
  // The SM schedule tab sizes a per-SM table by the largest SM id; 2^32-1 overflowed it.
  Trace t = sample_trace(2);
  t.events[1].kind = EventKind::ThreadBegin;
  t.events[1].group_kind = GroupKind::Block;
  t.events[1].extra = 0xffffffffu;
  EXPECT_NE(decode_error(encode_traces({t}, TraceEncoding::Cbor)).find("SM id 4294967295"),
            std::string::npos);
}

TEST(TraceFile, KernelTimeMustBeFinite) {
  // CBOR can hold NaN but JSON cannot: such a file loaded, then failed to load once saved as JSON.
  Trace t = sample_trace(1);
  t.header.kernel_ms = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(
      decode_error(encode_traces({t}, TraceEncoding::Cbor)).find("kernel_ms must be a finite"),
      std::string::npos);
}

TEST(TraceFile, NonUtf8StringsSaveAsJsonWithReplacements) {
  // CBOR strings are not checked for UTF-8; saving such a trace as JSON used to throw.
  Trace t = sample_trace(3);
  t.header.kernel = "k\xff\xfe";
  auto back = decode_traces(encode_traces({t}, TraceEncoding::Cbor));
  ASSERT_TRUE(back) << back.message();
  std::string text;
  ASSERT_NO_THROW(text = encode_traces(*back, TraceEncoding::Json));
  auto again = decode_traces(text);
  ASSERT_TRUE(again) << again.message();
  EXPECT_EQ((*again)[0].header.kernel, "k\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ((*again)[0].header.lesson, t.header.lesson);
  EXPECT_EQ((*again)[0].events.size(), 3u);
}

TEST(TraceFile, EmptyEventBlockLoadsWithoutTouchingMemory) {
  // A launch with no events has a zero-length event block; copying it must not pass a null
  // pointer to memcpy (undefined behaviour the sanitizer build reports).
  Trace t = sample_trace(0);
  auto back = decode_traces(encode_traces({t, sample_trace(1)}, TraceEncoding::Cbor));
  ASSERT_TRUE(back) << back.message();
  EXPECT_TRUE((*back)[0].events.empty());
  EXPECT_EQ((*back)[1].events.size(), 1u);
}

}  // namespace
}  // namespace coop
