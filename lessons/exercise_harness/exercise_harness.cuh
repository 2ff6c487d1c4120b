// The hidden cases' harness, shared by every exercise's cases.cu (see lessons/README.md,
// "Exercises"). `coopviz exercise check` builds one program from the student's file (its main()
// renamed), this file and the exercise's cases.cu, whose hidden_cases() calls run_cases() with the
// launch shapes and inputs the spec allows. run_cases() prints one machine-readable line per case:
//   @coopviz-begin TOKEN {"launch":...,"input":...}     before the case runs (a crash names it)
//   @coopviz-case TOKEN {"launch":...,"input":...,"result":"passed"|"failed",...}
// A failed case adds the first wrong output's index, got and want, or the runtime's error. On the
// emulator a case line also says which of the program's traced launches the case made
// ("launches":[first, end)), so that the checker can read them in the trace. TOKEN is the
// checker's own for this run (the program's first argument), so that lines the student's code
// prints cannot pass for the harness's. A second argument K runs case K alone (counting from 0
// over every run_cases call), as the checker does to trace one failing case.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace coopviz_exercise {

// One launch of the student's kernel: a 1-D grid and block over n elements.
struct Shape {
  unsigned grid = 1, block = 1;
  int n = 0;
  std::string note;  // what else the case sets, in words ("12 ints per thread"), or nothing
};

// A shape covering n elements with blocks of `block` threads.
inline Shape covering(int n, unsigned block) {
  return {unsigned((n + int(block) - 1) / int(block)), block, n};
}

inline std::string describe(const Shape& s) {
  return "grid " + std::to_string(s.grid) + " x block " + std::to_string(s.block) + ", n " +
         std::to_string(s.n) + (s.note.empty() ? "" : ", " + s.note);
}

// Inputs by name: the same name and n give the same values on every run (a fixed seed).
//   ones, ramp (0, 1, 2, ...), random (-100..100), negative (-1000..-1), extremes (+-2^20 and 0)
inline std::vector<int> make_input(const std::string& kind, int n) {
  std::vector<int> v(size_t(n > 0 ? n : 0));
  std::mt19937 rng(20261125u + unsigned(n));
  for (int i = 0; i < n; ++i) {
    if (kind == "ones")
      v[i] = 1;
    else if (kind == "ramp")
      v[i] = i;
    else if (kind == "random")
      v[i] = int(rng() % 201) - 100;
    else if (kind == "negative")
      v[i] = -1 - int(rng() % 1000);
    else if (kind == "extremes")
      v[i] = (i % 3 == 0) ? (1 << 20) : (i % 3 == 1) ? -(1 << 20) : 0;
    else
      std::fprintf(stderr, "exercise harness: unknown input '%s'\n", kind.c_str());
  }
  return v;
}

// A device copy of a host array (or a filled one), freed with it. On the emulator it is named
// for the trace (`name`, e.g. the kernel parameter it is passed as), so that a failing case's
// first difference reads "stores 12 at out[5]".
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host, const char* name = "array")
      : size_(host.size()) {
    allocate(name);
    cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice);
  }
  // `size` elements with every byte `fill`: 0xff makes ints -1, so an output never written shows.
  DeviceArray(size_t size, int fill, const char* name = "array") : size_(size) {
    allocate(name);
    cudaMemset(data_, fill, bytes());
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(data_); }
  T* get() const { return data_; }
  // The first `count` elements (all of them by default), copied back.
  std::vector<T> read(size_t count = size_t(-1)) const {
    std::vector<T> host(std::min(count, size_));
    cudaMemcpy(host.data(), data_, host.size() * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }

 private:
  size_t bytes() const { return size_ * sizeof(T); }
  void allocate(const char* name) {
#if defined(COOP_BYO_RUNTIME)
    ::coop::byo::malloc_as(name, &data_, bytes());
#else
    (void)name;
    cudaMalloc(&data_, bytes());
#endif
  }
  T* data_ = nullptr;
  size_t size_ = 0;
};

// What one case came to.
struct Verdict {
  bool passed = true;
  long index = -1;  // the first wrong output
  std::string got, want, problem;
};

// Compares element by element; the first difference fails the case.
template <class T>
Verdict compare(const std::vector<T>& got, const std::vector<T>& want) {
  Verdict v;
  for (size_t i = 0; i < want.size(); ++i) {
    if (i < got.size() && got[i] == want[i]) continue;
    v.passed = false;
    v.index = long(i);
    v.got = i < got.size() ? std::to_string(got[i]) : "nothing";
    v.want = std::to_string(want[i]);
    return v;
  }
  return v;
}

// A runtime error of the launch (a deadlock, a fault, an illegal launch) fails the case.
inline Verdict failure(cudaError_t e) {
  Verdict v;
  v.passed = false;
  v.problem = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  return v;
}

// The launch's error, if any, once it has finished.
inline cudaError_t finished() {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e;
}

// This run's token (see above).
inline std::string& token() {
  static std::string t;
  return t;
}

// The one case to run (the program's second argument), or -1 for all of them.
inline long& only_case() {
  static long k = -1;
  return k;
}

// Numbers the cases from 0 over every run_cases call of the program.
inline long next_case_number() {
  static long next = 0;
  return next++;
}

// How many traced launches the program has made: on the emulator its trace's launch count; else
// -1 (a GPU build's cases do not say which launches are theirs).
inline long launches_so_far() {
#if defined(COOP_BYO_RUNTIME)
  return long(::coop::byo::traced_launches());
#else
  return -1;
#endif
}

inline std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// Runs `run(shape, input_name)` on every shape and input, printing a line per case; returns the
// program's exit status (0 when all passed).
template <class Run>
int run_cases(const std::vector<Shape>& shapes, const std::vector<std::string>& inputs, Run run) {
  int failed = 0;
  for (const Shape& shape : shapes)
    for (const std::string& input : inputs) {
      if (only_case() >= 0 && next_case_number() != only_case()) continue;
      const std::string head =
          "{\"launch\":" + quoted(describe(shape)) + ",\"input\":" + quoted(input);
      std::printf("@coopviz-begin %s %s}\n", token().c_str(), head.c_str());
      std::fflush(stdout);
      const long first_launch = launches_so_far();
      const Verdict v = run(shape, input);
      std::string line = head + ",\"result\":" + quoted(v.passed ? "passed" : "failed");
      if (v.index >= 0)
        line += ",\"index\":" + std::to_string(v.index) + ",\"got\":" + quoted(v.got) +
                ",\"want\":" + quoted(v.want);
      if (!v.problem.empty()) line += ",\"problem\":" + quoted(v.problem);
      if (first_launch >= 0)
        line += ",\"launches\":[" + std::to_string(first_launch) + "," +
                std::to_string(launches_so_far()) + "]";
      std::printf("@coopviz-case %s %s}\n", token().c_str(), line.c_str());
      std::fflush(stdout);
      failed += !v.passed;
    }
  return failed == 0 ? 0 : 1;
}

}  // namespace coopviz_exercise

// The exercise's cases.cu defines it: the hidden cases, through run_cases().
int hidden_cases();

int main(int argc, char** argv) {
  coopviz_exercise::token() = argc > 1 ? argv[1] : "";
  if (argc > 2) coopviz_exercise::only_case() = std::strtol(argv[2], nullptr, 10);
  return hidden_cases();
}
