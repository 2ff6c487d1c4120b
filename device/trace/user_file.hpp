// Reading a file a user names (a trace, a pack, an exercise, a --script, progress.json,
// settings.json, a lesson.md): only a regular file under a size limit is read, and it is opened
// without blocking, so a FIFO, a device such as /dev/zero, a folder or an oversized file is an
// error naming the file and the limit, never a hang or a read without end.
#pragma once

#include <cstdint>
#include <string>

#include "device/launch/result.hpp"

namespace coop {

// Hand-written text and the JSON coopviz keeps (packs, exercises, scripts, settings, progress).
inline constexpr uint64_t kTextFileLimit = uint64_t(1) << 20;
// A program's source and its headers.
inline constexpr uint64_t kSourceFileLimit = uint64_t(16) << 20;
// A trace file: 4M events per launch of many launches, compressed.
inline constexpr uint64_t kTraceFileLimit = uint64_t(4) << 30;

// A byte count as messages say it: "2 GiB", "1.5 GiB", "512 MiB", "300 bytes".
std::string size_words(uint64_t bytes);

// The whole file, or an error naming it and what is wrong ("cannot open ...: No such file or
// directory", "cannot read ...: it is a FIFO, not a regular file",
// "... is 3000000 bytes, more than the 1 MiB such a file may be").
Result<std::string> read_user_file(const std::string& path, uint64_t limit);

}  // namespace coop
