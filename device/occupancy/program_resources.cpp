#include "device/occupancy/program_resources.hpp"

#include <cstdio>
#include <deque>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "device/occupancy/kernel_resources.hpp"
#include "device/occupancy/resource_report.hpp"

namespace coop {
namespace {

// The .maxntid of entry `mangled` in `ptx`, 0 when it has none: the directive follows the
// entry's parameter list and comes before its body.
uint32_t max_threads_of(std::string_view ptx, const std::string& mangled) {
  const std::string entry = ".entry " + mangled + "(";
  const size_t at = ptx.find(entry);
  if (at == std::string_view::npos) return 0;
  const size_t body = ptx.find('{', at);
  const size_t directive = ptx.find(".maxntid", at);
  if (directive == std::string_view::npos || directive > body) return 0;
  uint32_t x = 1, y = 1, z = 1;
  const std::string text(ptx.substr(directive + 8, 40));
  if (std::sscanf(text.c_str(), " %u , %u , %u", &x, &y, &z) < 1) return 0;
  return x * y * z;
}

}  // namespace

std::vector<ProgramKernelResources> program_resources_from(std::string_view ptxas_report,
                                                           std::string_view ptx, int cap) {
  std::vector<ProgramKernelResources> rows;
  for (const PtxasKernelReport& r : parse_ptxas_report(ptxas_report)) {
    ProgramKernelResources k;
    k.mangled = r.mangled;
    k.arch = r.arch;
    k.regs = r.regs;
    k.static_smem = r.static_smem;
    k.local_bytes = r.stack_bytes;
    k.max_threads = max_threads_of(ptx, r.mangled);
    k.maxrregcount = cap;
    k.spill_stores = r.spill_stores;
    rows.push_back(k);
  }
  return rows;
}

std::string format_program_resources(const std::vector<ProgramKernelResources>& rows,
                                     const std::string& why_not) {
  std::ostringstream out;
  if (!why_not.empty()) out << "# not known: " << why_not.substr(0, why_not.find('\n')) << "\n";
  for (const ProgramKernelResources& k : rows) {
    out << "sm_" << k.arch << " " << k.mangled << " regs=" << k.regs << " smem=" << k.static_smem
        << " local=" << k.local_bytes << " maxntid=" << k.max_threads;
    if (k.maxrregcount > 0) out << " maxrregcount=" << k.maxrregcount;
    out << " spills=" << k.spill_stores << "\n";
  }
  return out.str();
}

Result<ProgramResourceTable> parse_program_resources(std::string_view text) {
  static const std::regex row_re(
      R"(^sm_(\d+) (\S+) regs=(\d+) smem=(\d+) local=(\d+) maxntid=(\d+)(?: maxrregcount=(\d+))?(?: spills=(\d+))?$)");
  ProgramResourceTable table;
  std::istringstream in{std::string(text)};
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.starts_with("# not known: ")) {
      table.why_not = line.substr(13);
      continue;
    }
    std::smatch m;
    if (!std::regex_match(line, m, row_re))
      return Status::error("line " + std::to_string(number) +
                           " of the kernel resource table is not 'sm_NN SYMBOL regs=N smem=N "
                           "local=N maxntid=N[ maxrregcount=N] spills=N': " +
                           line.substr(0, 120));
    ProgramKernelResources k;
    k.arch = std::stoi(m[1]);
    k.mangled = m[2];
    k.regs = std::stoi(m[3]);
    k.static_smem = uint32_t(std::stoul(m[4]));
    k.local_bytes = uint32_t(std::stoul(m[5]));
    k.max_threads = uint32_t(std::stoul(m[6]));
    if (m[7].matched) k.maxrregcount = std::stoi(m[7]);
    if (m[8].matched) k.spill_stores = uint32_t(std::stoul(m[8]));
    table.rows.push_back(k);
  }
  return table;
}

void register_program_resources(const ProgramResourceTable& table, const std::string& prefix,
                                const std::function<const void*(const std::string&)>& symbol) {
  // Registered rows point into these: a deque never moves what it holds.
  static std::mutex lock;
  static std::deque<CompiledKernelResources> rows;
  static std::deque<std::string> names;
  static std::set<std::tuple<std::string, int, int>> registered;
  std::lock_guard<std::mutex> hold(lock);
  for (const ProgramKernelResources& k : table.rows) {
    const std::string name = prefix + demangled_name(k.mangled);
    if (!registered.insert({name, k.arch, k.maxrregcount}).second) continue;
    names.push_back(name);
    CompiledKernelResources row{};
    row.qualified_name = names.back().c_str();
    row.function = symbol ? symbol(k.mangled) : nullptr;
    row.arch = k.arch;
    row.regs = k.regs;
    row.static_smem = k.static_smem;
    row.stack_bytes = k.local_bytes;
    row.max_threads = k.max_threads;
    row.maxrregcount = k.maxrregcount;
    row.spill_stores = k.spill_stores;
    rows.push_back(row);
    register_compiled_resources(&rows.back(), 1);
  }
}

}  // namespace coop
