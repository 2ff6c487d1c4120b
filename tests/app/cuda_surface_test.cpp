// A user program on the emulator has CUDA's whole runtime surface, taken from the toolkit's own
// headers: every cudaDeviceAttr answers (with the emulated device's values), every cudaDeviceProp
// field is there, nvcc's version macros are defined, and a declared function the emulator does not
// implement links and fails at run time with cudaErrorNotSupported, naming itself once. The
// programs are written from the toolkit's headers here and run through `coopviz run`, the path a
// user's program takes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

using coop::testing::coopviz;

using coop::testing::read;

// The body of `opening { ... };` in CUDA's driver_types.h (the header beside cuda_runtime_api.h).
std::string toolkit_block(const std::string& opening) {
  const std::string text =
      read(fs::path(COOPVIZ_CUDA_RUNTIME_API).parent_path() / "driver_types.h");
  const size_t start = text.find(opening);
  if (start == std::string::npos) return "";
  return text.substr(start, text.find("};", start) - start);
}

// Every NAME = VALUE enumerator of cudaDeviceAttr but the cudaDevAttrMax end mark.
std::vector<std::string> device_attributes() {
  std::vector<std::string> names;
  const std::string block = toolkit_block("enum __device_builtin__ cudaDeviceAttr");
  const std::regex enumerator(R"((cudaDevAttr\w+)\s*=)");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), enumerator);
       it != std::sregex_iterator(); ++it)
    if ((*it)[1] != "cudaDevAttrMax") names.push_back((*it)[1]);
  return names;
}

// Every field of cudaDeviceProp, without the reserved padding.
std::vector<std::string> property_fields() {
  std::vector<std::string> names;
  std::string block = toolkit_block("struct __device_builtin__ cudaDeviceProp");
  block = std::regex_replace(block, std::regex(R"(/\*[\s\S]*?\*/)"), "");
  const std::regex field(R"((\w+)\s*(\[\d+\])*\s*;)");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), field);
       it != std::sregex_iterator(); ++it)
    if ((*it)[1] != "reserved") names.push_back((*it)[1]);
  return names;
}

// Runs `source` as a program file; its stdout lines "NAME STATUS VALUE" by name.
struct Answers {
  coop::testing::Ran ran;
  std::map<std::string, std::pair<long long, long long>> by_name;
};
Answers run_program(const std::string& name, const std::string& source) {
  const fs::path dir = coop::testing::fresh_folder(name);
  std::ofstream(dir / (name + ".cu")) << source;
  Answers a;
  a.ran = coopviz("run --backend emu " + (dir / (name + ".cu")).string());
  std::istringstream lines(a.ran.out);
  std::string key;
  long long status = 0, value = 0;
  while (lines >> key >> status >> value) a.by_name[key] = {status, value};
  fs::remove_all(dir);
  return a;
}

TEST(CudaSurface, TheToolkitsHeadersListWhatIsChecked) {
  EXPECT_GT(device_attributes().size(), 100u);
  EXPECT_GT(property_fields().size(), 80u);
}

TEST(CudaSurface, EveryDeviceAttributeAnswers) {
  std::string source =
      "#include <cuda_runtime.h>\n#include <cstdio>\nint main() {\n  int v;\n  cudaError_t e;\n";
  for (const std::string& a : device_attributes())
    source += "  v = -12345;\n  e = cudaDeviceGetAttribute(&v, " + a + ", 0);\n  printf(\"" + a +
              " %d %d\\n\", int(e), v);\n";
  source += "  return 0;\n}\n";
  const Answers got = run_program("every_attribute", source);
  ASSERT_EQ(got.ran.exit_code, 0) << got.ran.err;
  for (const std::string& a : device_attributes()) {
    ASSERT_TRUE(got.by_name.count(a)) << a << " not printed: " << got.ran.out;
    EXPECT_EQ(got.by_name.at(a).first, 0) << a << " is not answered";
    EXPECT_NE(got.by_name.at(a).second, -12345) << a << " left its value unset";
  }
  EXPECT_EQ(got.by_name.at("cudaDevAttrIntegrated").second, 0);
  EXPECT_EQ(got.by_name.at("cudaDevAttrWarpSize").second, 32);
  EXPECT_EQ(got.by_name.at("cudaDevAttrComputeCapabilityMajor").second, 9);  // the default H100
  EXPECT_GT(got.by_name.at("cudaDevAttrMultiProcessorCount").second, 0);
  EXPECT_EQ(got.by_name.at("cudaDevAttrCooperativeLaunch").second, 1);
  EXPECT_GE(got.by_name.at("cudaDevAttrMaxSharedMemoryPerBlockOptin").second,
            got.by_name.at("cudaDevAttrMaxSharedMemoryPerBlock").second);
}

