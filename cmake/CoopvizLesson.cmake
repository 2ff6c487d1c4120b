# Single-source kernel folders.
#
# coopviz_kernels(target dir name): dir/<name>.cuh holds kernels written once for both backends;
#   dir/kernels.cu binds the GPU entries (nvcc) and dir/kernels_emu.cpp the emulator entries
#   (host compiler, including the lowered <name>.emu.cuh generated here).
#
# coopviz_lesson(folder [PTX_ARCH nn] [REGISTER_CAPS n...]): a lesson folder lessons/<folder>/ with the above
#   plus lesson.cpp (definition, CPU reference, checks) and lesson.md (the text). The kernel file
#   and the text are embedded as coop_source_<folder> and coop_text_<folder>. The kernels'
#   compiler resource report goes into coopviz_kernel_resources (below). The text, the kernel
#   file and <folder>.cu (the lesson as a plain CUDA program, where there is one) are installed
#   in share/coopviz/lessons/<folder>/.
#
# coopviz_kernel_resources(folder dir [PTX_ARCH nn] [REGISTER_CAPS n...]): registers per thread,
#   static shared memory, stack and spills of every kernel in dir/kernels.cu, known without a GPU.
#   The file is compiled once more, to PTX for compute_75 (the oldest architecture nvcc 13
#   targets, so the PTX assembles for every newer one; a lesson that needs a newer one, e.g. for
#   clusters, says PTX_ARCH 90 and gets reports from sm_90 up); coopviz_resources runs `ptxas -v` on it for each architecture
#   in COOPVIZ_RESOURCE_ARCHS (and with -maxrregcount n for each REGISTER_CAPS value on
#   COOPVIZ_REGISTER_CAP_ARCHS) and writes a table that registers itself at start-up. The table
#   lives in the OBJECT library coopviz_kernel_resources, which executables link directly so the
#   registration is never dropped by the static-library linker.
set(COOPVIZ_RESOURCE_ARCHS "75;80;86;87;89;90;100;103;110;120;121" CACHE STRING
    "Architectures (sm_XX numbers) whose lesson-kernel resource reports are compiled in")
set(COOPVIZ_REGISTER_CAP_ARCHS "75;80;86;89;90;100;120" CACHE STRING
    "Architectures for which the --maxrregcount variants of lesson kernels are reported")
find_program(COOPVIZ_PTXAS ptxas HINTS "${CUDAToolkit_BIN_DIR}" REQUIRED)

function(coopviz_kernel_resources folder dir)
  cmake_parse_arguments(ARG "" "PTX_ARCH" "REGISTER_CAPS" ${ARGN})
  if(NOT ARG_PTX_ARCH)
    set(ARG_PTX_ARCH 75)
  endif()
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated/${folder})
  set(ptx coopviz_ptx_${folder})
  add_library(${ptx} OBJECT ${dir}/kernels.cu)
  set_target_properties(${ptx} PROPERTIES CUDA_PTX_COMPILATION ON
                                          CUDA_ARCHITECTURES ${ARG_PTX_ARCH}-virtual)
  target_link_libraries(${ptx} PRIVATE coopviz_device)
  # PTX assembles only for its own architecture and newer ones.
  set(arch_list "")
  set(cap_arch_list "")
  foreach(a IN LISTS COOPVIZ_RESOURCE_ARCHS)
    if(a GREATER_EQUAL ARG_PTX_ARCH)
      list(APPEND arch_list ${a})
    endif()
  endforeach()
  foreach(a IN LISTS COOPVIZ_REGISTER_CAP_ARCHS)
    if(a GREATER_EQUAL ARG_PTX_ARCH)
      list(APPEND cap_arch_list ${a})
    endif()
  endforeach()
  string(REPLACE ";" "," archs "${arch_list}")
  string(REPLACE ";" "," cap_archs "${cap_arch_list}")
  string(REPLACE ";" "," caps "${ARG_REGISTER_CAPS}")
  add_custom_command(
    OUTPUT ${gen}/resources.cpp
    COMMAND coopviz_resources --ptxas=${COOPVIZ_PTXAS} --ptx=$<TARGET_OBJECTS:${ptx}>
            --out=${gen}/resources.cpp --symbol=${folder} --archs=${archs} --caps=${caps}
            --cap-archs=${cap_archs}
    DEPENDS coopviz_resources ${ptx} $<TARGET_OBJECTS:${ptx}>
    COMMENT "Compiler resource report (ptxas -v) of the ${folder} kernels"
    VERBATIM)
  target_sources(coopviz_kernel_resources PRIVATE ${gen}/resources.cpp)
