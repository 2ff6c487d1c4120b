#include "device/occupancy/program_resources.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <map>
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

// `mangled` with the name nvcc gives an unnamed namespace cut out: it holds the file's name and
// more of the translation unit's (`46_GLOBAL__N__9feaffa7_17_anon_occupancy_cu_main`), so the
// instrumented copy of a program, a file of another name, names the same kernel otherwise. The
// length before it says where it ends.
std::string without_unit_name(std::string mangled) {
  static const std::string unnamed = "_GLOBAL__N_";
  for (size_t at = mangled.find(unnamed); at != std::string::npos;
       at = mangled.find(unnamed, at + unnamed.size())) {
    size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(mangled[digits - 1]))) --digits;
    if (digits == at || at - digits > 6) continue;
    const size_t length = std::stoul(mangled.substr(digits, at - digits));
    if (at + length > mangled.size()) break;
    mangled.replace(digits, at + length - digits, unnamed);
    at = digits;
  }
  return mangled;
}

// The table's rows for `arch`, by their kernels' names as without_unit_name gives them.
std::map<std::string, const ProgramKernelResources*> rows_by_name(
    const std::vector<ProgramKernelResources>& rows, int arch) {
  std::map<std::string, const ProgramKernelResources*> by_name;
  for (const ProgramKernelResources& k : rows)
    if (k.arch == arch) by_name.emplace(without_unit_name(k.mangled), &k);
  return by_name;
}

const ProgramKernelResources* row_of(
    const std::map<std::string, const ProgramKernelResources*>& by_name,
    const std::string& mangled) {
  const auto found = by_name.find(without_unit_name(mangled));
  return found == by_name.end() ? nullptr : found->second;
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

std::string cap_entry_registers(std::string_view ptx, const std::vector<ProgramKernelResources>& rows,
                                int arch, int& capped) {
  capped = 0;
  const auto by_name = rows_by_name(rows, arch);
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
        row_of(by_name, std::string(ptx.substr(name, open - name)));
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
  const auto by_name = rows_by_name(rows, arch);
  for (const PtxasKernelReport& r : parse_ptxas_report(capped_report)) {
    const ProgramKernelResources* k = row_of(by_name, r.mangled);
    if (!k) {
      notes.push_back("kernel " + r.qualified + " on the GPU: " + std::to_string(r.regs) +
                      " registers a thread, the instrumented build's: plain nvcc's build has no "
                      "kernel of its symbol to hold it to");
      continue;
    }
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
