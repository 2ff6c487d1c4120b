// The host entry of the reduction: defined in reduction_kernel.cu, called from reduction.cpp.
#ifndef MULTI_FILE_REDUCTION_H
#define MULTI_FILE_REDUCTION_H

// Sums `n` values of `in` into one partial sum per block in `out` (`blocks` of them), with
// `threads` threads per block (a power of two from 32 to 512).
template <class T>
void reduce_partials(unsigned n, unsigned threads, unsigned blocks, const T* in, T* out);

#endif
