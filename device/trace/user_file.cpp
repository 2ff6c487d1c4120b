#include "device/trace/user_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace coop {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

Status too_big(const std::string& path, uint64_t size, uint64_t limit) {
  return Status::error(path + " is " + std::to_string(size) + " bytes, more than the " +
                       size_words(limit) + " such a file may be");
}

}  // namespace

std::string size_words(uint64_t bytes) {
  constexpr uint64_t kGiB = uint64_t(1) << 30, kMiB = uint64_t(1) << 20;
  char text[32];
  if (bytes >= kGiB && bytes % kGiB == 0)
    std::snprintf(text, sizeof text, "%llu GiB", static_cast<unsigned long long>(bytes / kGiB));
  else if (bytes >= kGiB)
    std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(kGiB));
  else if (bytes >= kMiB)
    std::snprintf(text, sizeof text, "%llu MiB", static_cast<unsigned long long>(bytes / kMiB));
  else
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  return text;
}

Result<std::string> read_user_file(const std::string& path, uint64_t limit) {
  // O_NONBLOCK: opening a FIFO no writer has opened would wait for one.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return Status::error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int e = errno;
    close(fd);
    return Status::error("cannot read " + path + ": " + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return Status::error("cannot read " + path + ": it is " + kind_of(st.st_mode) +
                         ", not a regular file");
  }
  if (uint64_t(st.st_size) > limit) {
    close(fd);
    return too_big(path, uint64_t(st.st_size), limit);
  }
  // At most one byte past the limit: a file that grows while it is read is refused too.
  std::string bytes(size_t(st.st_size) + 1, '\0');
  size_t got = 0;
  for (;;) {
    if (got == bytes.size()) {
      if (got > limit) break;
      bytes.resize(std::min<uint64_t>(limit + 1, bytes.size() * 2 + 4096));
    }
    const ssize_t n = read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      close(fd);
      return Status::error("cannot read " + path + ": " + std::strerror(e));
    }
    if (n == 0) break;
    got += size_t(n);
  }
  close(fd);
  if (got > limit) return too_big(path, got, limit);
  bytes.resize(got);
  return bytes;
}

}  // namespace coop
