#include "device/occupancy/program_resources.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
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

// The table's row for `mangled` on `arch`, or null.
const ProgramKernelResources* row_of(const std::vector<ProgramKernelResources>& rows,
                                     const std::string& mangled, int arch) {
  for (const ProgramKernelResources& k : rows)
    if (k.arch == arch && k.mangled == mangled) return &k;
  return nullptr;
}

}  // namespace

std::vector<ProgramKernelResources> program_resources_from(std::string_view ptxas_report,
                                                           std::string_view ptx) {
  std::vector<ProgramKernelResources> rows;
  for (const PtxasKernelReport& r : parse_ptxas_report(ptxas_report)) {
    ProgramKernelResources k;
    k.mangled = r.mangled;
    k.arch = r.arch;
    k.regs = r.regs;
    k.static_smem = r.static_smem;
    k.local_bytes = r.stack_bytes;
    k.max_threads = max_threads_of(ptx, r.mangled);
    rows.push_back(k);
  }
  return rows;
}

std::string format_program_resources(const std::vector<ProgramKernelResources>& rows,
                                     const std::string& why_not) {
  std::ostringstream out;
  if (!why_not.empty()) out << "# not known: " << why_not.substr(0, why_not.find('\n')) << "\n";
  for (const ProgramKernelResources& k : rows)
    out << "sm_" << k.arch << " " << k.mangled << " regs=" << k.regs << " smem=" << k.static_smem
        << " local=" << k.local_bytes << " maxntid=" << k.max_threads << "\n";
  return out.str();
}

Result<ProgramResourceTable> parse_program_resources(std::string_view text) {
  static const std::regex row_re(
      R"(^sm_(\d+) (\S+) regs=(\d+) smem=(\d+) local=(\d+) maxntid=(\d+)$)");
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
                           "local=N maxntid=N': " + line.substr(0, 120));
    ProgramKernelResources k;
    k.arch = std::stoi(m[1]);
    k.mangled = m[2];
    k.regs = std::stoi(m[3]);
    k.static_smem = uint32_t(std::stoul(m[4]));
    k.local_bytes = uint32_t(std::stoul(m[5]));
    k.max_threads = uint32_t(std::stoul(m[6]));
    table.rows.push_back(k);
  }
  return table;
}

std::string cap_entry_registers(std::string_view ptx, const std::vector<ProgramKernelResources>& rows,
                                int arch, int& capped) {
  capped = 0;
  std::string out;
  size_t copied = 0;
  // `.entry NAME(PARAMETERS)`, then its performance directives, then its body's '{'.
  for (size_t at = ptx.find(".entry "); at != std::string_view::npos;
       at = ptx.find(".entry ", at + 7)) {
    const size_t name = at + 7, open = ptx.find('(', name);
    const size_t close = ptx.find(')', open), body = ptx.find('{', close);
    if (open == std::string_view::npos || close == std::string_view::npos ||
        body == std::string_view::npos)
      break;
    const ProgramKernelResources* k =
        row_of(rows, std::string(ptx.substr(name, open - name)), arch);
    if (!k || k->regs <= 0) continue;
    int cap = k->regs;
    const size_t given = ptx.substr(close, body - close).find(".maxnreg");
    out.append(ptx.substr(copied, (given == std::string_view::npos ? body : close + given) - copied));
    if (given != std::string_view::npos) {
      // __maxnreg__ in the source: its directive is replaced, by the smaller of the two.
      const size_t number = close + given + 8;
      size_t end = number;
      while (end < body && (ptx[end] == ' ' || ptx[end] == '\t')) ++end;
      const size_t digits = end;
      while (end < body && ptx[end] >= '0' && ptx[end] <= '9') ++end;
      if (end > digits) cap = std::min(cap, std::stoi(std::string(ptx.substr(digits, end - digits))));
      copied = end;
      out += ".maxnreg " + std::to_string(cap);
    } else {
      copied = body;
      out += ".maxnreg " + std::to_string(cap) + "\n";
    }
    ++capped;
  }
  out.append(ptx.substr(copied));
  return out;
}

std::vector<std::string> register_cap_notes(const std::vector<ProgramKernelResources>& rows,
                                            std::string_view capped_report, int arch) {
  std::vector<std::string> notes;
  for (const PtxasKernelReport& r : parse_ptxas_report(capped_report)) {
    const ProgramKernelResources* k = row_of(rows, r.mangled, arch);
    if (!k) continue;
    std::vector<std::string> said;
    if (r.regs != k->regs)
      said.push_back(std::to_string(r.regs) + " registers a thread, plain nvcc's build " +
                     std::to_string(k->regs) +
                     (r.regs > k->regs && r.regs <= 24 ? " (ptxas gives a capped kernel no fewer "
                                                         "than 24; up to 32 they limit no residency)"
                                                       : ""));
    if (r.stack_bytes != k->local_bytes)
      said.push_back(std::to_string(r.stack_bytes) + " bytes of stack a thread (localSizeBytes), "
                     "plain nvcc's build " + std::to_string(k->local_bytes));
    if (r.spill_stores || r.spill_loads)
      said.push_back("held to plain nvcc's registers, the instrumented code spills " +
                     std::to_string(r.spill_stores) + " bytes of stores and " +
                     std::to_string(r.spill_loads) + " of loads to local memory (slower, not wrong)");
    if (said.empty()) continue;
    std::string line = "kernel " + r.qualified + " on the GPU: ";
    for (size_t i = 0; i < said.size(); ++i) line += (i ? "; " : "") + said[i];
    notes.push_back(line);
  }
  return notes;
}

void register_program_resources(const ProgramResourceTable& table, const std::string& prefix,
                                const std::function<const void*(const std::string&)>& symbol) {
  // Registered rows point into these: a deque never moves what it holds.
  static std::mutex lock;
  static std::deque<CompiledKernelResources> rows;
  static std::deque<std::string> names;
  static std::set<std::pair<std::string, int>> registered;
  std::lock_guard<std::mutex> hold(lock);
  for (const ProgramKernelResources& k : table.rows) {
    const std::string name = prefix + demangled_name(k.mangled);
    if (!registered.insert({name, k.arch}).second) continue;
    names.push_back(name);
    CompiledKernelResources row{};
    row.qualified_name = names.back().c_str();
    row.function = symbol ? symbol(k.mangled) : nullptr;
    row.arch = k.arch;
    row.regs = k.regs;
    row.static_smem = k.static_smem;
    row.stack_bytes = k.local_bytes;
    row.max_threads = k.max_threads;
    rows.push_back(row);
    register_compiled_resources(&rows.back(), 1);
  }
}

}  // namespace coop
