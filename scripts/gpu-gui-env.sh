#!/usr/bin/env bash
# The desktop app on a GPU machine that has no display and no GL libraries: Xvfb and Mesa travel
# as one archive of Debian packages, and the app draws with Mesa (llvmpipe) under Xvfb while its
# lessons run on the GPU with CUDA.
#
#   scripts/gpu-gui-env.sh pack ARCHIVE        here: download the packages, keep what runs, pack
#   source scripts/gpu-gui-env.sh start ARCHIVE  there: unpack into /tmp/gl, start Xvfb on :99
#
# `start` exports DISPLAY and the library paths for the commands that follow. It creates only
# paths that do not exist yet: the X server looks for its DRI driver, xkbcomp and keyboard data
# where Debian put them.
packages="xvfb x11-xkb-utils xkb-data libglfw3 libstb0 libboost-context1.74.0 libopengl0
  libglvnd0 libgl1 libglx0 libglx-mesa0 libgl1-mesa-dri libglapi-mesa libllvm15 libdrm2
  libdrm-amdgpu1 libdrm-intel1 libdrm-nouveau2 libdrm-radeon1 libpciaccess0 libx11-6 libx11-data
  libx11-xcb1 libxcb1 libxcb-glx0 libxcb-dri2-0 libxcb-dri3-0 libxcb-present0 libxcb-sync1
  libxcb-xfixes0 libxcb-randr0 libxcb-shm0 libxcb-xkb1 libxshmfence1 libxxf86vm1 libxau6
  libxdmcp6 libbsd0 libmd0 libsensors5 libelf1 libz3-4 libedit2 libxml2 libicu72 libxrandr2
  libxinerama1 libxcursor1 libxi6 libxext6 libxrender1 libxfixes3 libxfont2 libfontenc1
  libfreetype6 libpng16-16 libbrotli1 libpixman-1-0 libunwind8 libxkbfile1 libgbm1
  libwayland-server0 libxkbcommon0 fonts-dejavu-core fonts-jetbrains-mono"

case "${1:-}" in
  pack)
    archive=$(realpath -m "$2")
    work=$(mktemp -d)
    (cd "$work" && apt-get download $packages) || exit 1
    mkdir "$work/root"
    for f in "$work"/*.deb; do dpkg -x "$f" "$work/root"; done
    # Only the software renderer; no documentation.
    find "$work/root/usr/lib/x86_64-linux-gnu/dri" -type f ! -name swrast_dri.so -delete
    rm -rf "$work/root/usr/share/"{doc,man,lintian,bug,locale}
    tar -C "$work/root" -cf - . | xz -T0 -6 > "$archive"
    rm -rf "$work"
    ls -la "$archive"
    ;;
  start)
    mkdir -p /tmp/gl && tar -xJf "$2" -C /tmp/gl || return 1
    lib=/tmp/gl/usr/lib/x86_64-linux-gnu
    # The app's fonts (DejaVu for text and symbols, JetBrains Mono for code) where Debian puts them.
    for p in /usr/lib/x86_64-linux-gnu/dri /usr/share/X11/xkb /usr/share/X11/locale /usr/bin/xkbcomp \
             /usr/share/fonts/truetype/dejavu /usr/share/fonts/truetype/jetbrains-mono; do
      [ -e "$p" ] || { mkdir -p "$(dirname "$p")" && ln -s "/tmp/gl$p" "$p"; }
    done
    mkdir -p /var/lib/xkb /tmp/.X11-unix
    export LD_LIBRARY_PATH=$lib:/tmp/gl/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LIBGL_DRIVERS_PATH=$lib/dri __GLX_VENDOR_LIBRARY_NAME=mesa
    /tmp/gl/usr/bin/Xvfb :99 -xkbdir /tmp/gl/usr/share/X11/xkb -screen 0 1600x1000x24 -nolisten tcp \
      > /tmp/xvfb.log 2>&1 &
    for _ in $(seq 50); do [ -S /tmp/.X11-unix/X99 ] && break; sleep 0.1; done
    export DISPLAY=:99
    [ -S /tmp/.X11-unix/X99 ] || { cat /tmp/xvfb.log; return 1; }
    ;;
  *)
    echo "usage: $0 pack ARCHIVE | source $0 start ARCHIVE" >&2
    ;;
esac
