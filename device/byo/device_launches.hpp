// Launches a kernel makes (CUDA Dynamic Parallelism, CDP2 as CUDA 12 and later have it) on the
// emulator. A kernel's `k<<<g, b, s, st>>>(a)` reaches the runtime's launch() from an emulated
// thread: the child grid is queued with the thread that launched it, and runs once every thread
// of its parent grid has finished, before the parent grid is complete (the host's launch returns
// only when the whole tree has run). That is one order CUDA allows: a child starts after its
// launch point, and a parent never sees its children's writes (CDP2 has no device-side
// cudaDeviceSynchronize; only a tail launch sees them). Among the children of one grid:
//   - launches into the block's implicit (NULL) stream from one block run in launch order, each
//     with its own descendants complete before the next;
//   - launches into one stream the grid created (cudaStreamCreateWithFlags with
//     cudaStreamNonBlocking) run in order; cudaStreamPerThread is the launching thread's own;
//   - each cudaStreamFireAndForget launch is a stream of its own;
//   - cudaStreamTailLaunch launches run after all the others and their descendants, in order.
// Streams are not ordered among themselves: seed 0 under lockstep runs them in launch order
// (block by block), any other seed or schedule in an order drawn from the seed.
//
// CUDA's limit is kept, failing the launch with CUDA's error for the launching thread's
// device-side cudaGetLastError, said once on stderr by name: no more device-side launches
// outstanding at once than cudaLimitDevRuntimePendingLaunchCount (2048 unless the host's
// cudaDeviceSetLimit says otherwise), cudaErrorLaunchPendingCountExceeded past it. A launch is
// outstanding from the moment it is made until its grid is complete, which is after all its
// descendants are: so a chain of grids each launching the next holds every grid of it but the
// host's, and stops at the limit's depth (2048), as an H200 does. CDP2 has no other limit on the
// depth (CDP1's 24 levels are gone with its device-side cudaDeviceSynchronize). The tree is run
// without recursion on the host's stack, so a chain as deep as the limit allows costs only heap.
// Each child launch is one launch of the trace (or an untraced repeat, counted, as host repeats
// are), whose parameters name the launch and the thread that launched it.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "device/byo/runtime.hpp"

namespace coop::byo {

// cudaLimitDevRuntimePendingLaunchCount's default.
inline constexpr size_t kDefaultPendingLaunches = 2048;

// Whether the caller is a kernel's thread, whose launches are a device's.
bool launching_from_device();

// A launch made by a kernel's thread: checked against CUDA's limits and queued (see above).
cudaError_t launch_from_device(const LaunchRequest& request);

// A launch made by host code: runs the grid, then its descendants as above. `run` runs one grid
// (the runtime's traced launch) and returns its error.
cudaError_t launch_tree(const LaunchRequest& request, cudaError_t (*run)(const LaunchRequest&));

// The calling kernel thread's last error (device-side cudaGetLastError and cudaPeekAtLastError:
// errors are kept per thread), forgotten when `clear`; and one kept for it.
cudaError_t device_thread_error(bool clear);
cudaError_t keep_device_thread_error(cudaError_t error);

// Streams made in a kernel (cudaStreamCreateWithFlags): they must be non-blocking, and live as
// long as the grid that made them (its queued launches name them).
cudaError_t create_device_stream(cudaStream_t* stream, unsigned flags);
cudaError_t destroy_device_stream(cudaStream_t stream);

// From the runtime (runtime.cpp): the program file's name, for messages; parameters the next traced launch's trace gets; and whether, and from what seed, the order of
// a grid's streams is drawn (--seed, --schedule).
const std::string& program_file_name();
void label_next_launch(std::map<std::string, std::string> params);
bool seeded_device_order();
uint64_t device_order_seed();

}  // namespace coop::byo