endfunction()

# coopviz_instrument_memory(source): compiles an emulator kernel file so that every load and
#   store calls coopviz's memory recorder (device/emu/memory_record.hpp): g++'s ThreadSanitizer
#   instrumentation without its runtime (its warning that fences go unseen does not apply: the
#   emulator orders nothing through them), and line tables (-g1) to name each access's line. User
#   programs get the same flags (app/program). A sanitizer build (CMAKE_CXX_FLAGS with
#   -fsanitize) cannot add a second sanitizer: there kernels stay uninstrumented and
#   memory_instrumentation_available() says so.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  set(COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS "")
else()
  set(COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS
      -fsanitize=thread --param=tsan-instrument-func-entry-exit=0 -Wno-tsan -g1)
endif()
function(coopviz_instrument_memory source)
  if(COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS)
    set_property(SOURCE ${source} APPEND PROPERTY COMPILE_OPTIONS
                 ${COOPVIZ_MEMORY_INSTRUMENTATION_FLAGS})
  endif()
endfunction()

function(coopviz_kernels target dir name)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated/${name})
  file(MAKE_DIRECTORY ${gen})
  add_custom_command(
    OUTPUT ${gen}/${name}.emu.cuh
    COMMAND coopviz_lower lower ${dir}/${name}.cuh ${gen}/${name}.emu.cuh
    DEPENDS coopviz_lower ${dir}/${name}.cuh
    COMMENT "Lowering ${name}.cuh for the emulator")
  target_sources(${target} PRIVATE ${dir}/kernels.cu ${dir}/kernels_emu.cpp ${gen}/${name}.emu.cuh)
  # No fused multiply-add on the GPU side: the host compiler does not fuse a*b+c either, and the
  # two backends must round every operation the same way to agree bit for bit.
  set_property(SOURCE ${dir}/kernels.cu APPEND PROPERTY COMPILE_OPTIONS --fmad=false)
  set_property(SOURCE ${dir}/kernels_emu.cpp APPEND PROPERTY INCLUDE_DIRECTORIES ${gen})
  coopviz_instrument_memory(${dir}/kernels_emu.cpp)
  set_property(SOURCE ${dir}/kernels_emu.cpp APPEND PROPERTY OBJECT_DEPENDS ${gen}/${name}.emu.cuh)
endfunction()

function(coopviz_lesson folder)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${folder})
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated/${folder})
  coopviz_kernels(coopviz_lessons ${dir} ${folder})
  coopviz_kernel_resources(${folder} ${dir} ${ARGN})
  add_custom_command(
    OUTPUT ${gen}/source.cpp
    COMMAND coopviz_lower embed ${dir}/${folder}.cuh ${gen}/source.cpp coop_source_${folder}
    DEPENDS coopviz_lower ${dir}/${folder}.cuh)
  add_custom_command(
    OUTPUT ${gen}/text.cpp
    COMMAND coopviz_lower embed ${dir}/lesson.md ${gen}/text.cpp coop_text_${folder}
    DEPENDS coopviz_lower ${dir}/lesson.md)
  target_sources(coopviz_lessons PRIVATE ${dir}/lesson.cpp ${gen}/source.cpp ${gen}/text.cpp)
  # Installed: the text (a start for $COOPVIZ_LESSON_SOURCES edits), the kernels as the app shows
  # them and, where the lesson has one, the same lesson as an ordinary CUDA program to run.
  set(files ${dir}/lesson.md ${dir}/${folder}.cuh)
  if(EXISTS ${dir}/${folder}.cu)
    list(APPEND files ${dir}/${folder}.cu)
  endif()
  install(FILES ${files} DESTINATION ${COOPVIZ_INSTALL_DATADIR}/lessons/${folder})
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
