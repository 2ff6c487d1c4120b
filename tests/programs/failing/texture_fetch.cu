// A 1D texture object over linear memory read with tex1Dfetch, as image-processing course code
// and the SDK's texture samples read their input: the emulator has no textures, and says so at
// the fetch's line before its build would fail on the name.
#include <cstdio>

__global__ void twice(cudaTextureObject_t tex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * tex1Dfetch<float>(tex, i);
}

int main() {
  const int n = 64;
  float host[n], back[n];
  for (int i = 0; i < n; i++) host[i] = float(i);
  float *in, *out;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof back);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = in;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = sizeof host;
  cudaTextureDesc desc = {};
  desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &res, &desc, nullptr);
  twice<<<1, n>>>(tex, out, n);
  cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += back[i] != 2.0f * i;
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
