// expect: volume PASSED
// Three-dimensional launches, as volume-processing course exercises use them: dim3 blocks of
// 8x4x4 over a grid that covers a 20x13x9 volume (partial blocks on every axis), each thread
// finding its voxel from blockIdx, blockDim and threadIdx in x, y and z, and a 6-neighbour
// average that skips voxels on the boundary.
#include <cstdio>
#include <vector>

__global__ void smooth(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  size_t i = ((size_t)z * ny + y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - nx * ny] + in[i + nx * ny]) / 6.0f;
}

int main() {
  const int nx = 20, ny = 13, nz = 9, n = nx * ny * nz;
  std::vector<float> h(n), got(n), want(n);
  for (int i = 0; i < n; i++) h[i] = float((i * 13) % 29);
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        int i = (z * ny + y) * nx + x;
        bool edge = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
        want[i] = edge ? h[i]
                       : (h[i - 1] + h[i + 1] + h[i - nx] + h[i + nx] + h[i - nx * ny] + h[i + nx * ny]) / 6.0f;
      }
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(8, 4, 4);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, (nz + block.z - 1) / block.z);
  smooth<<<grid, block>>>(d_in, d_out, nx, ny, nz);
  cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += got[i] != want[i];
  printf("grid %dx%dx%d of %dx%dx%d: %d voxels wrong\n", grid.x, grid.y, grid.z, block.x, block.y,
         block.z, bad);
  cudaFree(d_in);
  cudaFree(d_out);
  printf("volume %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
