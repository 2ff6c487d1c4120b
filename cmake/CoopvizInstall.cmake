# `cmake --install` (and so the package, cmake/CoopvizPackage.cmake): coopviz as a desktop app.
#
#   bin/coopviz
#   lib/coopviz/          the static libraries a user's own CUDA program links (`coopviz run F.cu`)
#   share/coopviz/        traces/ (recorded on a GPU), lessons/, programs/ (example CUDA programs),
#                         packs/ (example class packs),
#                         include/ (the headers those programs are built against), fonts/
#   share/applications/coopviz.desktop, share/icons/hicolor/*/apps/coopviz.{svg,png}
#
# The binary finds all of it from its own location (device/paths/data_dirs.cpp), so the installed
# tree may be moved. The layout's folders are set in the top-level CMakeLists.txt.

install(TARGETS coopviz RUNTIME DESTINATION ${COOPVIZ_INSTALL_BINDIR})
set(program_libraries ${COOPVIZ_PROGRAM_LIBRARIES} ${COOPVIZ_PROGRAM_GPU_LIBRARIES})
list(REMOVE_DUPLICATES program_libraries)
install(TARGETS ${program_libraries} ARCHIVE DESTINATION ${COOPVIZ_INSTALL_LIBDIR})

# The headers a user's program includes: the shim folders (cuda_runtime.h, cooperative_groups.h,
# ...) and the parts of device/ they include, at the same paths as in the source tree.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/device/byo/include ${PROJECT_SOURCE_DIR}/device/byo/gpu_include
                  ${PROJECT_SOURCE_DIR}/device/byo/host_include
        DESTINATION ${COOPVIZ_INSTALL_DATADIR}/include/device/byo)
foreach(part byo coop emu gpu launch trace)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/device/${part}/
          DESTINATION ${COOPVIZ_INSTALL_DATADIR}/include/device/${part}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh"
          PATTERN "include" EXCLUDE PATTERN "gpu_include" EXCLUDE PATTERN "host_include" EXCLUDE)
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/traces/ DESTINATION ${COOPVIZ_INSTALL_DATADIR}/traces
        FILES_MATCHING PATTERN "*.cvt")
file(GLOB example_programs ${PROJECT_SOURCE_DIR}/tests/programs/*.cu)
install(FILES ${example_programs} DESTINATION ${COOPVIZ_INSTALL_DATADIR}/programs)
# Programs at the sizes public samples use, with their own timed loops (coopviz bench byo --timer).
file(GLOB timed_programs ${PROJECT_SOURCE_DIR}/tests/programs/timed/*.cu)
install(FILES ${timed_programs} DESTINATION ${COOPVIZ_INSTALL_DATADIR}/programs/timed)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/packs/ DESTINATION ${COOPVIZ_INSTALL_DATADIR}/packs
        FILES_MATCHING PATTERN "*.pack")
# (Each lesson folder's files are installed by coopviz_lesson, in CoopvizLesson.cmake.)

# Fonts stay those of the system's font packages (the Debian package depends on them): the
# installed fonts/ folder links to them rather than holding copies.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/install-links)
foreach(family dejavu jetbrains-mono)
  file(CREATE_LINK ${COOPVIZ_SYSTEM_FONTS}/${family} ${PROJECT_BINARY_DIR}/install-links/${family}
       SYMBOLIC)
  install(FILES ${PROJECT_BINARY_DIR}/install-links/${family}
          DESTINATION ${COOPVIZ_INSTALL_DATADIR}/fonts)
endforeach()

set(desktop ${PROJECT_SOURCE_DIR}/assets/desktop)
install(FILES ${desktop}/coopviz.desktop DESTINATION share/applications)
install(FILES ${desktop}/coopviz.svg DESTINATION share/icons/hicolor/scalable/apps)
foreach(pixels 48 256)
  install(FILES ${desktop}/coopviz-${pixels}.png DESTINATION share/icons/hicolor/${pixels}x${pixels}/apps
          RENAME coopviz.png)
endforeach()
