// `coopviz run --timeout N` with N above the executor's own bound on one launch (60 s) gives each
// launch N seconds as well: a long kernel (NVIDIA's conjugateGradientMultiBlockCG runs one
// grid-synchronised launch for 40 s and more on a loaded emulator) is not stopped before the
// program's own limit. The program reads the bound its launches run under.
#include <cstdio>
#include <cstdlib>

__global__ void nothing() {}

int main() {
  nothing<<<1, 1>>>();
  const cudaError_t e = cudaDeviceSynchronize();
  const char* limit = std::getenv("COOPVIZ_LAUNCH_TIMEOUT");
  printf("%s, launch time limit: %s\n", cudaGetErrorName(e), limit ? limit : "the executor's");
  printf("%s\n", e == cudaSuccess ? "PASSED" : "FAILED");
  return e == cudaSuccess ? 0 : 1;
}
