#!/usr/bin/env bash
# A copied lesson folder is a lesson of its own: occupancy copied and renamed as
# lessons/README.md says is found by the build's lesson discovery, passes its namespace check and
# gets kernel bindings in its own namespace; a copy left unrenamed, or whose id was not renamed with
# its folder, is refused with a message that names what to rename. (Building and running a copy
# takes minutes; the README shows it by hand.)
#   lesson_folder_test.sh CMAKE SOURCE_DIR COOPVIZ_LOWER WORK_DIR
set -euo pipefail
cmake=$1 source=$2 lower=$3 work=$4
rm -rf "$work"
mkdir -p "$work/lessons/not_a_lesson"
trap 'rm -rf "$work"' EXIT
lessons=$work/lessons
cp -r "$source/lessons/occupancy" "$lessons/my_copy"
cp -r "$source/lessons/occupancy" "$lessons/stale_copy"
cp -r "$source/lessons/occupancy" "$lessons/half_copy"
cp "$source/lessons/occupancy/lesson.md" "$lessons/not_a_lesson/"  # no lesson.cpp
# A copy starts without the original's exercises (their ids would be taken twice).
rm -rf "$lessons/my_copy/exercises" "$lessons/half_copy/exercises"
# occupancy's id is its folder's name and a word of its code too (device/occupancy/,
# compute_occupancy): the namespace, the folder's paths and the id are renamed, not the word.
sed -i 's/lessons::occupancy/lessons::my_copy/g; s#lessons/occupancy/#lessons/my_copy/#g
        s/l\.id = "occupancy"/l.id = "my-copy"/' "$lessons"/my_copy/*
sed -i 's/lessons::occupancy/lessons::half_copy/g; s#lessons/occupancy/#lessons/half_copy/#g' \
  "$lessons"/half_copy/*  # its id is still occupancy

cat > "$work/folders.cmake" <<EOF
cmake_minimum_required(VERSION 3.20)
include($source/cmake/CoopvizLessonFolders.cmake)
if(FOLDER)
  coopviz_check_lesson_namespace(\${FOLDER} \${FILE})
  coopviz_check_lesson_id(\${FOLDER} \${FILE})
else()
  coopviz_find_lessons(found $lessons)
  message("lessons: \${found}")
endif()
EOF
fail() { echo "FAIL: $*"; exit 1; }

found=$("$cmake" -P "$work/folders.cmake" 2>&1)
[ "$found" = "lessons: half_copy;my_copy;stale_copy" ] || fail "discovery found '$found'"

for file in lesson.cpp occupancy.cuh; do
  "$cmake" -DFOLDER=my_copy -DFILE="$lessons/my_copy/$file" -P "$work/folders.cmake" ||
    fail "the renamed copy's $file was refused"
done
if refused=$("$cmake" -DFOLDER=stale_copy -DFILE="$lessons/stale_copy/lesson.cpp" \
               -P "$work/folders.cmake" 2>&1); then
  fail "a copy still in namespace occupancy was accepted"
fi
echo "$refused" | tr -s ' \n' ' ' |
  grep -q "namespace coop::lessons::occupancy must be coop::lessons::stale_copy" ||
  fail "the refusal does not name the namespace: $refused"

if refused=$("$cmake" -DFOLDER=half_copy -DFILE="$lessons/half_copy/lesson.cpp" \
               -P "$work/folders.cmake" 2>&1); then
  fail "a copy whose id is still occupancy was accepted"
fi
echo "$refused" | tr -s ' \n' ' ' | grep -q 'id "occupancy" must be "half-copy"' ||
  fail "the refusal does not name the id: $refused"

"$lower" kernels "$lessons/my_copy/occupancy.cuh" lessons/my_copy "$work/bindings"
grep -q "^namespace coop::lessons::my_copy {" "$work/bindings/kernels.hpp" ||
  fail "kernels.hpp is not in the copy's namespace"
grep -q "k.count_resident.emu = &::coop::lessons::emulated::my_copy::count_resident;" \
  "$work/bindings/kernels_emu.cpp" || fail "kernels_emu.cpp does not bind the copy's kernels"
grep -q '#include "lessons/my_copy/occupancy.cuh"' "$work/bindings/kernels.cu" ||
  fail "kernels.cu does not compile the copy's kernel file"
grep -q 'l.id = "my-copy";' "$lessons/my_copy/lesson.cpp" || fail "the copy's id was not renamed"
echo "a copied and renamed lesson folder is found and bound; an unrenamed copy is refused"
