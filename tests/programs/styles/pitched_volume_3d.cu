// expect: pitched volume: PASSED
// A 3D volume as course code and the programming guide's examples keep it: cudaMalloc3D's
// pitched pointer, cudaMemset3D to clear it, cudaMemcpy3D from a tightly packed host array in and
// back out (the second time a sub-box, with positions on both sides), and a kernel that walks
// slices and rows through the pitch (slice = ptr + z * pitch * height, row = slice + y * pitch).
// Checks: every element of the whole volume and of the sub-box against a host computation.
#include <cstdio>
#include <vector>

__global__ void smooth_x(cudaPitchedPtr vol, int width, int height, int depth) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y, z = blockIdx.z;
  bool inside = x < width && y < height && z < depth;
  char *slice = (char *)vol.ptr + z * vol.pitch * height;
  float *row = (float *)(slice + y * vol.pitch);
  float left = inside && x > 0 ? row[x - 1] : 0.f;
  __syncthreads();  // every thread has read its left neighbour before any writes
  if (inside) row[x] = row[x] * 2.f + left + 1.f;
}

int main() {
  const int W = 37, H = 5, D = 4;
  cudaExtent extent = make_cudaExtent(W * sizeof(float), H, D);
  cudaPitchedPtr vol;
  if (cudaMalloc3D(&vol, extent) != cudaSuccess) {
    printf("cudaMalloc3D failed\n");
    return 1;
  }
  cudaMemset3D(vol, 0, extent);
  std::vector<float> host(W * H * D);
  for (int i = 0; i < W * H * D; i++) host[i] = float(i % 97);

  cudaMemcpy3DParms in = {0};
  in.srcPtr = make_cudaPitchedPtr(host.data(), W * sizeof(float), W, H);
  in.dstPtr = vol;
  in.extent = extent;
  in.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&in);

  smooth_x<<<dim3(1, H, D), 64>>>(vol, W, H, D);

  std::vector<float> back(W * H * D, -1.f);
  cudaMemcpy3DParms out = {0};
  out.srcPtr = vol;
  out.dstPtr = make_cudaPitchedPtr(back.data(), W * sizeof(float), W, H);
  out.extent = extent;
  out.kind = cudaMemcpyDeviceToHost;
  cudaError_t err = cudaMemcpy3D(&out);

  // A 3 x 2 x 2 box from (x 4, y 1, z 2) of the volume, into a 5 x 3 x 2 host box at (1, 1, 0).
  std::vector<float> box(5 * 3 * 2, -1.f);
  cudaMemcpy3DParms part = {0};
  part.srcPtr = vol;
  part.srcPos = make_cudaPos(4 * sizeof(float), 1, 2);
  part.dstPtr = make_cudaPitchedPtr(box.data(), 5 * sizeof(float), 5, 3);
  part.dstPos = make_cudaPos(1 * sizeof(float), 1, 0);
  part.extent = make_cudaExtent(3 * sizeof(float), 2, 2);
  part.kind = cudaMemcpyDeviceToHost;
  cudaError_t err2 = cudaMemcpy3DAsync(&part, 0);
  cudaDeviceSynchronize();

  int bad = err != cudaSuccess || err2 != cudaSuccess || vol.pitch < W * sizeof(float);
  auto expected = [&](int x, int y, int z) {
    const float *row = &host[(z * H + y) * W];
    return row[x] * 2.f + (x > 0 ? row[x - 1] : 0.f) + 1.f;
  };
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) bad += back[(z * H + y) * W + x] != expected(x, y, z);
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 5; x++) {
        const bool inside = x >= 1 && x < 4 && y >= 1;
        const float want = inside ? expected(x - 1 + 4, y - 1 + 1, z + 2) : -1.f;
        bad += box[(z * 3 + y) * 5 + x] != want;
      }
  cudaFree(vol.ptr);
  printf("pitched volume: %s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
