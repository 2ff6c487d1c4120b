# Single-source kernel folders.
#
# coopviz_kernels(target dir name): dir/<name>.cuh holds kernels written once for both backends.
#   Their bindings are generated from it at build time (coopviz-lower kernels, see
#   device/lowering/kernel_bindings.hpp): <folder>/kernels.hpp, which code includes to reach the
#   kernels (struct Kernels, kernels()), kernels.cu with the GPU entries (nvcc) and
#   kernels_emu.cpp with the emulator entries (host compiler, including the lowered
#   <name>.emu.cuh generated beside them). <folder> is dir relative to the source tree
#   ("lessons/block_reduce"); the files lie in ${COOPVIZ_KERNEL_BINDINGS_DIR}/<folder>/.
#
# coopviz_kernel_resources(folder dir [PTX_ARCH nn]): registers per thread,
#   static shared memory, stack and spills of every kernel in the folder's generated kernels.cu,
#   known without a GPU.
#   The file is compiled once more, to PTX for compute_75 (the oldest architecture nvcc 13
#   targets, so the PTX assembles for every newer one; a lesson that needs a newer one, e.g. for
#   clusters, says PTX_ARCH 90 and gets reports from sm_90 up); coopviz_resources runs `ptxas -v` on it for each architecture
#   in COOPVIZ_RESOURCE_ARCHS and writes a table that registers itself at start-up (a lesson
#   program's reports under register caps are made at run time: lesson.json's register_caps). The table
#   lives in the OBJECT library coopviz_kernel_resources, which executables link directly so the
#   registration is never dropped by the static-library linker.
set(COOPVIZ_KERNEL_BINDINGS_DIR ${PROJECT_BINARY_DIR}/generated/kernels)
set(COOPVIZ_RESOURCE_ARCHS "75;80;86;87;89;90;100;103;110;120;121" CACHE STRING
    "Architectures (sm_XX numbers) whose lesson-kernel resource reports are compiled in")
find_program(COOPVIZ_PTXAS ptxas HINTS "${CUDAToolkit_BIN_DIR}" REQUIRED)

function(coopviz_kernel_resources folder dir)
  cmake_parse_arguments(ARG "" "PTX_ARCH" "" ${ARGN})
  if(NOT ARG_PTX_ARCH)
    set(ARG_PTX_ARCH 75)
  endif()
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated/${folder})
  file(MAKE_DIRECTORY ${gen})
  set(ptx coopviz_ptx_${folder})
  coopviz_kernel_bindings(bindings bind_target ${dir})
  add_library(${ptx} OBJECT ${bindings}/kernels.cu)
  add_dependencies(${ptx} ${bind_target})
  target_include_directories(${ptx} PRIVATE ${COOPVIZ_KERNEL_BINDINGS_DIR})
  set_target_properties(${ptx} PROPERTIES CUDA_PTX_COMPILATION ON
                                          CUDA_ARCHITECTURES ${ARG_PTX_ARCH}-virtual)
  target_link_libraries(${ptx} PRIVATE coopviz_device)
  # PTX assembles only for its own architecture and newer ones.
  set(arch_list "")
  foreach(a IN LISTS COOPVIZ_RESOURCE_ARCHS)
    if(a GREATER_EQUAL ARG_PTX_ARCH)
      list(APPEND arch_list ${a})
    endif()
  endforeach()
  string(REPLACE ";" "," archs "${arch_list}")
  add_custom_command(
    OUTPUT ${gen}/resources.cpp
    COMMAND coopviz_resources --ptxas=${COOPVIZ_PTXAS} --ptx=$<TARGET_OBJECTS:${ptx}>
            --out=${gen}/resources.cpp --symbol=${folder} --archs=${archs}
    DEPENDS coopviz_resources ${ptx} $<TARGET_OBJECTS:${ptx}>
    COMMENT "Compiler resource report (ptxas -v) of the ${folder} kernels"
    VERBATIM)
  target_sources(coopviz_kernel_resources PRIVATE ${gen}/resources.cpp)
endfunction()

# coopviz_instrument_memory(source): compiles an emulator kernel file so that every load and
#   store calls coopviz's memory recorder (device/emu/memory_record.hpp): g++'s ThreadSanitizer
#   instrumentation without its runtime (its warning that fences go unseen does not apply: the
#   emulator orders nothing through them), volatile accesses through their own hooks (step points
#   under every schedule, memory_hooks.cpp), and line tables (-g1) to name each access's line. User
#   programs get the same flags (app/program). A sanitizer build (CMAKE_CXX_FLAGS with
#   -fsanitize) cannot add a second sanitizer: there kernels stay uninstrumented and
#   memory_instrumentation_available() says so.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  set(COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS "")
else()
  set(COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS
      -fsanitize=thread --param=tsan-instrument-func-entry-exit=0
      --param=tsan-distinguish-volatile=1 -Wno-tsan -g1)
