// Each thread of a block loads 4 of 128 ints with cub::BlockLoad (blocked) and sums them, but the
// host set only the first 100: thread 25's items 100..103 were never written. With
// --check-memory the load stops the program at its line.
#include <cub/block/block_load.cuh>
#include <cstdio>

__global__ void sum_tile(const int* in, int* out) {
  typedef cub::BlockLoad<int, 32, 4, cub::BLOCK_LOAD_DIRECT> Load;
  __shared__ typename Load::TempStorage temp;
  int items[4];
  Load(temp).Load(in, items);
  atomicAdd(out, items[0] + items[1] + items[2] + items[3]);
}

int main() {
  int *d_in, *d_out;
  cudaMalloc(&d_in, 128 * sizeof(int));
  cudaMalloc(&d_out, sizeof(int));
  cudaMemset(d_in, 0, 100 * sizeof(int));
  cudaMemset(d_out, 0, sizeof(int));
  sum_tile<<<1, 32>>>(d_in, d_out);
  int total = 0;
  cudaMemcpy(&total, d_out, sizeof total, cudaMemcpyDeviceToHost);
  printf("not reached: total = %d\n", total);
  return 0;
}
