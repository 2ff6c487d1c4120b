// kernels: scale_rows
// A launch inside a member function of a class that owns its device buffer (RAII style).
#include <cstdio>

__global__ void scale_rows(float* m, int cols, float factor) {
  m[blockIdx.x * cols + threadIdx.x] *= factor * (blockIdx.x + 1);
}

class DeviceMatrix {
 public:
  DeviceMatrix(int rows, int cols) : rows_(rows), cols_(cols) {
    cudaMalloc(&data_, rows * cols * sizeof(float));
  }
  ~DeviceMatrix() { cudaFree(data_); }
  void upload(const float* h) { cudaMemcpy(data_, h, bytes(), cudaMemcpyHostToDevice); }
  void download(float* h) const { cudaMemcpy(h, data_, bytes(), cudaMemcpyDeviceToHost); }
  void scale(float factor) { scale_rows<<<rows_, cols_>>>(data_, cols_, factor); }

 private:
  size_t bytes() const { return size_t(rows_) * cols_ * sizeof(float); }
  int rows_, cols_;
  float* data_ = nullptr;
};

int main() {
  float h[4 * 8];
  for (int i = 0; i < 32; ++i) h[i] = 1.0f;
  int bad = 0;
  {
    DeviceMatrix m(4, 8);
    m.upload(h);
    m.scale(2.0f);
    m.download(h);
  }
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) bad += h[r * 8 + c] != 2.0f * (r + 1);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
