// Source lines of recorded memory accesses (memory_record.hpp): each access event holds its
// instruction's address; binutils' addr2line reads the executable's line tables for all the
// addresses of a launch in one call (kernel translation units are compiled with -g1 for this),
// and the answers are kept for the process's later launches.
#include <link.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/emu/memory_checks.hpp"
#include "device/emu/memory_record.hpp"
#include "device/trace/memory_access.hpp"

namespace coop::emu::detail {
namespace {

struct LineCache {
  std::mutex mutex;
  std::unordered_map<uint32_t, uint16_t> lines;  // code offset -> kernel source line (0: unknown)
};
// A code offset entered in the cache whose line is being looked up.
constexpr uint16_t kLineUnresolved = 0xffff;

// Never destroyed, like memory_checks' registry: a trace saved at exit may still look lines up.
LineCache& line_cache() {
  static LineCache* cache = new LineCache;
  return *cache;
}

// The executable's first loaded address as its line tables count (0 for a position-independent
// executable), to turn an offset from __executable_start into what addr2line expects.
uintptr_t executable_link_start() {
  return reinterpret_cast<uintptr_t>(&__executable_start) - executable_load_bias();
}

// A frame of an inline chain in coop's own headers or the system's is not the kernel's line: the
// access belongs to the innermost frame of the user's code (a lesson's or program's file).
bool is_library_file(const std::string& file) {
  for (const char* part : {"/device/emu/", "/device/coop/", "/device/byo/", "/device/trace/"})
    if (file.find(part) != std::string::npos) return true;
  return file.rfind("/usr/", 0) == 0 || file.rfind("??", 0) == 0;
}

// "file:line" or "file:line (discriminator 3)" -> line, or 0.
uint16_t line_of_frame(const std::string& frame) {
  const size_t colon = frame.rfind(':', frame.find(" ("));
  if (colon == std::string::npos) return 0;
  const unsigned long line = std::strtoul(frame.c_str() + colon + 1, nullptr, 10);
  return line <= 0xffff ? uint16_t(line) : 0;
}

// Where a code offset is in the user's source: the innermost frame outside coop's headers.
struct CodeFrame {
  std::string file;  // as the line tables name it
  uint16_t line = 0;
};

// Runs addr2line once for `offsets`; unresolved ones map to line 0.
std::unordered_map<uint32_t, CodeFrame> frames_from_addr2line(const std::vector<uint32_t>& offsets) {
  std::unordered_map<uint32_t, CodeFrame> found;
  for (uint32_t o : offsets) found[o] = {};
  // This process's own image, whatever its path holds now: a build of the same program that
  // finished meanwhile replaces the file at that path (and /proc/self/exe then names it
  // "... (deleted)"), but /proc/PID/exe still opens the image that runs.
  const std::string exe = "/proc/" + std::to_string(getpid()) + "/exe";
  const uintptr_t start = executable_link_start();
  std::ostringstream cmd;
  cmd << "addr2line -i -a -e '" << exe << "'" << std::hex;
  for (uint32_t o : offsets) cmd << " 0x" << (start + o);
  cmd << " 2>/dev/null";
  FILE* pipe = popen(cmd.str().c_str(), "r");
  if (pipe == nullptr) return found;
  char buf[8192];
  bool have_address = false, resolved = false;
  uint32_t current = 0;
  while (std::fgets(buf, sizeof buf, pipe)) {
    std::string text(buf);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (text.rfind("0x", 0) == 0) {
      current = uint32_t(std::stoull(text, nullptr, 16) - start);
      have_address = true;
      resolved = false;
    } else if (have_address && !resolved && !is_library_file(text)) {
      const size_t colon = text.rfind(':', text.find(" ("));
      found[current] = {text.substr(0, colon), line_of_frame(text)};
      resolved = true;
    }
  }
  pclose(pipe);
  return found;
}

}  // namespace

uintptr_t executable_load_bias() {
  uintptr_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        *static_cast<uintptr_t*>(out) = info->dlpi_addr;
        return 1;  // the first object is the executable itself
      },
      &bias);
  return bias;
}

void number_events(Event* events, uint64_t count, bool accesses,
                   std::span<const BufferInfo> buffers) {
  if (!accesses) {
    for (uint64_t i = 0; i < count; ++i) events[i].sequence = uint32_t(i);
    return;
  }
  LineCache& cache = line_cache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  // A launch runs a few dozen code places: a small table in front of the cache answers nearly
  // every access. Places the cache does not know yet are looked up together after the pass, and
  // the accesses at them get their line then.
  struct Near {
    uint32_t code = ~0u;
    uint16_t line = 0;
    bool known = false;
  };
  std::array<Near, 256> near{};
  std::vector<uint32_t> missing;
  std::vector<uint64_t> pending;
  for (uint64_t i = 0; i < count; ++i) {
    Event& e = events[i];
    e.sequence = uint32_t(i);
    if (!(e.flags & kFlagInstrumented)) continue;
    type_recorded_access(e, buffers);
    Near& n = near[(e.group_id * 0x9E3779B1u) >> 24];
    if (n.code != e.group_id) {
      const auto [at, fresh] = cache.lines.try_emplace(e.group_id, kLineUnresolved);
      if (fresh) missing.push_back(e.group_id);
      n = {e.group_id, at->second, at->second != kLineUnresolved};
    }
    if (n.known) e.line = n.line;
    else pending.push_back(i);
  }
  if (!missing.empty())
    for (const auto& [offset, frame] : frames_from_addr2line(missing))
      cache.lines[offset] = frame.line;
  for (const uint64_t i : pending) events[i].line = cache.lines[events[i].group_id];
}

std::string code_place(uint32_t code, uint16_t* line) {
  return caller_place({code}, line);
}

std::string caller_place(const std::vector<uint32_t>& codes, uint16_t* line) {
  *line = 0;
  if (codes.empty()) return "an unknown line";
  const std::unordered_map<uint32_t, CodeFrame> frames = frames_from_addr2line(codes);
  for (const uint32_t code : codes) {
    const CodeFrame& frame = frames.at(code);
    if (frame.line == 0) continue;
    *line = frame.line;
    const size_t slash = frame.file.find_last_of('/');
    return (slash == std::string::npos ? frame.file : frame.file.substr(slash + 1)) + ":" +
           std::to_string(frame.line);
  }
  return "an unknown line";
}

}  // namespace coop::emu::detail
