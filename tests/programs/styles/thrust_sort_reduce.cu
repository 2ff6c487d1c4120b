// expect: Thrust check PASSED
// Thrust as its quick-start guide and many blog posts use it: random keys made on the host in a
// host_vector, copied to a device_vector, sorted and summed there, a SAXPY functor through
// thrust::transform, thrust::sequence, and the vector's storage handed to the program's own
// kernel through raw_pointer_cast. Every result is checked against a loop on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

struct saxpy_functor {
  const float a;
  saxpy_functor(float _a) : a(_a) {}
  __host__ __device__ float operator()(const float &x, const float &y) const { return a * x + y; }
};

__global__ void square_in_place(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

int main(void) {
  const int N = 3000;
  thrust::host_vector<int> h_keys(N);
  srand(7);
  for (int i = 0; i < N; i++) h_keys[i] = rand() % 1000;

  thrust::device_vector<int> d_keys = h_keys;
  thrust::sort(d_keys.begin(), d_keys.end());
  thrust::host_vector<int> h_sorted = d_keys;
  std::vector<int> want(h_keys.begin(), h_keys.end());
  std::sort(want.begin(), want.end());
  bool ok = std::equal(want.begin(), want.end(), h_sorted.begin());

  long long sum = thrust::reduce(d_keys.begin(), d_keys.end(), 0LL);
  long long want_sum = 0;
  for (int k : want) want_sum += k;
  ok = ok && sum == want_sum;

  // The program's own kernel on the vector's memory.
  int *raw = thrust::raw_pointer_cast(d_keys.data());
  square_in_place<<<(N + 255) / 256, 256>>>(raw, N);
  cudaDeviceSynchronize();
  thrust::host_vector<int> h_squares = d_keys;
  for (int i = 0; i < N; i++) ok = ok && h_squares[i] == want[i] * want[i];

  thrust::device_vector<float> X(N), Y(N);
  thrust::sequence(X.begin(), X.end());
  thrust::fill(Y.begin(), Y.end(), 1.0f);
  thrust::transform(X.begin(), X.end(), Y.begin(), Y.begin(), saxpy_functor(2.0f));
  thrust::host_vector<float> h_y = Y;
  for (int i = 0; i < N; i++) ok = ok && h_y[i] == 2.0f * i + 1.0f;

  printf("sum of %d sorted keys: %lld (host: %lld)\n", N, sum, want_sum);
  printf("Thrust check %s\n", ok ? "PASSED" : "FAILED");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