endif()
function(coopviz_instrument_memory source)
  if(COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS)
    set_property(SOURCE ${source} APPEND PROPERTY COMPILE_OPTIONS
                 ${COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS})
  endif()
endfunction()

# coopviz_kernel_bindings(out_dir out_target dir): where the bindings of kernel folder `dir` are
# generated, and the target that generates them.
function(coopviz_kernel_bindings out_dir out_target dir)
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${dir})
  string(REPLACE "/" "_" flat ${folder})
  set(${out_dir} ${COOPVIZ_KERNEL_BINDINGS_DIR}/${folder} PARENT_SCOPE)
  set(${out_target} coopviz_bind_${flat} PARENT_SCOPE)
endfunction()

function(coopviz_kernels target dir name)
  coopviz_bind_kernel_file(${target} ${dir} ${dir}/${name}.cuh)
endfunction()

# coopviz_program_kernels(target program name FIRST first END end): the kernels of the ordinary
#   CUDA program `program`, bound as coopviz_kernels binds a kernel file, for C++ code that launches
#   them itself (the reduction benchmark times the reduction-performance program's kernels so).
#   They are the program's lines from "// [SECTION] <first>" up to "// [SECTION] <end>", which
#   CoopvizProgramKernels.cmake wraps as the kernel file <name>.cuh beside the generated bindings;
#   the bindings' folder is the program's, so code includes "<its folder>/kernels.hpp".
function(coopviz_program_kernels target program name)
  cmake_parse_arguments(ARG "" "FIRST;END" "" ${ARGN})
  get_filename_component(dir ${program} DIRECTORY)
  get_filename_component(folder ${dir} NAME)
  coopviz_kernel_bindings(gen bind_target ${dir})
  add_custom_command(
    OUTPUT ${gen}/${name}.cuh
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=${program} -DOUT=${gen}/${name}.cuh -DNAMESPACE=${folder}
            "-DFIRST=${ARG_FIRST}" "-DEND=${ARG_END}"
            -P ${PROJECT_SOURCE_DIR}/cmake/CoopvizProgramKernels.cmake
    DEPENDS ${program} ${PROJECT_SOURCE_DIR}/cmake/CoopvizProgramKernels.cmake
    COMMENT "The kernel sections of ${program}")
  coopviz_bind_kernel_file(${target} ${dir} ${gen}/${name}.cuh)
endfunction()

# coopviz_bind_kernel_file(target dir file): the bindings of kernel file `file` (see
# coopviz_kernels), generated for kernel folder `dir` and compiled into `target`.
function(coopviz_bind_kernel_file target dir file)
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${dir})
  get_filename_component(name ${file} NAME_WE)
  coopviz_kernel_bindings(gen bind_target ${dir})
  set(outputs ${gen}/kernels.hpp ${gen}/kernels.cu ${gen}/kernels_emu.cpp ${gen}/${name}.emu.cuh)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND coopviz_lower kernels ${file} ${folder} ${gen}
    DEPENDS coopviz_lower ${file}
    COMMENT "Kernel bindings of ${folder}/${name}.cuh, and the file lowered for the emulator")
  # One target owns the generation, so that the targets compiling the files (the library and a
  # lesson's PTX for the resource report) never run it twice at once.
  add_custom_target(${bind_target} DEPENDS ${outputs})
  add_dependencies(${target} ${bind_target})
  target_sources(${target} PRIVATE ${outputs})
  target_include_directories(${target} PUBLIC ${COOPVIZ_KERNEL_BINDINGS_DIR})
  # No fused multiply-add on the GPU side: the host compiler does not fuse a*b+c either, and the
  # two backends must round every operation the same way to agree bit for bit.
  set_property(SOURCE ${gen}/kernels.cu APPEND PROPERTY COMPILE_OPTIONS --fmad=false)
  coopviz_instrument_memory(${gen}/kernels_emu.cpp)
endfunction()

