// The traced-API feature cases: each launches one kernel of tests/kernels/cgapi on a backend and
// checks its outputs and trace against a CPU reference. The emulator suite runs them in CI; the
// Gpu suite runs them on a GPU and also compares the GPU trace with the emulator's.
#pragma once

#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "device/launch/executor.hpp"
#include "tests/kernels/cgapi/kernels.hpp"

namespace coop::testing {

struct Outcome {
  Status status;
  Trace trace;
  std::vector<int> out;
  std::vector<float> fout;
  std::vector<int> aux;
  std::vector<unsigned> bits;
};

struct FeatureCase {
  std::string name;
  bool needs_clusters = false;  // sm_90 and newer
  std::function<Outcome(Executor&)> run;
  // Empty when the outcome matches the CPU reference, else the first difference in words.
  std::function<std::string(const Outcome&)> check;
};

const std::vector<FeatureCase>& feature_cases();

// The barrier, cluster, async-copy, invoke_one and atomic cases (cgapi_sync_cases.cpp).
void add_sync_cases(std::vector<FeatureCase>& cases);

// What the case files share: launch shapes, inputs, the slot runner and the slot checker.
namespace cases {

using lessons::cgapi::kernels;
inline constexpr size_t S = 16;  // output slots per thread: cgapi.cuh's kSlots

inline LaunchConfig config(Dim3 grid, Dim3 block, LaunchMode mode = LaunchMode::Normal) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.mode = mode;
  return c;
}

inline int value_of(int id) { return (id * 37 + 11) % 23; }
inline std::vector<int> int_inputs(size_t n) {
  std::vector<int> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = int((i * 2654435761u) >> 7 & 0xfff) - 2048;
  return v;
}
inline std::vector<float> float_inputs(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float((i * 7919) % 1000) / 997.0f - 0.3f + 1e-3f * float(i % 13);
  return v;
}

// Runs `kernel` with an int and a float output of kSlots per thread, plus the given arguments.
template <class Launch>
Outcome run_slots(Executor& exec, const LaunchConfig& c, bool floats, Launch launch) {
  Outcome o;
  const size_t n = c.total_threads() * S;
  auto out = DeviceArray<int>::create(exec, n, "out");
  auto fout = DeviceArray<float>::create(exec, floats ? n : 1, "fout");
  if (!out || !fout) {
    o.status = Status::error("allocation failed");
    return o;
  }
  out->zero();
  fout->zero();
  o.status = launch(out->get(), fout->get(), o.trace);
  if (o.status) {
    o.out = *out->download();
    if (floats) o.fout = *fout->download();
  }
  return o;
}

// The first slot that differs from the expected value, in words; "" when all agree.
class Checker {
 public:
  explicit Checker(const Outcome& o) : o_(o) {}
  template <class T>
  Checker& slot(const std::vector<T>& got, size_t k, const std::function<T(size_t)>& want,
                const char* what) {
    if (!msg_.empty()) return *this;
    for (size_t id = 0; id * S + k < got.size(); ++id) {
      const T g = got[id * S + k], w = want(id);
      if (std::memcmp(&g, &w, sizeof(T)) != 0) {
        std::ostringstream os;
        os << what << " (slot " << k << ") of thread " << id << ": got " << g << ", want " << w;
        msg_ = os.str();
        return *this;
      }
    }
    return *this;
  }
  Checker& that(bool ok, const std::string& what) {
    if (msg_.empty() && !ok) msg_ = what;
    return *this;
  }
  std::string result() const { return o_.status ? msg_ : "launch failed: " + o_.status.message(); }

 private:
  const Outcome& o_;
  std::string msg_;
};

template <class T>
inline std::function<T(size_t)> at(const std::vector<T>& v) {
  return [v](size_t i) { return v[i]; };
}

}  // namespace cases

}  // namespace coop::testing
