// Block-wise tree reduction in dynamic shared memory, one kernel instance per block size; the
// host wrapper picks the instance and is instantiated here for the types reduction.cpp uses.
#include <cuda_runtime.h>

#include "reduction.h"

template <class T, unsigned kBlock>
__global__ void reduce_blocks(const T* in, T* out, unsigned n) {
  extern __shared__ unsigned char scratch_bytes[];
  T* scratch = reinterpret_cast<T*>(scratch_bytes);
  const unsigned tid = threadIdx.x;
  // Each thread first adds up a grid-strided run of the input.
  T sum = T(0);
  for (unsigned i = blockIdx.x * kBlock + tid; i < n; i += kBlock * gridDim.x) sum += in[i];
  scratch[tid] = sum;
  __syncthreads();
  for (unsigned half = kBlock / 2; half > 0; half /= 2) {
    if (tid < half) scratch[tid] += scratch[tid + half];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = scratch[0];
}

template <class T>
void reduce_partials(unsigned n, unsigned threads, unsigned blocks, const T* in, T* out) {
  const size_t shared = threads * sizeof(T);
  switch (threads) {
    case 512: reduce_blocks<T, 512><<<blocks, 512, shared>>>(in, out, n); break;
    case 256: reduce_blocks<T, 256><<<blocks, 256, shared>>>(in, out, n); break;
    case 128: reduce_blocks<T, 128><<<blocks, 128, shared>>>(in, out, n); break;
    case 64: reduce_blocks<T, 64><<<blocks, 64, shared>>>(in, out, n); break;
    default: reduce_blocks<T, 32><<<blocks, 32, shared>>>(in, out, n); break;
  }
}

template void reduce_partials<int>(unsigned, unsigned, unsigned, const int*, int*);
template void reduce_partials<double>(unsigned, unsigned, unsigned, const double*, double*);
