// Blocks of a cluster read each other's shared memory: each block publishes its rank, syncs the
// cluster, and reads its neighbour's. Launched with cudaLaunchKernelEx and a cluster dimension.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void neighbour_rank(int* out) {
  __shared__ int mine;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) mine = int(rank);
  cluster.sync();
  const unsigned next = (rank + 1) % cluster.num_blocks();
  int* theirs = cluster.map_shared_rank(&mine, next);
  if (threadIdx.x == 0) out[blockIdx.x] = *theirs;
  cluster.sync();  // no block leaves while another still reads its shared memory
}

int main() {
  const int blocks = 8, cluster_size = 4;
  int* d_out;
  cudaMalloc(&d_out, blocks * sizeof(int));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(64);
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster_size;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&config, neighbour_rank, d_out);
  if (e != cudaSuccess) {
    printf("cudaLaunchKernelEx: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int out[blocks];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) bad += out[b] != (b % cluster_size + 1) % cluster_size;
  printf("%s\n", bad ? "FAILED" : "PASSED");
  cudaFree(d_out);
  return bad ? 1 : 0;
}
