#!/usr/bin/env bash
# Install test: `cmake --install` into a temporary prefix, checked by check_installed.sh, then
# removed.
#   install_test.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR GUI(ON|OFF)
set -euo pipefail
cmake=$1 build=$2 source=$3 work=$4 gui=$5
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log"
"$(dirname "$0")/check_installed.sh" "$prefix" "$source" "$work" "$gui"
