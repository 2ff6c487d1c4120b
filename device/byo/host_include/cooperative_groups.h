// The host half of a user's program for the GPU (see gpu_host_runtime.hpp) has no device code
// left: Cooperative Groups is only a namespace there, so `namespace cg = cooperative_groups;`
// and `using namespace cooperative_groups;` still compile.
#pragma once
namespace cooperative_groups {}
