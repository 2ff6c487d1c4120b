# The layers, checked when CMake configures: app over lessons and visual, lessons and visual over
# the device libraries, and nothing pointing back up; CUDA's runtime only where a GPU backend
# really is (README, "Layers"). A link that breaks a rule stops the configuration, naming the
# target, what it reaches and through which rule.

# coopviz_link_closure(target out): every target and link item `target` links, directly or
# through the targets it links (usage requirements of static libraries included).
function(coopviz_link_closure target out)
  set(seen "")
  set(todo ${target})
  while(todo)
    list(POP_FRONT todo item)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${item})
    if(NOT TARGET ${item})
      continue()
    endif()
    get_target_property(aliased ${item} ALIASED_TARGET)
    if(aliased)
      list(APPEND todo ${aliased})
      continue()
    endif()
    # What it links itself (a target built here) and what it passes on to those linking it.
    set(properties INTERFACE_LINK_LIBRARIES)
    get_target_property(type ${item} TYPE)
    get_target_property(imported ${item} IMPORTED)
    if(NOT imported AND NOT type STREQUAL "INTERFACE_LIBRARY")
      list(APPEND properties LINK_LIBRARIES)
    endif()
    foreach(property IN LISTS properties)
      get_target_property(links ${item} ${property})
      if(links)
        list(APPEND todo ${links})
      endif()
    endforeach()
  endwhile()
  list(REMOVE_ITEM seen ${target})
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# coopviz_forbid_links(RULE text TARGETS t... FORBIDDEN f... [FORBIDDEN_MATCHING regex]): none of
# the TARGETS that exist (GUI targets exist only with COOPVIZ_GUI) may reach a FORBIDDEN target,
# or a link item (a library file, a flag) matching the regular expression.
function(coopviz_forbid_links)
  cmake_parse_arguments(ARG "" "RULE;FORBIDDEN_MATCHING" "TARGETS;FORBIDDEN" ${ARGN})
  foreach(target IN LISTS ARG_TARGETS)
    if(NOT TARGET ${target})
      continue()
    endif()
    coopviz_link_closure(${target} reached)
    foreach(item IN LISTS reached)
      if(item IN_LIST ARG_FORBIDDEN OR
         (ARG_FORBIDDEN_MATCHING AND item MATCHES "${ARG_FORBIDDEN_MATCHING}"))
        message(FATAL_ERROR "${target} links ${item}, but ${ARG_RULE}")
      endif()
    endforeach()
  endforeach()
endfunction()

set(coopviz_device_libraries coopviz_trace coopviz_occupancy coopviz_launch coopviz_emu
    coopviz_gpu coopviz_device coopviz_lowering coopviz_data_dirs coopviz_byo_runtime
    coopviz_byo_gpu_runtime)
set(coopviz_visual_libraries coopviz_timeline coopviz_occupancy_panel coopviz_occupancy_view
    coopviz_visual)
set(coopviz_app_libraries coopviz_app_core coopviz_program coopviz_questions coopviz_gui
    coopviz_reduce_bench)

coopviz_forbid_links(
  RULE "the device libraries use nothing above them (lessons, visual, app)"
  TARGETS ${coopviz_device_libraries}
  FORBIDDEN coopviz_lessons ${coopviz_visual_libraries} ${coopviz_app_libraries})
coopviz_forbid_links(
  RULE "visual/ uses the device libraries only, never lessons or the app"
  TARGETS ${coopviz_visual_libraries}
  FORBIDDEN coopviz_lessons ${coopviz_app_libraries})
coopviz_forbid_links(
  RULE "lessons use the device libraries only, never visual/ or the app"
  TARGETS coopviz_lessons
  FORBIDDEN ${coopviz_visual_libraries} ${coopviz_app_libraries})
# CUDA's runtime and driver libraries, as targets or as files.
set(coopviz_cuda_libraries CUDA::cudart CUDA::cudart_static CUDA::cuda_driver coopviz_gpu
    coopviz_device coopviz_byo_gpu_runtime)
set(coopviz_cuda_files "(^|/)lib(cudart|cuda)[._]")
coopviz_forbid_links(
  RULE "only coopviz_gpu (and code that really needs both backends) links CUDA"
  TARGETS coopviz_trace coopviz_occupancy coopviz_launch coopviz_emu coopviz_lowering
          coopviz_data_dirs coopviz_byo_runtime
  FORBIDDEN ${coopviz_cuda_libraries} FORBIDDEN_MATCHING "${coopviz_cuda_files}")
coopviz_forbid_links(
  RULE "visual/ links no CUDA library"
  TARGETS ${coopviz_visual_libraries} coopviz_visual_tests
  FORBIDDEN ${coopviz_cuda_libraries} FORBIDDEN_MATCHING "${coopviz_cuda_files}")
coopviz_forbid_links(
  RULE "the views' data and the app's state (GuiApp) need no ImGui or window"
  TARGETS coopviz_timeline coopviz_occupancy_panel coopviz_gui_app_without_imgui
  FORBIDDEN coopviz_imgui coopviz::imgui glfw OpenGL::GL)
