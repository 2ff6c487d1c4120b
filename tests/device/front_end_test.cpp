// The front end's edits as coopviz reads and applies them (device/lowering/front_end.hpp); what
// the front end finds in real programs is tested through them (tests/app/launch_forms_test.cpp).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "device/lowering/front_end.hpp"

namespace {

using coop::FrontEndEdits;
using coop::SourceKind;

TEST(FrontEnd, ReadsItsOutputAndSkipsClangsOwnWords) {
  const auto edits = coop::read_front_end_output(
      "clang: warning: argument unused\n"
      "frontend 1 errors=3 launches=1 shared=2\n"
      "edit launch 10 0 ::coop::byo::launcher(\"k\", \n"
      "edit shared 20 5 a\\nb\\\\c\n"
      "skip p.cu:4: a __shared__ initializer\n"
      "skip p.cu:7: not shown: `out[t] += 1` updates an element in place\n");
  ASSERT_TRUE(edits.ok()) << edits.status().message();
  EXPECT_EQ(edits->clang_errors, 3);
  EXPECT_EQ(edits->launches, 1);
  EXPECT_EQ(edits->shared_variables, 2);
  ASSERT_EQ(edits->edits.size(), 2u);
  EXPECT_EQ(edits->edits[0].text, "::coop::byo::launcher(\"k\", ");
  EXPECT_EQ(edits->edits[0].kind, coop::EditKind::Launch);
  EXPECT_EQ(edits->edits[1].offset, 20u);
  EXPECT_EQ(edits->edits[1].length, 5u);
  EXPECT_EQ(edits->edits[1].text, "a\nb\\c");
  EXPECT_EQ(edits->edits[1].kind, coop::EditKind::Shared);
  ASSERT_EQ(edits->skipped.size(), 1u);
  EXPECT_EQ(edits->skipped[0], "p.cu:4: a __shared__ initializer");
  // What a program's shown accesses leave plain is kept apart, to be said to its user.
  EXPECT_EQ(edits->not_shown,
            std::vector<std::string>{"p.cu:7: not shown: `out[t] += 1` updates an element in place"});
}

TEST(FrontEnd, RefusesOutputItCannotTrust) {
  EXPECT_FALSE(coop::read_front_end_output("").ok());
  const auto other = coop::read_front_end_output("frontend 2 errors=0\n");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("version 2"), std::string::npos);
  EXPECT_FALSE(
      coop::read_front_end_output("frontend 1\nedit launch 9 1 x\nedit launch 5 0 y\n").ok());
  EXPECT_FALSE(coop::read_front_end_output("frontend 1\nedit other 1 1 x\n").ok());
}

// Launch edits apply to every kind; __shared__ ones to the emulator's alone (nvcc knows
// __shared__); shown accesses' and block records' to kernel code, the emulator's and nvcc's,
// never the host half's.
TEST(FrontEnd, AppliesEachEditToTheKindsItLowers) {
  const std::string text = "k<<<1, 2>>>(x);\n__shared__ int a, b;\nout[t] = v;\n{}\n";
  const auto edits = coop::read_front_end_output(
      "frontend 1 errors=0 launches=1 shared=2 shown=1 blocks=1\n"
      "edit launch 0 0 L(\"k\", \n"
      "edit launch 1 3 , \n"
      "edit launch 8 3 )\n"
      "edit shared 16 20 A; B;\n"
      "edit shown 37 0 T(\n"
      "edit shown 43 0 )\n"
      "edit blocks 50 0 R(3);\n");
  ASSERT_TRUE(edits.ok()) << edits.status().message();
  EXPECT_EQ(edits->edits.back().kind, coop::EditKind::BlockRecord);
  const std::map<SourceKind, std::string> lowered = {
      {SourceKind::Program, "L(\"k\", k, 1, 2)(x);\nA; B;\nT(out[t]) = v;\n{R(3);}\n"},
      {SourceKind::GpuProgram,
       "L(\"k\", k, 1, 2)(x);\n__shared__ int a, b;\nT(out[t]) = v;\n{R(3);}\n"},
      {SourceKind::GpuHost, "L(\"k\", k, 1, 2)(x);\n__shared__ int a, b;\nout[t] = v;\n{}\n"}};
  for (const auto& [kind, expected] : lowered) {
    const auto applied = coop::apply_front_end_edits(text, *edits, kind);
    ASSERT_TRUE(applied.ok()) << applied.status().message();
    EXPECT_EQ(*applied, expected);
  }
}

TEST(FrontEnd, AnEditOutsideTheTextIsAnError) {
  FrontEndEdits edits;
  edits.edits.push_back({30, 2, "x"});
  const auto r = coop::apply_front_end_edits("short", edits, SourceKind::Program);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("5-byte source"), std::string::npos);
}

}  // namespace
