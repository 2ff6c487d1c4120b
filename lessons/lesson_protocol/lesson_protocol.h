// What a lesson program (lessons/<folder>/<name>.cu) may share with others: reading the arguments
// coopviz gives it, printing the lines coopviz reads, timing a kernel on a GPU, and naming what
// limits occupancy. Plain C++, the CUDA runtime and the toolkit's cuda_occupancy.h. coopviz finds
// it for every lesson program wherever the lesson's folder is; plain nvcc needs `-I` its folder
// (share/coopviz/lessons/lesson_protocol), or a copy beside the program.
//   in:  --backend=emulator|gpu [--grid=G] [--block=B] [--cluster=C] --NAME=VALUE for every
//        parameter (sizes "X", "X,Y" or "X,Y,Z"; a grid or block lesson.json's launch.derived
//        leaves to the program may be left out); with no arguments a program runs the lesson's
//        defaults.
//   out: "[pass] NAME: expected E, got G", "[FAIL] ...", "[skip] NAME: expected E, got WHY",
//        "[result] NAME = VALUE", "[trace] NAME: expected ITEM[, ITEM] in KERNEL [launch K]"
//        where an ITEM is "N SPEC", "as many SPEC as SPEC", "N threads with SPEC then SPEC",
//        "N barrier phases kept", "N races[ of write line L and read line M]", "N SPEC whose
//        old values sum to S" or "a chain of reads and writes from 0 to F", and SPEC is
//        "KIND[ of GROUP[ SIZE|SIZE]][ at SCOPE scope][ phase P][ at rank R][ at line L][ stuck]
//        [ open][ on BUFFER][ finding V]" (lessons/README.md; a line is the program's own, from
//        __LINE__); "[count] NAME: SPEC in KERNEL" (or "WHAT in the race to F in KERNEL launch
//        K"); "[schedule] KERNEL: ..." (lessons/program_lesson.hpp); an
//        argument or launch it cannot run is one line "error: ..." on stderr and exit status 2;
//        otherwise 1 when a check failed, else 0.
#pragma once

#include <cuda_occupancy.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "lesson_ids.h"

// A lesson parameter: its name, range and where its value goes (holding its default).
struct LessonParam {
  const char* name;
  long min, max;
  long* value;
};

struct LessonLaunch {
  bool clusters = false;  // the lesson launches clusters: --cluster is one of its arguments
  bool gpu = false;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, cluster[3] = {1, 1, 1};
};

// "X", "X,Y" or "X,Y,Z", trailing 1s left out.
inline std::string dims_text(const unsigned d[3]) {
  std::string s = std::to_string(d[0]);
  if (d[1] != 1 || d[2] != 1) s += "," + std::to_string(d[1]);
  if (d[2] != 1) s += "," + std::to_string(d[2]);
  return s;
}

// Reads the runner's arguments into `launch` and the parameters; "" when all are good, else what
// is wrong. `launch` holds the lesson's default launch on entry.
inline std::string parse_lesson_arguments(int argc, char** argv, LessonLaunch& launch,
                                          const std::vector<LessonParam>& params) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* eq = strchr(a, '=');
    if (strncmp(a, "--", 2) != 0 || !eq) return std::string("unknown argument ") + a;
    const std::string name(a + 2, eq), value(eq + 1);
    char rest = 0;
    if (name == "backend") {
      if (value != "emulator" && value != "gpu")
        return "--backend must be emulator or gpu: got " + value;
      launch.gpu = value == "gpu";
    } else if (name == "grid" || name == "block" || (name == "cluster" && launch.clusters)) {
      unsigned* d = name == "grid" ? launch.grid : name == "block" ? launch.block : launch.cluster;
      d[1] = d[2] = 1;
      const int n = sscanf(value.c_str(), "%u,%u,%u%c", &d[0], &d[1], &d[2], &rest);
      const bool digits = value.find_first_not_of("0123456789,") == std::string::npos &&
                          std::count(value.begin(), value.end(), ',') == n - 1;
      if (!digits || n < 1 || n > 3 || !d[0] || !d[1] || !d[2])
        return "--" + name + " must be X, X,Y or X,Y,Z of positive numbers: got " + value;
    } else {
      const LessonParam* p = nullptr;
      for (const LessonParam& q : params)
        if (name == q.name) p = &q;
      if (!p) {
        std::string known = launch.clusters ? "--backend, --grid, --block, --cluster"
                                            : "--backend, --grid, --block";
        for (const LessonParam& q : params) known += std::string(", --") + q.name;
        return std::string("unknown argument ") + a + " (this program takes " + known + ")";
      }
      if (sscanf(value.c_str(), "%ld%c", p->value, &rest) != 1 || *p->value < p->min ||
          *p->value > p->max)
        return "parameter " + name + " must be a whole number from " + std::to_string(p->min) +
               " to " + std::to_string(p->max) + ": got " + value;
    }
  }
  return "";
}

