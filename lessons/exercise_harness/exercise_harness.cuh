// The hidden cases' harness, shared by every exercise's cases.cu (see lessons/README.md,
// "Exercises"). `coopviz exercise check` builds one program from the student's file (its main()
// renamed), this file and the exercise's cases.cu, whose hidden_cases() calls run_cases() with the
// launch shapes and inputs the spec allows. The student's code runs in this process, so nothing
// it prints is trusted: run_cases() reports to coopviz alone, through a pipe coopviz opened for
// this run, one line per message, each starting with a token coopviz chose for this run:
//   TOKEN begin {"number":K,"launch":...,"input":...}     before case K runs (coopviz times it)
//   TOKEN case {"number":K,"launch":...,"input":...,"result":"passed"|"failed",...}
//   TOKEN end {"cases":N}                                 after the last case
// A failed case adds the first wrong output's index, got and want, or the runtime's error. On the
// emulator a case also says which of the program's traced launches it made ("launches":[first,
// end)), so that the checker can read them in the trace, and the data races found in them
// ("races", with the student's lines). The outputs compared are copied back from the device by
// the case itself, never anything the student's main() computed (it never runs).
// The pipe's descriptor and the token come in environment variables, which a constructor that
// runs before any of the student's static initialisers reads, wipes (from /proc/self/environ
// too) and removes; the descriptor is moved and closed on exec. Nothing is on the command line.
// COOPVIZ_CASES_ONLY=K runs case K alone (counting from 0 over every run_cases call), as the
// checker does to trace one failing case; COOPVIZ_CASES_LIST=1 reports the cases without running
// them, which the checker asks of the reference solution to know the cases to expect.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// An output that still holds what the emulator fills fresh memory with (0xa5 in every byte,
// -1515870811 as an int) was most likely never written: said so, since the number alone means
// nothing to a student.
template <class T>
std::string output_words(const T& value) {
  unsigned char fill[sizeof(T)];
  std::memset(fill, 0xA5, sizeof(T));
  const std::string number = std::to_string(value);
  if (std::memcmp(&value, fill, sizeof(T)) != 0) return number;
  return number + " (never written: every byte is 0xa5, which fills memory no thread wrote)";
}

// Compares element by element; the first difference fails the case.
template <class T>
Verdict compare(const std::vector<T>& got, const std::vector<T>& want) {
  Verdict v;
  for (size_t i = 0; i < want.size(); ++i) {
    if (i < got.size() && got[i] == want[i]) continue;
    v.passed = false;
    v.index = long(i);
    v.got = i < got.size() ? output_words(got[i]) : "nothing";
    v.want = std::to_string(want[i]);
    return v;
  }
  return v;
}

// A runtime error of the launch (a deadlock, a fault, an illegal launch) fails the case: on the
// emulator in its words, at the student's lines; else in the runtime's error name and text.
inline Verdict failure(cudaError_t e) {
  Verdict v;
  v.passed = false;
  v.problem = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
#if defined(COOP_BYO_RUNTIME) && defined(COOPVIZ_STUDENT_FILE)
  if (std::string why = ::coop::byo::take_launch_problem(COOPVIZ_STUDENT_FILE); !why.empty())
    v.problem = why;
#endif
  return v;
}

// The launch's error, if any, once it has finished.
inline cudaError_t finished() {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e;
}

// Where this run reports (see above): taken from the environment before the student's code runs.
struct Channel {
  int fd = -1;  // -1: a run outside a check, which prints a plain line per case instead
  std::string token;
  long only = -1;     // the one case to run, or -1 for all of them
  bool list = false;  // report the cases without running them
};
inline Channel& channel() {
  static Channel c;
  return c;
}

// The value of environment variable `name`, which is then wiped where the kernel shows the
// process's environment (/proc/self/environ reads those bytes) and removed.
inline std::string take_env(const char* name) {
  char* value = std::getenv(name);
  if (!value) return "";
  std::string out = value;
  std::memset(value, 0, out.size());
  unsetenv(name);
  return out;
}

