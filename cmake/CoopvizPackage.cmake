# CPack: `cpack -G DEB` in the build folder (scripts/package.sh) makes coopviz_<version>_<arch>.deb.
set(COOPVIZ_PACKAGE_MAINTAINER "coopviz maintainers <maintainers@coopviz.invalid>" CACHE STRING
    "The Debian package's Maintainer field")
set(CPACK_PACKAGE_NAME coopviz)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${COOPVIZ_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "desktop lab for CUDA Cooperative Groups, atomics and occupancy")
# Debian wants the long description's lines within 80 columns.
set(CPACK_PACKAGE_DESCRIPTION
    "coopviz runs small CUDA lesson kernels on an NVIDIA GPU or on its CPU
emulator, records what every thread did and animates it step by step, next to
the kernel source and a live occupancy calculation. It also runs a user's own
CUDA program with every kernel launch traced. A GPU and the CUDA toolkit are
optional: without them, lessons and programs run on the emulator.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The libraries coopviz itself links come from dpkg-shlibdeps (Boost.Context's among them, which
# a user's program links too). `coopviz run FILE.cu` also needs, at run time, the host C++
# compiler (with the C++ headers it brings) and zstd's shared library (program_libs in
# app/CMakeLists.txt; coopviz itself has zstd built in); the fonts come from their packages.
# binutils' addr2line names the source line of each recorded load and store (--record-memory).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++, binutils, libzstd1, fonts-dejavu-core, fonts-jetbrains-mono")
if(COOPVIZ_FRONTEND)
  # coopviz-frontend links libclang-cpp16 and libllvm16 (found by SHLIBDEPS, named here too) and
  # reads Clang's built-in headers (stddef.h, the CUDA built-in variables) from their package.
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libclang-cpp16, libllvm16, libclang-common-16-dev")
endif()
# GPU programs need NVIDIA's driver and CUDA toolkit (nvcc, CUDA 12 or newer), which are not in
# Debian's main archive: suggested, not required.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cuda-toolkit")
set(CPACK_GENERATOR DEB)
include(CPack)
