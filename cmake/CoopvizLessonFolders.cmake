# What makes a folder a lesson, apart from building it (also usable with `cmake -P`, as
# tests/lessons/lesson_folder_test.sh does).

# coopviz_find_lessons(out dir): the lesson folders in `dir`, sorted: those with a lesson.md and a
# lesson.cpp. Adding or removing one re-runs CMake.
# coopviz_glob_lesson_files(out pattern): the files matching `pattern`; adding or removing one
# re-runs CMake (nothing re-runs in a script).
macro(coopviz_glob_lesson_files out pattern)
  if(CMAKE_SCRIPT_MODE_FILE)
    file(GLOB ${out} ${pattern})
  else()
    file(GLOB ${out} CONFIGURE_DEPENDS ${pattern})
  endif()
endmacro()

function(coopviz_find_lessons out dir)
  coopviz_glob_lesson_files(texts ${dir}/*/lesson.md)
  coopviz_glob_lesson_files(definitions ${dir}/*/lesson.cpp)
  set(folders "")
  foreach(text IN LISTS texts)
    get_filename_component(lesson_dir ${text} DIRECTORY)
    if(${lesson_dir}/lesson.cpp IN_LIST definitions)
      get_filename_component(folder ${lesson_dir} NAME)
      list(APPEND folders ${folder})
    endif()
  endforeach()
  list(SORT folders)
  set(${out} ${folders} PARENT_SCOPE)
endfunction()

# coopviz_find_program_lessons(out dir): the lesson folders in `dir` that are ordinary CUDA
# programs, read at run time (lessons/lesson_folder.hpp): those with a lesson.md and a
# lesson.json and no lesson.cpp, sorted. Adding or removing one re-runs CMake.
function(coopviz_find_program_lessons out dir)
  coopviz_glob_lesson_files(declarations ${dir}/*/lesson.json)
  set(folders "")
  foreach(declaration IN LISTS declarations)
    get_filename_component(lesson_dir ${declaration} DIRECTORY)
    if(EXISTS ${lesson_dir}/lesson.md AND NOT EXISTS ${lesson_dir}/lesson.cpp)
      get_filename_component(folder ${lesson_dir} NAME)
      list(APPEND folders ${folder})
    endif()
  endforeach()
  list(SORT folders)
  set(${out} ${folders} PARENT_SCOPE)
endfunction()

# The lesson's code must be in its folder's namespace: the registry calls
# coop::lessons::<folder>::lesson(), and two folders with one namespace would define the same
# kernels and functions twice.
function(coopviz_check_lesson_namespace folder file)
  file(STRINGS ${file} lines REGEX "namespace[ \t]+coop::lessons::[A-Za-z_0-9]+")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "coop::lessons::([A-Za-z_0-9]+)" ns "${line}")
    if(NOT CMAKE_MATCH_1 STREQUAL folder)
      message(FATAL_ERROR "${file}: namespace coop::lessons::${CMAKE_MATCH_1} must be "
                          "coop::lessons::${folder}: a lesson's code lives in the namespace named "
                          "after its folder")
    endif()
  endforeach()
endfunction()

# A lesson's id is its folder's name with `-` for `_` (folder block_reduce, id block-reduce): the
# app finds a lesson's files, its kernels (`coopviz occupancy --kernel ID/KERNEL`) and its
# recorded trace through one or the other. Checked here where lesson.cpp sets it as the
# template does (`l.id = "..."`), so that a copied folder says what to rename;
# tests/lessons/registry_test.cpp checks every lesson the registry holds, however it sets its id.
function(coopviz_check_lesson_id folder file)
  string(REPLACE "_" "-" id ${folder})
  file(STRINGS ${file} lines REGEX "(^|[ \t])l\\.id[ \t]*=[ \t]*\"[^\"]*\"")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "l\\.id[ \t]*=[ \t]*\"([^\"]*)\"" assignment "${line}")
    if(NOT CMAKE_MATCH_1 STREQUAL id)
      message(FATAL_ERROR "${file}: id \"${CMAKE_MATCH_1}\" must be \"${id}\": a lesson's id is "
                          "its folder's name with - for _ (rename the folder or the id)")
    endif()
  endforeach()
endfunction()
