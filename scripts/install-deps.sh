#!/usr/bin/env bash
# Installs what coopviz needs from Debian 12's archive (only what is missing). The CUDA toolkit is
# not in Debian's archive: it must already be at /usr/local/cuda (or CUDA_HOME).
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libimgui-dev libglfw3-dev libgl1-mesa-dev libgl1-mesa-dri
  libboost-context-dev nlohmann-json3-dev libcli11-dev libstb-dev libzstd-dev libmd4c-dev
  libgtest-dev libgmock-dev
  fonts-dejavu-core fonts-jetbrains-mono
  xvfb xauth
  desktop-file-utils  # checks the installed coopviz.desktop (tests/install)
  # coopviz-frontend, Clang's C++ front end of the lowering (tools/frontend)
  libclang-16-dev libclang-cpp16-dev llvm-16-dev libclang-common-16-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "coopviz: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda_home/bin/nvcc" ]; then
  echo "coopviz: the CUDA toolkit (nvcc) was not found in $cuda_home." >&2
  echo "         Install CUDA 13 there (or set CUDA_HOME); a GPU is not needed to build." >&2
  exit 1
fi