# coopviz_find_program_lessons(out dir): the lesson folders in `dir` (lessons/lesson_folder.hpp):
# those with a lesson.md and a lesson.json, sorted. Adding or removing one re-runs CMake.
function(coopviz_find_program_lessons out dir)
  file(GLOB declarations CONFIGURE_DEPENDS ${dir}/*/lesson.json)
  set(folders "")
  foreach(declaration IN LISTS declarations)
    get_filename_component(lesson_dir ${declaration} DIRECTORY)
    if(EXISTS ${lesson_dir}/lesson.md)
      get_filename_component(folder ${lesson_dir} NAME)
      list(APPEND folders ${folder})
    endif()
  endforeach()
  list(SORT folders)
  set(${out} ${folders} PARENT_SCOPE)
endfunction()

# coopviz_lesson_tests(target): each lesson folder's tests, test.cpp and any *_test.cpp, compiled
# into `target`. Adding a test file re-runs CMake.
function(coopviz_lesson_tests target)
  coopviz_find_program_lessons(folders ${PROJECT_SOURCE_DIR}/lessons)
  foreach(folder IN LISTS folders)
    file(GLOB tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lessons/${folder}/test.cpp
                                      ${PROJECT_SOURCE_DIR}/lessons/${folder}/*_test.cpp)
    target_sources(${target} PRIVATE ${tests})
  endforeach()
endfunction()

# coopviz_program_check(file): compiles the ordinary CUDA program `file` for both backends as
#   `coopviz run` would, without linking or running it: lowered for the emulator and built by the
#   host compiler against the emulator's runtime, and lowered for nvcc and built with coop's traced
#   Cooperative Groups (for every CMAKE_CUDA_ARCHITECTURES entry). A program that uses every name
#   of the traced API thus breaks the build when one backend's declaration drifts.
function(coopviz_program_check file)
  get_filename_component(name ${file} NAME_WE)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated/program_checks)
  file(MAKE_DIRECTORY ${gen})
  add_custom_command(
    OUTPUT ${gen}/${name}.emu.cpp
    COMMAND coopviz_lower lower-program ${file} ${gen}/${name}.emu.cpp
    DEPENDS coopviz_lower ${file}
    COMMENT "Lowering ${name}.cu for the emulator")
  add_custom_command(
    OUTPUT ${gen}/${name}.gpu.cu
    COMMAND coopviz_lower lower-gpu-program ${file} ${gen}/${name}.gpu.cu
    DEPENDS coopviz_lower ${file}
    COMMENT "Lowering ${name}.cu for nvcc")
  # The include folders and flags of app/program/program.cpp's two commands.
  add_library(coopviz_check_${name}_emu OBJECT ${gen}/${name}.emu.cpp)
  target_include_directories(coopviz_check_${name}_emu PRIVATE
    ${PROJECT_SOURCE_DIR}/device/byo/include ${PROJECT_SOURCE_DIR})
  target_include_directories(coopviz_check_${name}_emu SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
  target_compile_definitions(coopviz_check_${name}_emu PRIVATE __CUDA_ARCH__=900)
  add_library(coopviz_check_${name}_gpu OBJECT ${gen}/${name}.gpu.cu)
  target_include_directories(coopviz_check_${name}_gpu PRIVATE
    ${PROJECT_SOURCE_DIR}/device/byo/gpu_include ${PROJECT_SOURCE_DIR})
  target_compile_options(coopviz_check_${name}_gpu PRIVATE --fmad=false)
endfunction()

# coopviz_program_lesson(folder): a lesson that is an ordinary CUDA program, read at run time:
# nothing of it is compiled into coopviz; installed whole, for an installed coopviz to find (its
# ncu.json too, the GPU's counters the Memory tab shows).
function(coopviz_program_lesson folder)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${folder})
  file(GLOB files ${dir}/lesson.json ${dir}/lesson.md ${dir}/ncu.json ${dir}/*.cu ${dir}/*.cuh
                  ${dir}/*.h ${dir}/*.hpp)
  install(FILES ${files} DESTINATION ${COOPVIZ_INSTALL_DATADIR}/lessons/${folder})
  if(IS_DIRECTORY ${dir}/exercises)
    install(DIRECTORY ${dir}/exercises DESTINATION ${COOPVIZ_INSTALL_DATADIR}/lessons/${folder})
  endif()
endfunction()

# coopviz_embed_optional(target file symbol): embeds `file` as `extern const char symbol[]`, or an
# empty string while the file does not exist. Adding the file later re-runs CMake (its folder is a
# configure dependency), so the next build picks it up.
function(coopviz_embed_optional target file symbol)
  get_filename_component(folder ${file} DIRECTORY)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/generated/embedded/${symbol}.cpp)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/generated/embedded)
  if(EXISTS ${folder})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${folder})
  endif()
  if(EXISTS ${file})
    add_custom_command(
      OUTPUT ${out}
      COMMAND coopviz_lower embed ${file} ${out} ${symbol}
      DEPENDS coopviz_lower ${file})
  else()
    file(WRITE ${out}.in "// Generated: ${file} does not exist yet.\n"
                         "extern const char ${symbol}[] = \"\";\n")
    configure_file(${out}.in ${out} COPYONLY)
  endif()
  target_sources(${target} PRIVATE ${out})
endfunction()
