// Plain loads and stores that `coopviz run --show-stores out,ring,tally --show-loads ring,tally`
// shows (and "sum on the line with // the race"), beside the same accesses written as the front
// end writes them (::coop::traced): each
// kernel pair traces alike, lines apart by the distance between their first lines
// (tests/app/shown_accesses_test.cpp). One block of 64 threads each. The tallies race on purpose
// (their lost updates show where threads interleave): kept apart from tests/programs/*.cu, which
// are race-free.
#include <cstdio>

__global__ void plain_accesses(int* out, int* hidden) {
  __shared__ int ring[64];
  const int t = int(threadIdx.x);
  ring[t] = -t;
  __syncthreads();
  hidden[t] = ring[(t + 1) % 64];
  out[t] = t * 3;
  out[t] += 1;  // not shown: an update in place
}

__global__ void by_hand(int* out, int* hidden) {
  __shared__ int ring[64];
  const int t = int(threadIdx.x);
  ::coop::traced(ring[t]) = -t;
  __syncthreads();
  hidden[t] = ::coop::traced_load(ring[(t + 1) % 64]);
  ::coop::traced(out[t]) = t * 3;
  out[t] += 1;  // not shown: an update in place
}

// Every thread adds 1 to one counter in two steps: threads that interleave between the load
// and the store lose updates, as they do on a GPU.
__global__ void plain_tally(int* total) {
  __shared__ int tally[1];
  if (threadIdx.x == 0) tally[0] = 0;
  __syncthreads();
  tally[0] = tally[0] + 1;
  __syncthreads();
  if (threadIdx.x == 0) *total = tally[0];
}

__global__ void by_hand_tally(int* total) {
  __shared__ int tally[1];
  if (threadIdx.x == 0) ::coop::traced(tally[0]) = 0;
  __syncthreads();
  ::coop::traced(tally[0]) = ::coop::traced_load(tally[0]) + 1;
  __syncthreads();
  if (threadIdx.x == 0) *total = ::coop::traced_load(tally[0]);
}

// A shared counter reset, raced on and read back: "sum on the line with // the race" shows the
// race's load and store alone, as by_hand_line writes them; the reset and the read stay plain.
__global__ void plain_line(int* total) {
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  sum = sum + 1;  // the race
  __syncthreads();
  if (threadIdx.x == 0) *total = sum;
}

__global__ void by_hand_line(int* total) {
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  ::coop::traced(sum) = ::coop::traced_load(sum) + 1;  // the race
  __syncthreads();
  if (threadIdx.x == 0) *total = sum;
}

int main() {
  int *out, *hidden, *totals;
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&hidden, 64 * sizeof(int));
  cudaMalloc(&totals, 4 * sizeof(int));
  plain_accesses<<<1, 64>>>(out, hidden);
  by_hand<<<1, 64>>>(out, hidden);
  plain_tally<<<1, 64>>>(totals);
  by_hand_tally<<<1, 64>>>(totals + 1);
  plain_line<<<1, 64>>>(totals + 2);
  by_hand_line<<<1, 64>>>(totals + 3);
  int h_out[64], h_hidden[64], h_totals[4];
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_hidden, hidden, sizeof h_hidden, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_totals, totals, sizeof h_totals, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int t = 0; t < 64; ++t) ok = ok && h_out[t] == t * 3 + 1 && h_hidden[t] == -((t + 1) % 64);
  std::printf("%s\ntallies %d %d\n", ok ? "PASSED" : "FAILED", h_totals[0], h_totals[1]);
  return ok ? 0 : 1;
}
