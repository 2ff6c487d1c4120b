// kernels: bump_by_ref, bump_by_value
// A kernel that takes a reference to an object in managed memory, as a blog post on unified
// memory passes its objects: the kernel changes the caller's object. The by-value launch beside
// it changes only its own copy.
#include <cstdio>

struct Counter {
  int value;
  int hits[4];
};

__global__ void bump_by_ref(Counter &c) {
  atomicAdd(&c.value, 1);
  c.hits[threadIdx.x] = threadIdx.x + 1;
}

__global__ void bump_by_value(Counter c, int *out) {
  c.value += 100;
  out[threadIdx.x] = c.value;
}

int main() {
  Counter *c;
  int *out;
  cudaMallocManaged(&c, sizeof(Counter));
  cudaMallocManaged(&out, 4 * sizeof(int));
  c->value = 10;
  for (int i = 0; i < 4; ++i) c->hits[i] = 0;
  bump_by_ref<<<1, 4>>>(*c);
  cudaDeviceSynchronize();
  bump_by_value<<<1, 4>>>(*c, out);
  cudaDeviceSynchronize();
  int bad = c->value != 14;
  for (int i = 0; i < 4; ++i) bad += (c->hits[i] != i + 1) + (out[i] != 114);
  printf("%s (value %d, %d wrong)\n", bad ? "FAILED" : "PASSED", c->value, bad);
  cudaFree(c);
  cudaFree(out);
  return bad ? 1 : 0;
}
