// The kernel-source colouring lexer.
#include <gtest/gtest.h>

#include <string>

#include "visual/syntax.hpp"

namespace coop::visual {
namespace {

std::string kinds(std::string_view line, bool& in_comment) {
  std::string out;
  for (const Token& t : tokenize_line(line, in_comment))
    if (line.substr(t.begin, t.end - t.begin).find_first_not_of(" ") != std::string_view::npos)
      out += std::string(line.substr(t.begin, t.end - t.begin)) + ":" +
             std::to_string(int(t.kind)) + " ";
  return out;
}

TEST(Syntax, ColoursCudaAndCooperativeGroups) {
  bool c = false;
  const std::string_view line = "__global__ void f(int* x) { cg::sync(g); return 42; } // done";
  const auto tokens = tokenize_line(line, c);
  ASSERT_FALSE(tokens.empty());
  EXPECT_EQ(tokens.front().begin, 0u);
  EXPECT_EQ(tokens.back().end, line.size()) << "tokens cover the whole line";
  for (size_t i = 1; i < tokens.size(); ++i) EXPECT_EQ(tokens[i].begin, tokens[i - 1].end);
  auto kind_of = [&](std::string_view word) {
    for (const Token& t : tokens)
      if (line.substr(t.begin, t.end - t.begin) == word) return t.kind;
    return TokenKind::Text;
  };
  EXPECT_EQ(kind_of("__global__"), TokenKind::Qualifier);
  EXPECT_EQ(kind_of("void"), TokenKind::Type);
  EXPECT_EQ(kind_of("return"), TokenKind::Keyword);
  EXPECT_EQ(kind_of("sync"), TokenKind::CoopName);
  EXPECT_EQ(kind_of("42"), TokenKind::Number);
  EXPECT_EQ(kind_of("// done"), TokenKind::Comment);
  EXPECT_FALSE(c);
}

TEST(Syntax, BlockCommentsSpanLinesAndPreprocessorLinesAreWhole) {
  bool c = false;
  tokenize_line("int a; /* starts", c);
  EXPECT_TRUE(c);
  const auto inside = tokenize_line("still a comment", c);
  ASSERT_EQ(inside.size(), 1u);
  EXPECT_EQ(inside[0].kind, TokenKind::Comment);
  const auto closing = tokenize_line("ends */ int b;", c);
  EXPECT_FALSE(c);
  EXPECT_EQ(closing.front().kind, TokenKind::Comment);
  EXPECT_EQ(closing.front().end, 7u);
  const auto pre = tokenize_line("#include \"x.hpp\"", c);
  ASSERT_EQ(pre.size(), 1u);
  EXPECT_EQ(pre[0].kind, TokenKind::Preprocessor);
  const auto str = tokenize_line("f(\"a \\\" b\", 'c');", c);
  ASSERT_GE(str.size(), 2u);
  EXPECT_EQ(str[0].kind, TokenKind::Text) << "f( merges into one plain token";
  EXPECT_EQ(str[1].kind, TokenKind::String);
  EXPECT_EQ(str[1].end - str[1].begin, 8u) << "escaped quote stays inside the string";
}

TEST(Syntax, SplitsLines) {
  EXPECT_EQ(split_lines("a\nb\r\n\nc"), (std::vector<std::string_view>{"a", "b", "", "c"}));
  EXPECT_TRUE(split_lines("").empty());
}

}  // namespace
}  // namespace coop::visual
