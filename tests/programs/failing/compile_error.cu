// Fails to compile on purpose: a missing semicolon on line 5.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  out[threadIdx.x] = cg::this_thread_block().thread_rank()
}
int main() { return 0; }
