#include "app/gui/gpu_problem.hpp"

#include <filesystem>
#include <iterator>

#include "device/paths/data_dirs.hpp"

namespace coop::app {
namespace {

// What each kind is called and how it is told to a student, in the order of the enum.
struct KindText {
  GpuProblem kind;
  const char* name;  // for scripts and tests
  const char* title;
  const char* explanation;
};

constexpr KindText kKinds[] = {
    {GpuProblem::None, "none", "", ""},
    {GpuProblem::NoGpu, "no-gpu", "No GPU found",
     "You chose to run on the GPU, but this computer has no CUDA GPU that coopviz can use, so "
     "the lesson did not run."},
    {GpuProblem::NoDriver, "no-driver", "No NVIDIA driver",
     "No NVIDIA driver is installed, so CUDA cannot reach a GPU (if this computer has one, "
     "installing the driver fixes this)."},
    {GpuProblem::OldDriver, "old-driver", "The NVIDIA driver is too old",
     "This computer has a GPU, but its driver is older than the CUDA version coopviz was built "
     "with, so nothing can run on it. Updating the NVIDIA driver fixes this."},
    {GpuProblem::NoCooperative, "no-cooperative", "This GPU cannot launch a cooperative grid",
     "The lesson needs every block resident at once (a cooperative launch, for grid.sync()), and "
     "this GPU does not offer it."},
    {GpuProblem::TooOld, "too-old", "This GPU is too old for the lesson",
     "The lesson uses hardware features (such as thread block clusters) that this GPU's "
     "generation does not have."},
    {GpuProblem::EmulatorOnly, "emulator-only", "This runs only on the emulator",
     "As chosen, the lesson shows a hazard on purpose, such as a deadlock, which would hang a "
     "real GPU or corrupt its data. The emulator detects it and shows who is stuck where."},
    {GpuProblem::Fault, "fault", "The GPU reported an error during the run",
     "The run stopped part way with an error from the GPU (the details are below). After such an "
     "error CUDA cannot use the GPU again until coopviz restarts."},
    {GpuProblem::Timeout, "timeout", "The GPU run did not finish in time",
     "The kernel ran past the time limit, perhaps waiting forever at a barrier some threads never "
     "reach. The app stopped waiting; the GPU may stay busy until the kernel ends."},
};

constexpr bool kinds_in_order() {
  for (size_t i = 0; i < std::size(kKinds); ++i)
    if (kKinds[i].kind != GpuProblem(i)) return false;
  return std::size(kKinds) == size_t(GpuProblem::Timeout) + 1;
}
static_assert(kinds_in_order(), "kKinds: one entry per GpuProblem, in the enum's order");

const KindText& text_of(GpuProblem kind) {
  return kKinds[size_t(kind)];
}

// The emulator is the same kernel code on the CPU: said once, the same way for every kind.
constexpr const char* kEmulatorHelps =
    " The CPU emulator runs the same kernel code and records the same kinds of events, more "
    "slowly and with a schedule it chooses; a trace recorded on a real GPU shows a real one.";

// A failure is recognised by a phrase of the message the backend gives (device/gpu,
// device/launch, lessons), the first rule that matches deciding.
struct Rule {
  bool gpu_made;       // false: no GPU executor could be made; true: the run had the GPU
  const char* phrase;  // in the message ("": any message)
  GpuProblem kind;
};

constexpr Rule kRules[] = {
    // query_gpus(), or a GPU that could not be set up: there is no GPU to run on.
    {false, "older than", GpuProblem::OldDriver},
    {false, "no NVIDIA driver", GpuProblem::NoDriver},
    {false, "", GpuProblem::NoGpu},
    // The GPU is there but cannot run this launch or this lesson.
    {true, "does not support cooperative launch", GpuProblem::NoCooperative},
    {true, "needs compute capability", GpuProblem::TooOld},  // the lesson's minimum
    {true, "need compute capability", GpuProblem::TooOld},   // clusters
    {true, "runs only on the emulator", GpuProblem::EmulatorOnly},
    // The run started and the GPU stopped it: a timeout, a faulting kernel, or a launch, an
    // allocation or a copy the CUDA runtime refused ("cudaMalloc(...) failed: out of memory").
    {true, "did not finish within", GpuProblem::Timeout},
    {true, "failed on the GPU", GpuProblem::Fault},
    {true, "failed: ", GpuProblem::Fault},
};

}  // namespace

GpuProblemText explain_gpu_problem(BackendRequest requested, std::optional<Backend> used,
                                   const Status& status) {
  if (status.ok() || requested == BackendRequest::Emu || used == Backend::Emu) return {};
  const std::string& m = status.message();
  for (const Rule& r : kRules) {
    if (r.gpu_made != used.has_value() || m.find(r.phrase) == std::string::npos) continue;
    const KindText& t = text_of(r.kind);
    return {r.kind, t.title, std::string(t.explanation) + kEmulatorHelps};
  }
  return {};  // a configuration or lesson error: the message itself says what to change
}

const char* to_string(GpuProblem problem) {
  return text_of(problem).name;
}

std::string recorded_trace_path(std::string_view lesson_id) {
  namespace fs = std::filesystem;
  const std::string name = std::string(lesson_id) + ".cvt";
  std::error_code ec;
  for (const fs::path& folder : data_dirs().traces)
    if (fs::is_regular_file(folder / name, ec)) return (folder / name).lexically_normal().string();
  return "";
}

}  // namespace coop::app
