#!/usr/bin/env bash
# A copied lesson folder is a lesson of its own: atomics_and_races copied and renamed as
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
cp -r "$source/lessons/atomics_and_races" "$lessons/my_copy"
cp -r "$source/lessons/atomics_and_races" "$lessons/stale_copy"
cp -r "$source/lessons/atomics_and_races" "$lessons/half_copy"
cp "$source/lessons/atomics_and_races/lesson.md" "$lessons/not_a_lesson/"  # no lesson.cpp
# A copy starts without the original's exercises (their ids would be taken twice).
rm -rf "$lessons/my_copy/exercises" "$lessons/half_copy/exercises"
sed -i 's/atomics_and_races/my_copy/g; s/atomics-and-races/my-copy/g' "$lessons"/my_copy/*
sed -i 's/atomics_and_races/half_copy/g' "$lessons"/half_copy/*  # its id is still atomics-and-races

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

for file in lesson.cpp atomics_and_races.cuh; do
  "$cmake" -DFOLDER=my_copy -DFILE="$lessons/my_copy/$file" -P "$work/folders.cmake" ||
    fail "the renamed copy's $file was refused"
done
if refused=$("$cmake" -DFOLDER=stale_copy -DFILE="$lessons/stale_copy/lesson.cpp" \
               -P "$work/folders.cmake" 2>&1); then
  fail "a copy still in namespace atomics_and_races was accepted"
fi
echo "$refused" | tr -s ' \n' ' ' |
  grep -q "namespace coop::lessons::atomics_and_races must be coop::lessons::stale_copy" ||
  fail "the refusal does not name the namespace: $refused"

if refused=$("$cmake" -DFOLDER=half_copy -DFILE="$lessons/half_copy/lesson.cpp" \
               -P "$work/folders.cmake" 2>&1); then
  fail "a copy whose id is still atomics-and-races was accepted"
fi
echo "$refused" | tr -s ' \n' ' ' | grep -q 'id "atomics-and-races" must be "half-copy"' ||
  fail "the refusal does not name the id: $refused"

"$lower" kernels "$lessons/my_copy/atomics_and_races.cuh" lessons/my_copy "$work/bindings"
grep -q "^namespace coop::lessons::my_copy {" "$work/bindings/kernels.hpp" ||
  fail "kernels.hpp is not in the copy's namespace"
grep -q "k.racy_sum.emu = &::coop::lessons::emulated::my_copy::racy_sum;" \
  "$work/bindings/kernels_emu.cpp" || fail "kernels_emu.cpp does not bind the copy's kernels"
grep -q '#include "lessons/my_copy/atomics_and_races.cuh"' "$work/bindings/kernels.cu" ||
  fail "kernels.cu does not compile the copy's kernel file"
grep -q 'l.id = "my-copy";' "$lessons/my_copy/lesson.cpp" || fail "the copy's id was not renamed"
echo "a copied and renamed lesson folder is found and bound; an unrenamed copy is refused"
