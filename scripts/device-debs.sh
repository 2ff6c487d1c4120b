#!/usr/bin/env bash
# The Debian packages a build on a machine without a package archive needs (the lent GPU machine:
# nvcc and CMake, nothing else), downloaded here into ./.debs with the script that unpacks them
# there:
#
#   scripts/device-debs.sh            here: download into .debs/ (git-ignored), write .debs/unpack.sh
#   source .debs/unpack.sh            there: unpack into /tmp/deps, point CMake, the compiler and
#                                     the loader at it
#
# With the desktop app's libraries (ImGui, GLFW, OpenGL's headers, stb) the build there has the
# GUI on, so the commands and tests that drive the app's state without a window (`coopviz steps`,
# the step tests) run there too; drawing still needs scripts/gpu-gui-env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build="libgtest-dev libgmock-dev googletest nlohmann-json3-dev libcli11-dev libboost1.74-dev
  libboost-context1.74-dev libboost-context1.74.0 libfmt-dev libfmt9 libmd4c-dev libmd4c0
  libmd4c-html0 libzstd-dev"
gui="libimgui-dev libstb-dev libstb0 libglfw3-dev libglfw3 libgl-dev libgl1 libglx-dev libglx0
  libopengl-dev libopengl0 libglvnd0 libglvnd-dev libx11-6 libx11-data libxcb1 libxau6 libxdmcp6
  libbsd0 libmd0"
mkdir -p .debs
[ -n "$(ls /var/lib/apt/lists 2>/dev/null | grep -v lock)" ] || apt-get update -qq
# apt's sandbox user cannot write into a folder of root's; the download is of public packages.
(cd .debs && apt-get download -qq -o APT::Sandbox::User=root $build $gui)
cat > .debs/unpack.sh <<'UNPACK'
#!/bin/bash
# Source this on the machine without a package archive: unpack ./.debs/*.deb into /tmp/deps and
# point the build and the loader at it.
P=/tmp/deps
mkdir -p $P
for f in .debs/*.deb; do dpkg -x "$f" $P; done
export CMAKE_PREFIX_PATH=$P/usr:$P/usr/lib/x86_64-linux-gnu/cmake${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
export LD_LIBRARY_PATH=$P/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CPATH=$P/usr/include${CPATH:+:$CPATH}
echo "deps unpacked into $P"
UNPACK
du -sh .debs
