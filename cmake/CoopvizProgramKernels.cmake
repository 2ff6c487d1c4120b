# Script (cmake -P), run by coopviz_program_kernels (CoopvizLesson.cmake): writes OUT, a kernel
# file made of the kernel sections of the ordinary CUDA program PROGRAM: its text from the line
# that starts "// [SECTION] FIRST" up to the line that starts "// [SECTION] END", wrapped as
# kernel files are (kernel_api.hpp, namespace coop::lessons::NAMESPACE) so C++ code can launch
# the program's kernels through coopviz's bindings. The program keeps the one copy of them.
# OUT is rewritten only when its text changes.
file(READ ${PROGRAM} text)
string(FIND "${text}" "\n// [SECTION] ${FIRST}" begin)
string(FIND "${text}" "\n// [SECTION] ${END}" end)
if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
  message(FATAL_ERROR "${PROGRAM}: the kernels must lie between a line \"// [SECTION] ${FIRST}\" "
                      "and a later line \"// [SECTION] ${END}\"")
endif()
math(EXPR length "${end} + 1 - ${begin}")
string(SUBSTRING "${text}" ${begin} ${length} kernels)
get_filename_component(program_name ${PROGRAM} NAME)
set(wrapped "// Generated from ${program_name}'s kernel sections (\"${FIRST}\" up to \"${END}\").
// Do not edit: change the program.
#pragma once
#include \"device/coop/kernel_api.hpp\"

namespace coop::lessons::${NAMESPACE} {
${kernels}
}  // namespace coop::lessons::${NAMESPACE}
")
file(WRITE ${OUT}.new "${wrapped}")
file(COPY_FILE ${OUT}.new ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.new)