inline int lesson_error(const std::string& what) {
  fprintf(stderr, "error: %s\n", what.c_str());
  return 2;
}

// Prints a check's line; a failed one sets `failed`.
inline void lesson_check(bool pass, const std::string& name, const std::string& expected,
                         const std::string& got, bool& failed) {
  printf("[%s] %s: expected %s, got %s\n", pass ? "pass" : "FAIL", name.c_str(), expected.c_str(),
         got.c_str());
  failed |= !pass;
}

// A check this backend cannot make (a GPU-only measurement on the emulator), with the reason.
inline void lesson_skip(const std::string& name, const std::string& expected,
                        const std::string& why) {
  printf("[skip] %s: expected %s, got %s\n", name.c_str(), expected.c_str(), why.c_str());
}

// The check a timing claim becomes on the emulator, whose clock counts steps.
inline void lesson_skip_timing(const std::string& name) {
  lesson_skip(name, "a run on a GPU",
              "skipped: measured on a GPU only (the emulator's clock counts steps, not "
              "nanoseconds)");
}

inline void lesson_result(const std::string& name, const std::string& value) {
  printf("[result] %s = %s\n", name.c_str(), value.c_str());
}

// What limits a kernel's blocks per SM, from cuda_occupancy.h's cudaOccResult::limitingFactors:
// "warps", "registers", "shared_memory", "blocks", "barriers", those that tie joined by ", ".
inline std::string occupancy_limiters(int limiting_factors) {
  const std::pair<int, const char*> names[] = {{OCC_LIMIT_WARPS, "warps"},
                                               {OCC_LIMIT_REGISTERS, "registers"},
                                               {OCC_LIMIT_SHARED_MEMORY, "shared_memory"},
                                               {OCC_LIMIT_BLOCKS, "blocks"},
                                               {OCC_LIMIT_BARRIERS, "barriers"}};
  std::string limiting;
  for (const auto& [bit, name] : names)
    if (limiting_factors & bit) limiting += (limiting.empty() ? "" : ", ") + std::string(name);
  return limiting;
}

// "7 of 8": how many items passed, for checks' expected and got fields.
inline std::string count_of(size_t good, size_t all) {
  return std::to_string(good) + " of " + std::to_string(all);
}

// "[pass] NAME: expected N of N, got K of N (first difference: ...)": ok(i) for every i < n, the
// first i it fails for described by describe(i) ("thread 17 read 3, expected 4").
template <class Ok, class Describe>
void lesson_check_all(const std::string& name, size_t n, Ok ok, Describe describe, bool& failed) {
  size_t good = 0, first_bad = n;
  for (size_t i = 0; i < n; ++i) {
    if (ok(i)) ++good;
    else if (first_bad == n) first_bad = i;
  }
  const std::string bad = first_bad < n ? " (first difference: " + describe(first_bad) + ")" : "";
  lesson_check(good == n, name, count_of(n, n), count_of(good, n) + bad, failed);
}

// printf("%.*g"), as lessons format floats.
inline std::string format_float(double v, int digits = 9) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// printf("%.*f"): `digits` decimals, as lessons print times and ratios.
inline std::string format_fixed(double v, int digits) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The best time in milliseconds of `repeats` runs of launch(), after one warm-up (the first launch
// of a kernel also pays for loading its module); before_each() runs before every launch.
template <class BeforeEach, class Launch>
float best_launch_ms(int repeats, BeforeEach before_each, Launch launch) {
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  float best = -1;
  for (int r = 0; r <= repeats; ++r) {
    before_each();
    cudaEventRecord(begin);
    launch();
    cudaEventRecord(end);
    cudaEventSynchronize(end);
    float ms = 0;
    cudaEventElapsedTime(&ms, begin, end);
    if (r > 0 && (best < 0 || ms < best)) best = ms;
  }
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  return best;
}
