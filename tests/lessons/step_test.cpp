// Lesson steps as lesson.md declares them: what parses, and errors that name the file and line.
#include <gtest/gtest.h>

#include "lessons/lesson.hpp"
#include "lessons/step.hpp"

namespace coop::lessons {
namespace {

constexpr const char* kLesson = R"(# A lesson

Some text.

## Steps

### First look

```step
kernel: where_am_i
launch: 2
moment: last group_create
colour: tile
tab: events
select: warp 1 of block 2
line: cg::this_thread_block()
line: block.sync();
param: pass=1
grid: 4
block: 8,4,2
zoom: 16
```

What the student sees,
on two lines.

### Second look

```step
kernel: pass_handles
moment: end
colour: blockIdx
tab: checks
line: x
```
)";

TEST(LessonSteps, ParseTextAndEveryKey) {
  Result<LessonMarkdown> md = parse_lesson_markdown(kLesson, "lesson.md");
  ASSERT_TRUE(md.ok()) << md.message();
  EXPECT_EQ(md->text, "# A lesson\n\nSome text.\n\n");
  ASSERT_EQ(md->steps.size(), 2u);
  const Step& s = md->steps[0];
  EXPECT_EQ(s.title, "First look");
  EXPECT_EQ(s.text, "What the student sees,\non two lines.");
  EXPECT_EQ(s.md_line, 7);
  EXPECT_EQ(s.kernel, "where_am_i");
  EXPECT_EQ(s.launch, 2);
  EXPECT_EQ(s.moment.which, MomentSpec::Which::Last);
  EXPECT_EQ(s.colour.by, StepColour::By::Group);
  EXPECT_EQ(s.colour.group, GroupKind::Tile);
  EXPECT_EQ(s.tab, "events");
  EXPECT_EQ(s.select.scope, StepSelection::Scope::Warp);
  EXPECT_EQ(s.select.warp, 1u);
  EXPECT_EQ(s.select.block, 2u);
  EXPECT_EQ(s.code, (std::vector<std::string>{"cg::this_thread_block()", "block.sync();"}));
  EXPECT_EQ(s.params.at("pass"), 1);
  EXPECT_EQ(*s.grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(*s.block, (Dim3{8, 4, 2}));
  EXPECT_EQ(s.zoom, 16.0f);
  EXPECT_EQ(md->steps[1].colour.by, StepColour::By::BlockIdx);
  EXPECT_EQ(md->steps[1].moment.which, MomentSpec::Which::End);
}

TEST(LessonSteps, WithoutStepsTheWholeFileIsText) {
  Result<LessonMarkdown> md = parse_lesson_markdown("# Only text\n", "x.md");
  ASSERT_TRUE(md.ok());
  EXPECT_TRUE(md->steps.empty());
  EXPECT_EQ(md->text, "# Only text\n");
}

TEST(LessonSteps, ErrorsNameTheFileLineAndProblem) {
  auto error_of = [](const std::string& steps) {
    Result<LessonMarkdown> md = parse_lesson_markdown("intro\n## Steps\n" + steps, "l.md");
    return md.ok() ? std::string("accepted") : md.message();
  };
  const std::string block = "### S\n```step\nkernel: k\nmoment: end\ncolour: block\ntab: checks\n";
  EXPECT_EQ(error_of(block + "line: x\n```\n"), "accepted");
  EXPECT_NE(error_of(block + "line: x\nwho: me\n```\n").find("l.md:10: unknown key 'who'"),
            std::string::npos);
  EXPECT_NE(error_of(block + "```\n").find("l.md:3: step 'S': the step block lacks line"),
            std::string::npos);
  EXPECT_NE(error_of(block + "line: x\n").find("block is not closed"), std::string::npos);
  EXPECT_NE(error_of("stray\n").find("l.md:3: text after \"## Steps\""), std::string::npos);
  EXPECT_NE(error_of("### S\nno block\n").find("a ```step block must follow"), std::string::npos);
  EXPECT_NE(error_of(block + "line: x\nmoment: soon\n```\n").find("l.md:10: moment 'soon'"),
            std::string::npos);
  EXPECT_NE(error_of(block + "line: x\ncolour: purple\n```\n").find("colour 'purple'"),
            std::string::npos);
  EXPECT_NE(error_of(block + "line: x\nselect: lane 3\n```\n").find("select 'lane 3'"),
            std::string::npos);
  EXPECT_NE(error_of(block + "line: x\nzoom: 99\n```\n").find("zoom '99'"), std::string::npos);
  EXPECT_NE(error_of(block + "line: x\nblock: 0\n```\n").find("block"), std::string::npos);
  const std::string no_colour = "### S\n```step\nkernel: k\nmoment: end\ntab: checks\nline: x\n```\n";
  EXPECT_NE(error_of(no_colour).find("lacks colour"), std::string::npos);
}

// A step shows data races only where it says so; anything but on or off is refused by name.
TEST(LessonSteps, RacesAreOffUnlessTheStepSwitchesThemOn) {
  const std::string step =
      "### S\n```step\nkernel: k\nmoment: end\ncolour: block\ntab: checks\nline: x\n";
  auto races_of = [&](const std::string& extra) -> Result<bool> {
    Result<LessonMarkdown> md =
        parse_lesson_markdown("## Steps\n" + step + extra + "```\n", "l.md");
    if (!md) return md.status();
    return md->steps.at(0).races;
  };
  EXPECT_FALSE(*races_of(""));
  EXPECT_TRUE(*races_of("races: on\n"));
  EXPECT_FALSE(*races_of("races: off\n"));
  const Result<bool> bad = races_of("races: yes\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("l.md:9: races 'yes': on or off"), std::string::npos)
      << bad.message();
}

TEST(KernelLines, FindTheKernelsDefinitionAndNotANameThatContainsIt) {
  constexpr const char* kSource = R"(#include <x>
__global__ void reduce_block_twice(int* a) {
  a[0] = 1;
}
template <int N>
__global__ void reduce_block(int* a) {
  if (a) {
    a[0] = 2;
  }
}
)";
  EXPECT_EQ(kernel_lines(kSource, "reduce_block"), std::make_pair(6, 10));
  EXPECT_EQ(kernel_lines(kSource, "reduce_block_twice"), std::make_pair(2, 4));
  EXPECT_EQ(kernel_lines(kSource, "missing"), std::make_pair(0, 0));
}

}  // namespace
}  // namespace coop::lessons
