// What the window shows of a user's program besides its launches: the compiler's errors by line
// of the user's file, and what the program printed, kept bounded however much it prints.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "app/program/child_process.hpp"
#include "app/program/compile_errors.hpp"
#include "app/program/program.hpp"

namespace coop::app {
namespace {

TEST(CompileErrors, EachErrorAtItsLineOfTheUsersFileOnly) {
  const std::string output =
      "/home/me/work/own.cu: In function 'void k(int*)':\n"
      "/home/me/work/own.cu:5:58: error: expected ';' before '}' token\n"
      "/home/me/work/own.cu:5:58: note: a note is not an error\n"
      "/usr/include/other.h:40:1: error: an error in another file\n"
      "own.cu:12:3: warning: a warning is not an error\n"
      "own.cu(17): error: identifier \"x\" is undefined\n"
      "./own.cu:21: fatal error: missing.h: No such file or directory\n";
  const std::vector<CompileError> errors = compile_errors(output, "work/own.cu");
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].line, 5);
  EXPECT_EQ(errors[0].text, "own.cu:5: error: expected ';' before '}' token");
  EXPECT_EQ(errors[1].line, 17);
  EXPECT_EQ(errors[1].text, "own.cu:17: error: identifier \"x\" is undefined");
  EXPECT_EQ(errors[2].line, 21);
  EXPECT_EQ(errors[2].text, "own.cu:21: fatal error: missing.h: No such file or directory");
  // A file whose name only ends like it is another file.
  EXPECT_TRUE(compile_errors("myown.cu:3:1: error: x\n", "own.cu").empty());
  EXPECT_TRUE(compile_errors(output, "other.cu").empty());
}

// A program that prints far more than the window keeps: the last bytes are kept, after a line
// that says how much was cut, and coopviz never holds the rest.
TEST(ProgramOutput, APrintingLoopKeepsItsLastBytesAndSaysWhatWasCut) {
  std::string output;
  ChildLimits limits;
  limits.wall_seconds = 60;
  limits.output_bytes = kProgramOutputKeep;
  limits.keep_last_output = true;
  // 8 MiB of lines, then the verdict, as a program prints it last.
  Result<ChildEnd> end = run_supervised(
      [] {
        execl("/bin/sh", "sh", "-c",
              "head -c 8388608 /dev/zero | tr '\\0' 'x' | fold -w 63; echo; echo 'sum: FAILED'",
              static_cast<char*>(nullptr));
      },
      limits, &output);
  ASSERT_TRUE(end) << end.status().message();
  EXPECT_LE(output.size(), kProgramOutputKeep + 200);
  EXPECT_TRUE(output.ends_with("sum: FAILED\n")) << output.substr(output.size() - 100);
  EXPECT_TRUE(output.starts_with("[coopviz: the output was cut: the first "))
      << output.substr(0, 200);
  // What is kept starts at a line: the one after the note is a whole line of the program's.
  const size_t second = output.find('\n') + 1;
  EXPECT_EQ(output.substr(second, 64), std::string(63, 'x') + "\n");
  // 8 MiB of x in lines of 63 (the last one shorter, ended by the echo), and the verdict.
  const uint64_t total = 8388608 + 8388608 / 63 + 1 + 12;
  EXPECT_NE(output.find(" bytes of " + std::to_string(total) + " were dropped"), std::string::npos)
      << output.substr(0, 200);
}

}  // namespace
}  // namespace coop::app