// Runs before the student's static initialisers: priority 101 comes before every constructor of
// default priority, which is where the initialisers of globals run.
__attribute__((constructor(101))) inline void take_channel() {
  Channel& c = channel();
  const std::string fd = take_env("COOPVIZ_CASES_FD");
  c.token = take_env("COOPVIZ_CASES_TOKEN");
  const std::string only = take_env("COOPVIZ_CASES_ONLY");
  c.list = take_env("COOPVIZ_CASES_LIST") == "1";
  if (!only.empty()) c.only = std::strtol(only.c_str(), nullptr, 10);
  if (fd.empty()) return;
  // Off the number the environment said, and closed for any program the student's code starts.
  const int given = int(std::strtol(fd.c_str(), nullptr, 10));
  c.fd = fcntl(given, F_DUPFD_CLOEXEC, 100);
  close(given);
}

// One message to coopviz: "TOKEN KIND {json}".
inline void report(const char* kind, const std::string& json) {
  const Channel& c = channel();
  if (c.fd < 0) return;
  const std::string line = c.token + " " + kind + " " + json + "\n";
  for (size_t done = 0; done < line.size();) {
    const ssize_t n = write(c.fd, line.data() + done, line.size() - done);
    if (n <= 0) return;
    done += size_t(n);
  }
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

// The data races in launches [first, end), a JSON array whose lines name the student's file.
inline std::string races_in(long first, long end) {
  std::string all;
#if defined(COOP_BYO_RUNTIME) && defined(COOPVIZ_STUDENT_FILE)
  for (long l = first; l < end; ++l) {
    const std::string some = ::coop::byo::launch_races(size_t(l), COOPVIZ_STUDENT_FILE);
    if (some.size() > 2) all += (all.empty() ? "" : ",") + some.substr(1, some.size() - 2);
  }
#else
  (void)first, (void)end;
#endif
  return "[" + all + "]";
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

// How many cases this run reported, for the closing message.
inline long& cases_reported() {
  static long n = 0;
  return n;
}

// Runs `run(shape, input_name)` on every shape and input, reporting each case; returns the
// program's exit status (0 when all passed).
template <class Run>
int run_cases(const std::vector<Shape>& shapes, const std::vector<std::string>& inputs, Run run) {
  const Channel& c = channel();
  int failed = 0;
  for (const Shape& shape : shapes)
    for (const std::string& input : inputs) {
      const long number = next_case_number();
      if (c.only >= 0 && number != c.only) continue;
      ++cases_reported();
      const std::string head = "{\"number\":" + std::to_string(number) +
                               ",\"launch\":" + quoted(describe(shape)) +
                               ",\"input\":" + quoted(input);
      if (c.list) {
        report("case", head + "}");
        continue;
      }
      report("begin", head + "}");
      const long first_launch = launches_so_far();
      const Verdict v = run(shape, input);
      std::string line = head + ",\"result\":" + quoted(v.passed ? "passed" : "failed");
      if (v.index >= 0)
        line += ",\"index\":" + std::to_string(v.index) + ",\"got\":" + quoted(v.got) +
                ",\"want\":" + quoted(v.want);
      if (!v.problem.empty()) line += ",\"problem\":" + quoted(v.problem);
      if (first_launch >= 0) {
        const long end = launches_so_far();
        line += ",\"launches\":[" + std::to_string(first_launch) + "," + std::to_string(end) +
                "],\"races\":" + races_in(first_launch, end);
      }
      report("case", line + "}");
      if (c.fd < 0)
        std::printf("case %ld, %s, input %s: %s\n", number, describe(shape).c_str(),
                    input.c_str(), v.passed ? "passed" : "failed");
      failed += !v.passed;
    }
  return failed == 0 ? 0 : 1;
}

}  // namespace coopviz_exercise

// The exercise's cases.cu defines it: the hidden cases, through run_cases().
int hidden_cases();

int main() {
  const int status = hidden_cases();
  coopviz_exercise::report(
      "end", "{\"cases\":" + std::to_string(coopviz_exercise::cases_reported()) + "}");
  return status;
}
