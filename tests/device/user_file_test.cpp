// Files a user names are read only when they are regular files under a size limit: a FIFO, a
// device, a folder or an oversized file is refused at once, by name and limit, never waited on
// or read without end.
#include "device/trace/user_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "device/trace/trace_file.hpp"
#include "tests/app/run_coopviz.hpp"

namespace coop {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::seconds;

fs::path write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

TEST(UserFiles, OnlyRegularFilesUnderTheLimitAreRead) {
  const fs::path dir = coop::testing::fresh_folder("user-files");
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto refused = [](const std::string& path, uint64_t limit) {
    Result<std::string> r = read_user_file(path, limit);
    return r.ok() ? std::string("read") : r.status().message();
  };
  EXPECT_EQ(refused(fifo.string(), kTextFileLimit),
            "cannot read " + fifo.string() + ": it is a FIFO, not a regular file");
  EXPECT_EQ(refused("/dev/zero", kTextFileLimit),
            "cannot read /dev/zero: it is a character device, not a regular file");
  EXPECT_EQ(refused((dir / "none").string(), kTextFileLimit),
            "cannot open " + (dir / "none").string() + ": No such file or directory");
  EXPECT_EQ(refused(dir.string(), kTextFileLimit),
            "cannot read " + dir.string() + ": it is a folder, not a regular file");
  const fs::path big = write_file(dir / "big.txt", std::string(kTextFileLimit + 1, 'x'));
  EXPECT_EQ(refused(big.string(), kTextFileLimit),
            big.string() + " is 1048577 bytes, more than the 1 MiB such a file may be");
  const fs::path fits = write_file(dir / "fits.txt", std::string(kTextFileLimit, 'y'));
  Result<std::string> read = read_user_file(fits.string(), kTextFileLimit);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, std::string(kTextFileLimit, 'y'));
  fs::remove_all(dir);
}

TEST(UserFiles, ATraceFileThatIsAFifoIsRefusedAtOnce) {
  const fs::path dir = coop::testing::fresh_folder("trace-fifo");
  const fs::path fifo = dir / "launches.cvt";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto start = Clock::now();
  Result<std::vector<Trace>> traces = load_traces(fifo.string());
  ASSERT_FALSE(traces.ok());
  EXPECT_LT(Clock::now() - start, seconds(1));
  EXPECT_EQ(traces.status().message(),
            "cannot read " + fifo.string() + ": it is a FIFO, not a regular file");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace coop
