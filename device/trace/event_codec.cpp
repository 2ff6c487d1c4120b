#include "device/trace/event_codec.hpp"

#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

namespace coop {
namespace {

constexpr size_t kRecord = sizeof(Event);
// Events are shuffled chunk by chunk: the stream is chunk 0's 64 planes, then chunk 1's, ... so
// both ends work through a buffer of one chunk instead of a second copy of the whole array.
constexpr size_t kChunk = size_t(1) << 16;
constexpr size_t kTile = 256;  // events per tile of the transpose, which then stays in cache
// The largest zstd window (history) a block may need to decompress: zstd's own default limit,
// stated here so that the error can name it. pack_events writes windows of at most 2 MiB.
constexpr int kMaxWindowLog = 27;
// Memory for a block's events is reserved at once up to this many times its compressed size.
// Lesson traces shrink about a hundredfold; a block that expands further is still read, growing
// as it decompresses.
constexpr uint64_t kMostPlausibleRatio = 4096;

// Record-major -> plane-major within a chunk of n events (out[k * n + i] = in[i * 64 + k]).
void shuffle(const unsigned char* in, unsigned char* out, size_t n) {
  for (size_t base = 0; base < n; base += kTile) {
    const size_t m = std::min(kTile, n - base);
    for (size_t k = 0; k < kRecord; ++k) {
      unsigned char* plane = out + k * n + base;
      const unsigned char* src = in + base * kRecord + k;
      for (size_t i = 0; i < m; ++i) plane[i] = src[i * kRecord];
    }
  }
}

void unshuffle(const unsigned char* in, unsigned char* out, size_t n) {
  for (size_t base = 0; base < n; base += kTile) {
    const size_t m = std::min(kTile, n - base);
    for (size_t k = 0; k < kRecord; ++k) {
      const unsigned char* plane = in + k * n + base;
      unsigned char* dst = out + base * kRecord + k;
      for (size_t i = 0; i < m; ++i) dst[i * kRecord] = plane[i];
    }
  }
}

struct CompressContext {
  ZSTD_CCtx* p = ZSTD_createCCtx();
  ~CompressContext() { ZSTD_freeCCtx(p); }
};
struct DecompressContext {
  ZSTD_DCtx* p = ZSTD_createDCtx();
  ~DecompressContext() { ZSTD_freeDCtx(p); }
};

Status decompress_error(size_t code) {
  if (ZSTD_getErrorCode(code) == ZSTD_error_frameParameter_windowTooLarge)
    return Status::error("the event block needs a zstd window larger than the limit of " +
                         std::to_string(size_t(1) << kMaxWindowLog) + " bytes");
  return Status::error(std::string("the event block does not decompress: ") +
                       ZSTD_getErrorName(code));
}

}  // namespace

std::string pack_events(std::span<const Event> events) {
  CompressContext cctx;
  ZSTD_CCtx_setParameter(cctx.p, ZSTD_c_compressionLevel, 3);
  ZSTD_CCtx_setPledgedSrcSize(cctx.p, events.size() * kRecord);
  auto chunk = std::make_unique_for_overwrite<unsigned char[]>(kChunk * kRecord);
  std::string out;
  std::string buffer(ZSTD_CStreamOutSize(), '\0');
  const auto* records = reinterpret_cast<const unsigned char*>(events.data());
  for (size_t first = 0; first < events.size() || first == 0; first += kChunk) {
    const size_t n = std::min(kChunk, events.size() - first);
    shuffle(records + first * kRecord, chunk.get(), n);
    const bool last = first + n >= events.size();
    ZSTD_inBuffer in{chunk.get(), n * kRecord, 0};
    for (bool done = false; !done;) {
      ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
      const size_t left = ZSTD_compressStream2(cctx.p, &o, &in, last ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(left)) return {};  // only on allocation failure inside zstd
      out.append(buffer.data(), o.pos);
      done = last ? left == 0 : in.pos == in.size;
    }
    if (last) break;
  }
  return out;
}

Status unpack_events(std::string_view packed, uint64_t count, EventVector& out) {
  if (count > UINT64_MAX / kRecord)
    return Status::error("the event block's " + std::to_string(count) +
                         " events do not fit in 2^64 bytes");
  const uint64_t bytes = count * kRecord;
  const unsigned long long content = ZSTD_getFrameContentSize(packed.data(), packed.size());
  if (content == ZSTD_CONTENTSIZE_ERROR)
    return Status::error("the event block is not a zstd frame (damaged file?)");
  if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != bytes)
    return Status::error("the event block holds " + std::to_string(content) + " bytes, not the " +
                         std::to_string(bytes) + " that " + std::to_string(count) +
                         " events take");
  out.clear();
  // The count is the file's word until the frame delivers that many events, so memory is reserved
  // up front only as far as the compressed size makes plausible and otherwise grows with what
  // really decompresses: a few damaged bytes cannot claim gigabytes.
  out.reserve(size_t(std::min<uint64_t>(count, packed.size() * kMostPlausibleRatio / kRecord + 1)));
  DecompressContext dctx;
  ZSTD_DCtx_setParameter(dctx.p, ZSTD_d_windowLogMax, kMaxWindowLog);
  auto chunk = std::make_unique_for_overwrite<unsigned char[]>(kChunk * kRecord);
  ZSTD_inBuffer in{packed.data(), packed.size(), 0};
  size_t left = 1;  // ZSTD_decompressStream's hint: 0 once the frame is complete
  for (uint64_t first = 0; first < count; first += kChunk) {
    const size_t n = size_t(std::min<uint64_t>(kChunk, count - first));
    ZSTD_outBuffer o{chunk.get(), n * kRecord, 0};
    while (o.pos < o.size) {
      left = ZSTD_decompressStream(dctx.p, &o, &in);
      if (ZSTD_isError(left)) return decompress_error(left);
      if (left == 0 && o.pos < o.size) break;                       // the frame ended early
      if (in.pos == in.size && o.pos < o.size && left != 0) break;  // the data ran out
    }
    if (o.pos != o.size)
      return Status::error("the event block ends after " +
                           std::to_string(first * kRecord + o.pos) + " of " +
                           std::to_string(bytes) + " bytes");
    out.resize(first + n);
    unshuffle(chunk.get(), reinterpret_cast<unsigned char*>(out.data()) + first * kRecord, n);
  }
  // All events are in; what follows must be only the end of the frame (its checksum, an empty
  // last block), not more events or a second frame.
  while (left != 0) {
    unsigned char extra;
    ZSTD_outBuffer o{&extra, 1, 0};
    const size_t before = in.pos;
    left = ZSTD_decompressStream(dctx.p, &o, &in);
    if (ZSTD_isError(left)) return decompress_error(left);
    if (o.pos != 0)
      return Status::error("the event block holds more than the " + std::to_string(bytes) +
                           " bytes that " + std::to_string(count) + " events take");
    if (left != 0 && in.pos == before)
      return Status::error("the event block's zstd frame is cut short after its last event");
  }
  if (in.pos != in.size)
    return Status::error("the event block has " + std::to_string(in.size - in.pos) +
                         " bytes after its zstd frame");
  return {};
}

}  // namespace coop
