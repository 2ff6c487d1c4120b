// CUB's reads of memory the host left partly unwritten. Without an argument, a sum of 100 floats
// by cub::DeviceReduce::Sum after copying in only the first 60. The first argument picks a read
// through an iterator that wraps device memory, or of only part of an input, instead:
//   transform   cub::DeviceReduce::Sum over a thrust::transform_iterator of d_in (60 of 100 set)
//   vector      cub::DeviceReduce::Sum over a thrust::device_vector (all set), then over a
//               thrust::device_ptr to d_in
//   cached      cub::DeviceReduce::Max over a cub::CacheModifiedInputIterator of d_in
//   threadload  a kernel's cub::ThreadLoad<LOAD_LDG> of d_in's items, 100 of 128 set
//   iterator    a kernel's reads through a cub::CacheModifiedInputIterator of d_in
//   channels    cub::DeviceHistogram::MultiHistogramEven counting R, G and B of RGBA pixels
//               whose alpha (never read) was never set, nor the last pixel's B
//   unique      cub::DeviceSelect::UniqueByKey whose kept values were only partly set
// With --check-memory each stops the program at the call's line, naming the call.
#include <thrust/device_vector.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cub/thread/thread_load.cuh>

#include <cstdio>
#include <cstring>

const char* const kPicks = "transform|vector|cached|threadload|iterator|channels|unique";

struct Twice {
  __host__ __device__ float operator()(float x) const { return 2.0f * x; }
};

__global__ void copy_ldg(const float* in, float* out) {
  const int i = threadIdx.x;
  out[i] = cub::ThreadLoad<cub::LOAD_LDG>(in + i);
}

__global__ void copy_cached(const float* in, float* out) {
  cub::CacheModifiedInputIterator<cub::LOAD_CG, float> items(in);
  out[threadIdx.x] = items[threadIdx.x];
}

template <class Call>
void twice(Call call) {  // CUB's two-call idiom: the size, then the work
  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  call(d_temp, temp_bytes);
  cudaMalloc(&d_temp, temp_bytes);
  call(d_temp, temp_bytes);
  cudaFree(d_temp);
}

int main(int argc, char** argv) {
  const char* pick = argc > 1 ? argv[1] : "";
  float h_in[128];
  for (int i = 0; i < 128; ++i) h_in[i] = float(i % 7);
  float *d_in, *d_out;
  cudaMalloc(&d_in, 128 * sizeof(float));
  cudaMalloc(&d_out, 128 * sizeof(float));
  if (!*pick) {
    cudaMemcpy(d_in, h_in, 60 * sizeof(float), cudaMemcpyHostToDevice);
    twice([&](void* t, size_t& b) { cub::DeviceReduce::Sum(t, b, d_in, d_out, 100); });
  } else if (!strcmp(pick, "transform")) {
    cudaMemcpy(d_in, h_in, 60 * sizeof(float), cudaMemcpyHostToDevice);
    thrust::transform_iterator<Twice, float*> doubled(d_in, Twice());
    twice([&](void* t, size_t& b) { cub::DeviceReduce::Sum(t, b, doubled, d_out, 100); });
  } else if (!strcmp(pick, "vector")) {
    cudaMemcpy(d_in, h_in, 60 * sizeof(float), cudaMemcpyHostToDevice);
    thrust::device_vector<float> ones(100, 1.0f);
    twice([&](void* t, size_t& b) { cub::DeviceReduce::Sum(t, b, ones.begin(), d_out, 100); });
    twice([&](void* t, size_t& b) {
      cub::DeviceReduce::Sum(t, b, thrust::device_pointer_cast(d_in), d_out, 100);
    });
  } else if (!strcmp(pick, "cached")) {
    cudaMemcpy(d_in, h_in, 60 * sizeof(float), cudaMemcpyHostToDevice);
    cub::CacheModifiedInputIterator<cub::LOAD_LDG, float> cached(d_in);
    twice([&](void* t, size_t& b) { cub::DeviceReduce::Max(t, b, cached, d_out, 100); });
  } else if (!strcmp(pick, "threadload") || !strcmp(pick, "iterator")) {
    cudaMemcpy(d_in, h_in, 100 * sizeof(float), cudaMemcpyHostToDevice);
    if (pick[0] == 't')
      copy_ldg<<<1, 128>>>(d_in, d_out);
    else
      copy_cached<<<1, 128>>>(d_in, d_out);
    cudaDeviceSynchronize();
  } else if (!strcmp(pick, "channels")) {
    const int pixels = 16;
    unsigned char h_rgba[4 * pixels], *d_rgba;
    for (int i = 0; i < 4 * pixels; ++i) h_rgba[i] = (unsigned char)(i * 37);
    cudaMalloc(&d_rgba, sizeof h_rgba);
    // R, G and B of each pixel but the last, whose B is not set either; no alpha ever.
    cudaMemcpy2D(d_rgba, 4, h_rgba, 4, 3, pixels - 1, cudaMemcpyHostToDevice);
    cudaMemcpy(d_rgba + 4 * (pixels - 1), h_rgba, 2, cudaMemcpyHostToDevice);
    int* d_hist[3];
    int levels[3] = {5, 5, 5};
    unsigned lower[3] = {0, 0, 0}, upper[3] = {256, 256, 256};
    for (int c = 0; c < 3; ++c) cudaMalloc(&d_hist[c], 4 * sizeof(int));
    twice([&](void* t, size_t& b) {
      cub::DeviceHistogram::MultiHistogramEven<4, 3>(t, b, d_rgba, d_hist, levels, lower, upper,
                                                     pixels);
    });
  } else if (!strcmp(pick, "unique")) {
    int h_keys[12] = {1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 5, 5}, *d_keys, *d_values, *d_count;
    int *d_keys_out, *d_values_out;
    cudaMalloc(&d_keys, sizeof h_keys);
    cudaMalloc(&d_values, sizeof h_keys);
    cudaMalloc(&d_keys_out, sizeof h_keys);
    cudaMalloc(&d_values_out, sizeof h_keys);
    cudaMalloc(&d_count, sizeof(int));
    cudaMemcpy(d_keys, h_keys, sizeof h_keys, cudaMemcpyHostToDevice);
    cudaMemcpy(d_values, h_keys, 8 * sizeof(int), cudaMemcpyHostToDevice);  // not 8..11
    twice([&](void* t, size_t& b) {
      cub::DeviceSelect::UniqueByKey(t, b, d_keys, d_values, d_keys_out, d_values_out, d_count, 12);
    });
  } else {
    fprintf(stderr, "usage: %s [%s]\n", argv[0], kPicks);
    return 2;
  }
  float out = 0;
  cudaMemcpy(&out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  printf("not reached: %f\n", out);
  return 0;
}