TEST(CudaSurface, EveryDevicePropertyIsThereAndAgreesWithTheAttributes) {
  std::string source =
      "#include <cuda_runtime.h>\n#include <cstdio>\n#include <type_traits>\n"
      "template <class T> void show(const char* name, const T& v) {\n"
      "  if constexpr (std::is_arithmetic_v<T>) printf(\"%s 0 %lld\\n\", name, (long long)v);\n"
      "  else printf(\"%s 0 %d\\n\", name, int(sizeof v));\n}\n"
      "int main() {\n  cudaDeviceProp p;\n  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) "
      "return 1;\n";
  for (const std::string& f : property_fields()) source += "  show(\"" + f + "\", p." + f + ");\n";
  source +=
      "  int v = 0;\n"
      "  cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0); show(\"attr_threads\", v);\n"
      "  cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0); show(\"attr_l2\", v);\n"
      "  cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0); show(\"attr_sms\", v);\n"
      "  return 0;\n}\n";
  const Answers got = run_program("every_property", source);
  ASSERT_EQ(got.ran.exit_code, 0) << got.ran.err;
  for (const std::string& f : property_fields()) EXPECT_TRUE(got.by_name.count(f)) << f;
  EXPECT_EQ(got.by_name.at("integrated").second, 0);
  EXPECT_EQ(got.by_name.at("warpSize").second, 32);
  EXPECT_EQ(got.by_name.at("name").second, 256);  // the char[256] is there
  EXPECT_EQ(got.by_name.at("maxThreadsPerBlock").second, got.by_name.at("attr_threads").second);
  EXPECT_EQ(got.by_name.at("l2CacheSize").second, got.by_name.at("attr_l2").second);
  EXPECT_EQ(got.by_name.at("multiProcessorCount").second, got.by_name.at("attr_sms").second);
  EXPECT_GT(got.by_name.at("totalGlobalMem").second, 0);
}

TEST(CudaSurface, AnUnimplementedFunctionLinksAndSaysItIsNotSupported) {
  const Answers got = run_program("not_supported", R"(#include <cuda_runtime.h>
#include <cstdio>
int main() {
  cudaIpcMemHandle_t handle;
  printf("first %d 0\n", int(cudaIpcGetMemHandle(&handle, nullptr)));
  printf("again %d 0\n", int(cudaIpcGetMemHandle(&handle, nullptr)));
  printf("last_error %d 0\n", int(cudaGetLastError()));
  printf("not_supported %d 0\n", int(cudaErrorNotSupported));
  return 0;
}
)");
  ASSERT_EQ(got.ran.exit_code, 0) << got.ran.err;
  const long long not_supported = got.by_name.at("not_supported").first;
  EXPECT_EQ(got.by_name.at("first").first, not_supported);
  EXPECT_EQ(got.by_name.at("again").first, not_supported);
  EXPECT_EQ(got.by_name.at("last_error").first, not_supported);
  const std::string line = "coopviz: cudaIpcGetMemHandle is not supported on the emulator yet\n";
  const size_t at = got.ran.err.find(line);
  ASSERT_NE(at, std::string::npos) << got.ran.err;
  EXPECT_EQ(got.ran.err.find(line, at + 1), std::string::npos) << "said once: " << got.ran.err;
}

TEST(CudaSurface, NvccsMacrosAndStreamOrderedAllocationAreThere) {
  const Answers got = run_program("toolkit_macros", R"(#include <cuda_runtime.h>
#include <cstdio>
#ifndef __CUDACC__
#error "__CUDACC__ is not defined"
#endif
// The built-in variables have CUDA's types: uint3 indices, dim3 sizes.
__global__ void fill(int* out) {
  uint3 t = threadIdx;
  dim3 b(blockDim);
  dim3 g = gridDim;
  out[t.x] = int(t.x + b.y + g.z - 2 + make_int2(1, 2).y - 2);
}
int main() {
  printf("cudart %d %d\n", CUDART_VERSION, CUDA_VERSION);
  printf("nvcc %d %d\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__);
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  printf("runtime %d 0\n", runtime);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int* d = nullptr;
  const cudaError_t allocated = cudaMallocAsync(&d, 32 * sizeof(int), stream);
  fill<<<1, 32, 0, stream>>>(d);
  int h[32] = {};
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, stream);
  const cudaError_t freed = cudaFreeAsync(d, stream);
  cudaStreamSynchronize(stream);
  int sum = 0;
  for (int v : h) sum += v;
  printf("async %d %d\n", int(allocated) + int(freed), sum);
  return 0;
}
)");
  ASSERT_EQ(got.ran.exit_code, 0) << got.ran.err;
  const std::string api = read(COOPVIZ_CUDA_RUNTIME_API);
  std::smatch version;
  ASSERT_TRUE(std::regex_search(api, version, std::regex(R"(#define CUDART_VERSION\s+(\d+))")));
  const long long cudart = std::stoll(version[1]);
  EXPECT_EQ(got.by_name.at("cudart").first, cudart);
  EXPECT_EQ(got.by_name.at("cudart").second, cudart);
  EXPECT_EQ(got.by_name.at("nvcc").first, cudart / 1000);
  EXPECT_EQ(got.by_name.at("nvcc").second, cudart % 1000 / 10);
  EXPECT_EQ(got.by_name.at("runtime").first, cudart);
  EXPECT_EQ(got.by_name.at("async").first, 0);
  EXPECT_EQ(got.by_name.at("async").second, 31 * 32 / 2);
}

}  // namespace
