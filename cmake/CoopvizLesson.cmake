# Single-source kernel folders.
#
# coopviz_kernels(target dir name): dir/<name>.cuh holds kernels written once for both backends;
#   dir/kernels.cu binds the GPU entries (nvcc) and dir/kernels_emu.cpp the emulator entries
#   (host compiler, including the lowered <name>.emu.cuh generated here).
#
# coopviz_lesson(folder): a lesson folder lessons/<folder>/ with the above plus
#   lesson.cpp (definition, CPU reference, checks) and lesson.md (the text). The kernel file and
#   the text are embedded as coop_source_<folder> and coop_text_<folder>.
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
  set_property(SOURCE ${dir}/kernels_emu.cpp APPEND PROPERTY OBJECT_DEPENDS ${gen}/${name}.emu.cuh)
endfunction()

function(coopviz_lesson folder)
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${folder})
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated/${folder})
  coopviz_kernels(coopviz_lessons ${dir} ${folder})
  add_custom_command(
    OUTPUT ${gen}/source.cpp
    COMMAND coopviz_lower embed ${dir}/${folder}.cuh ${gen}/source.cpp coop_source_${folder}
    DEPENDS coopviz_lower ${dir}/${folder}.cuh)
  add_custom_command(
    OUTPUT ${gen}/text.cpp
    COMMAND coopviz_lower embed ${dir}/lesson.md ${gen}/text.cpp coop_text_${folder}
    DEPENDS coopviz_lower ${dir}/lesson.md)
  target_sources(coopviz_lessons PRIVATE ${dir}/lesson.cpp ${gen}/source.cpp ${gen}/text.cpp)
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
