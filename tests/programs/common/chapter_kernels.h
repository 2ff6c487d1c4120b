// A header shared by the programs of several chapter folders, holding kernels as well as host
// helpers, the way a book's examples keep their common code one folder up and include it as
// "../common/chapter_kernels.h" (tests/programs/launch_forms/form_47_kernel_in_parent_folder_header.cu).
#pragma once

#include <cstdio>
#include <cstdlib>

static void check_call(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess) {
    printf("%s in %s at line %d\n", cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}
#define CHECK_CALL(err) (check_call(err, __FILE__, __LINE__))

__device__ int square_plus_block(int i) { return i * i + (int)blockIdx.x; }

// Each element: its index squared plus the number of the block that wrote it.
__global__ void fill_squares(int *out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[i] = square_plus_block(i);
}
