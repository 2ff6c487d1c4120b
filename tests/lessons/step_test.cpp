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
  EXPECT_NE(error_of("### S\n```step\nmoment: soon\n```\n").find("l.md:5: moment 'soon'"),
            std::string::npos);
  EXPECT_NE(error_of("### S\n```step\ncolour: purple\n```\n").find("colour 'purple'"),
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

// Nothing after "## Steps" is passed over: a mistake that used to be read as text, or to swallow
// the next step, is an error at its line, and every mistake of the file is said, each once.
TEST(LessonSteps, NoLineIsSilentlyIgnored) {
  auto errors_of = [](const std::string& md) {
    Result<LessonMarkdown> r = parse_lesson_markdown(md, "l.md");
    return r.ok() ? std::string("accepted") : r.message();
  };
  const std::string block =
      "```step\nkernel: k\nmoment: end\ncolour: block\ntab: checks\nline: x\n```\n";
  // An unclosed question block took the next step (heading, block and all) as its body.
  const std::string swallowed = errors_of("## Steps\n### A\n" + block +
                                          "Text.\n```question\n"
                                          "id: q\n### B\n" +
                                          block);
  EXPECT_NE(swallowed.find("l.md:11: step 'A': its ```question block is not closed"),
            std::string::npos)
      << swallowed;
  Result<LessonMarkdown> kept = parse_lesson_markdown("## Steps\n### A\n" + block, "l.md");
  ASSERT_TRUE(kept.ok()) << kept.message();
  // A step block whose closing fence is missing: said once, not once for each line of text.
  EXPECT_EQ(errors_of("## Steps\n### A\n" + block.substr(0, block.size() - 4) +
                      "The step's text, read as keys.\nMore of it.\n### B\n" + block),
            "l.md:3: step 'A': its ```step block is not closed (a ``` line)");
  // A second step block under one heading was read as the step's text.
  EXPECT_NE(errors_of("## Steps\n### A\n" + block + block)
                .find("l.md:10: step 'A': a second "
                      "```step block"),
            std::string::npos);
  // A heading of the lesson text among the steps, and a step block before "## Steps".
  EXPECT_NE(errors_of("## Steps\n### A\n" + block + "## More\n").find("l.md:10: '## More' among"),
            std::string::npos);
  EXPECT_NE(errors_of("Intro\n" + block + "## Steps\n### A\n" + block)
                .find("l.md:2: a ```step block before the \"## Steps\" heading"),
            std::string::npos);
  EXPECT_NE(errors_of("Intro\n" + block).find("l.md:2: a ```step block before"), std::string::npos)
      << "a lesson.md without \"## Steps\" but with a step block";
  // A key given twice (the second used to win), a key without a value, a heading without a title.
  EXPECT_NE(errors_of("## Steps\n### A\n```step\nkernel: k\nkernel: j\n")
                .find("l.md:5: 'kernel' is given twice in one step block (first on line 4)"),
            std::string::npos);
  EXPECT_NE(errors_of("## Steps\n### A\n```step\nkernel:\n").find("l.md:4: 'kernel' has no value"),
            std::string::npos);
  EXPECT_NE(errors_of("## Steps\n### \n" + block).find("l.md:2: a step heading without a title"),
            std::string::npos);
  // A code block of the text that is never closed would hide the next step in the window.
  EXPECT_NE(errors_of("## Steps\n### A\n" + block + "```cpp\nint x;\n### B\n" + block)
                .find("l.md:10: step 'A': this code block is not closed"),
            std::string::npos);
  // Every mistake, one a line, each once.
  const std::string two = errors_of("## Steps\n### A\n```step\nwho: me\n" + block.substr(8) +
                                    "### B\n```step\nzoom: 99\n" + block.substr(8));
  EXPECT_EQ(two,
            "l.md:4: unknown key 'who' (kernel, launch, moment, colour, tab, select, line, param, "
            "grid, block, zoom, races)\nl.md:13: zoom '99': fit, or 2 to 48 pixels");
}

// What a step names must be in the lesson: its kernel and its lines.
TEST(LessonSteps, WhatAStepNamesIsCheckedAgainstTheKernelFile) {
  LessonDef l;
  l.id = "probe";
  l.source = "__global__ void k(int* a) {\n  a[threadIdx.x] = 1;\n}\n";
  l.source_file = "probe.cuh";
  l.default_config.grid = {2, 1, 1};
  l.default_config.block = {64, 1, 1};
  const std::string md =
      "Text.\n## Steps\n### A\n```step\nkernel: k\nmoment: end\ncolour: block\ntab: checks\n"
      "line: a[threadIdx.x]\n```\n### B\n```step\nkernel: gone\nmoment: end\ncolour: block\n"
      "tab: checks\nline: a[threadIdx.y]\n```\n";
  read_lesson_markdown(l, md, "lessons/probe/lesson.md");
  EXPECT_EQ(l.steps.size(), 2u) << "steps that parse are kept";
  EXPECT_EQ(l.steps_error,
            "lessons/probe/lesson.md:13: step 'B': kernel 'gone': probe.cuh defines no __global__ "
            "function of that name\n"
            "lessons/probe/lesson.md:17: step 'B': line 'a[threadIdx.y]': no line of probe.cuh "
            "holds it");
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
