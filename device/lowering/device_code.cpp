#include "device/lowering/device_code.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>
#include <vector>

#include "device/lowering/code_scan.hpp"

namespace coop {
namespace {

struct DeviceFunction {
  std::string name;
  const char* qualifier;  // "__global__" or "__device__"
  size_t body = 0, end = 0;
};

// The __global__ and __device__ functions of `m` (a code_mask) that have a body, with it.
std::vector<DeviceFunction> device_functions(const std::string& m) {
  std::vector<DeviceFunction> found;
  for (const DeviceDeclaration& d : device_declarations(m)) {
    if (d.close == std::string::npos) continue;
    const size_t open = parameter_list(m, d.keyword, d.end);
    if (open == std::string::npos) continue;
    size_t w = open;
    while (w > 0 && std::isspace(static_cast<unsigned char>(m[w - 1]))) --w;
    size_t b = w;
    while (b > 0 && word_char(m[b - 1])) --b;
    found.push_back({m.substr(b, w - b), d.kernel ? "__global__" : "__device__", d.end, d.close});
  }
  return found;
}

int line_of(const std::string& text, size_t at) {
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

}  // namespace

bool launches_from_device_code(const std::string& text) {
  const std::string m = code_mask(text);
  for (const char* stream : {"cudaStreamTailLaunch", "cudaStreamFireAndForget"})
    if (find_word(m, stream, 0) != std::string::npos) return true;
  for (const DeviceFunction& f : device_functions(m))
    if (m.substr(f.body, f.end - f.body).find("<<<") != std::string::npos) return true;
  return false;
}

namespace {

// The first call in the device functions of `m` (a code_mask) of a function `names` names: not a
// member's (x.f) or another namespace's (ns::f), and followed by ( or <. `at` is npos when none.
struct DeviceCall {
  size_t at = std::string::npos;
  std::string name;
  DeviceFunction in;
};
DeviceCall first_device_call(const std::string& m, std::initializer_list<const char*> names) {
  DeviceCall first;
  for (const DeviceFunction& f : device_functions(m)) {
    for (const char* name : names) {
      const std::string n = name;
      for (size_t at = find_word(m, n, f.body); at < f.end; at = find_word(m, n, at + 1)) {
        size_t b = at;
        while (b > 0 && std::isspace(static_cast<unsigned char>(m[b - 1]))) --b;
        if (b > 0 && (m[b - 1] == '.' || m[b - 1] == '>')) continue;
        if (b > 2 && m[b - 1] == ':' && m[b - 2] == ':' && word_char(m[b - 3])) continue;
        size_t after = at + n.size();
        while (after < m.size() && std::isspace(static_cast<unsigned char>(m[after]))) ++after;
        if (after >= m.size() || (m[after] != '(' && m[after] != '<')) continue;
        if (at < first.at) first = {at, n, f};
        break;
      }
    }
  }
  return first;
}

}  // namespace

Status check_device_code_calls(const std::string& text, const std::string& path) {
  if (text.find("cuda") == std::string::npos) return {};
  // Runtime functions the device runtime does not have, which nvcc 13 refuses in device code
  // (checked one by one); their asynchronous forms are the device's (cudaMemcpyAsync).
  const DeviceCall c = first_device_call(
      code_mask(text), {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaStreamQuery",
                        "cudaStreamCreate", "cudaMemcpy", "cudaLaunchKernel",
                        "cudaEventSynchronize", "cudaLaunchCooperativeKernel"});
  if (c.at == std::string::npos) return {};
  return Status::error(path + ":" + std::to_string(line_of(text, c.at)) +
                       ": error: calling a __host__ function(\"" + c.name + "\") from a " +
                       c.in.qualifier + " function(\"" + c.in.name + "\") is not allowed");
}

Status check_emulator_device_code(const std::string& text, const std::string& path) {
  if (text.find("tex") == std::string::npos && text.find("surf") == std::string::npos) return {};
  const DeviceCall c = first_device_call(
      code_mask(text),
      {"tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered", "texCubemap",
       "texCubemapLayered", "tex1DLod", "tex2DLod", "tex3DLod", "tex1DGrad", "tex2DGrad",
       "tex3DGrad", "tex2Dgather", "surf1Dread", "surf1Dwrite", "surf2Dread", "surf2Dwrite",
       "surf3Dread", "surf3Dwrite", "surf1DLayeredread", "surf1DLayeredwrite",
       "surf2DLayeredread", "surf2DLayeredwrite"});
  if (c.at == std::string::npos) return {};
  return Status::error(path + ":" + std::to_string(line_of(text, c.at)) + ": error: " + c.name +
                       " in " + c.in.qualifier + " function(\"" + c.in.name +
                       "\"): texture and surface reads and writes are not supported on the "
                       "emulator (--backend gpu runs them on a GPU)");
}

}  // namespace coop
