#!/usr/bin/env bash
# Builds coopviz's Debian package (build/coopviz_<version>_<arch>.deb, with CPack) and checks it:
# it declares its dependencies, and the coopviz unpacked from it works on its own
# (tests/install/check_installed.sh). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh -DCOOPVIZ_GUI=ON "$@"
cd build
rm -f coopviz_*.deb
cpack -G DEB
deb=$(ls coopviz_*.deb)
dpkg-deb --info "$deb"
depends=$(dpkg-deb --field "$deb" Depends)
for needed in g++ libzstd1 libboost-context libglfw3 fonts-dejavu-core; do
  [[ "$depends" == *"$needed"* ]] || { echo "FAIL: Depends lacks $needed: $depends"; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root"
gui=$(sed -n 's/^COOPVIZ_GUI:BOOL=//p' CMakeCache.txt)
../tests/install/check_installed.sh "$work/root/usr" "$PWD/.." "$work/check" "$gui"
echo "coopviz: $PWD/$deb is ready (sudo apt-get install ./build/$deb)"
