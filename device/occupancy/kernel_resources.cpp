#include "device/occupancy/kernel_resources.hpp"

#include <algorithm>
#include <mutex>
#include <set>

#include "device/occupancy/occupancy.hpp"

namespace coop {
namespace {

struct Registry {
  std::mutex mutex;
  std::vector<const CompiledKernelResources*> rows;
};

Registry& registry() {
  static Registry r;
  return r;
}

// "block-reduce/reduce_block" -> "block_reduce::reduce_block".
std::string normalized(std::string_view name) {
  std::string s;
  for (char c : name) {
    if (c == '/')
      s += "::";
    else if (c == '-')
      s += '_';
    else
      s += c;
  }
  return s;
}

bool name_matches(std::string_view qualified, const std::string& wanted) {
  if (qualified == wanted) return true;
  if (qualified.size() <= wanted.size() + 2) return false;
  return qualified.substr(qualified.size() - wanted.size()) == wanted &&
         qualified.substr(qualified.size() - wanted.size() - 2, 2) == "::";
}

// Among rows of one kernel: the arch itself, else the nearest below, else the nearest above.
const CompiledKernelResources* best_arch(const std::vector<const CompiledKernelResources*>& rows,
                                         int arch, int cap) {
  const CompiledKernelResources* below = nullptr;
  const CompiledKernelResources* above = nullptr;
  for (const CompiledKernelResources* r : rows) {
    if (r->maxrregcount != cap) continue;
    if (r->arch == arch) return r;
    if (r->arch < arch && (!below || r->arch > below->arch)) below = r;
    if (r->arch > arch && (!above || r->arch < above->arch)) above = r;
  }
  return below ? below : above;
}

std::vector<const CompiledKernelResources*> rows_named(const std::string& wanted,
                                                       std::set<std::string>* kernels) {
  std::vector<const CompiledKernelResources*> out;
  for (const CompiledKernelResources* r : compiled_resources())
    if (name_matches(r->qualified_name, wanted)) {
      out.push_back(r);
      if (kernels) kernels->insert(r->qualified_name);
    }
  return out;
}

}  // namespace

bool register_compiled_resources(const CompiledKernelResources* rows, size_t count) {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  for (size_t i = 0; i < count; ++i)
    if (std::find(reg.rows.begin(), reg.rows.end(), &rows[i]) == reg.rows.end())
      reg.rows.push_back(&rows[i]);
  return true;
}

std::vector<const CompiledKernelResources*> compiled_resources() {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  return reg.rows;
}

const CompiledKernelResources* find_compiled_resources(const void* function, std::string_view name,
                                                       int arch, int cap) {
  if (function != nullptr) {
    std::vector<const CompiledKernelResources*> same;
    for (const CompiledKernelResources* r : compiled_resources())
      if (r->function == function) same.push_back(r);
    if (!same.empty()) return best_arch(same, arch, cap);
  }
  if (name.empty()) return nullptr;
  Result<const CompiledKernelResources*> r = find_compiled_resources_by_name(name, arch, cap);
  return r ? *r : nullptr;
}

Result<const CompiledKernelResources*> find_compiled_resources_by_name(std::string_view name,
                                                                       int arch, int cap) {
  std::set<std::string> kernels;
  const std::vector<const CompiledKernelResources*> rows = rows_named(normalized(name), &kernels);
  if (kernels.size() > 1) {
    std::string list;
    for (const std::string& k : kernels) list += (list.empty() ? "" : ", ") + k;
    return Status::error("kernel name '" + std::string(name) + "' is ambiguous: " + list);
  }
  if (kernels.empty()) {
    std::set<std::string> known;
    for (const CompiledKernelResources* r : compiled_resources()) known.insert(r->qualified_name);
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    return Status::error("no kernel the compiler reported on is called '" + std::string(name) +
                         "': known kernels are " + (list.empty() ? "(none built)" : list));
  }
  const CompiledKernelResources* row = best_arch(rows, arch, cap);
  if (row == nullptr)
    return Status::error("kernel " + *kernels.begin() + " was not compiled with --maxrregcount " +
                         std::to_string(cap));
  return row;
}

KernelResources to_kernel_resources(const CompiledKernelResources& row, const DeviceProps& device) {
  KernelResources k;
  k.regs_per_thread = row.regs;
  k.static_smem = row.static_smem;
  k.local_bytes = row.stack_bytes;
  k.max_threads_per_block = max_threads_for_registers(device, row.regs);
  if (row.max_threads > 0 && int(row.max_threads) < k.max_threads_per_block)
    k.max_threads_per_block = int(row.max_threads);
  return k;
}

std::string describe_source(const CompiledKernelResources& row, int wanted_arch) {
  std::string s = "ptxas -v for sm_" + std::to_string(row.arch);
  if (row.maxrregcount > 0) s += " with --maxrregcount " + std::to_string(row.maxrregcount);
  if (row.arch != wanted_arch) s += " (nearest to sm_" + std::to_string(wanted_arch) + ")";
  return s;
}

}  // namespace coop
