#include "device/lowering/lowering.hpp"

#include <cctype>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace coop {
namespace {

Status fail(const std::string& file, int line, const std::string& message) {
  return Status::error(file + ":" + std::to_string(line) + ": error: " + message);
}

// The line with // comments removed and string and character literals blanked (same length), so
// a __shared__ or <<< inside one is not mistaken for code.
std::string code_part(const std::string& line) {
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == '\\' && i + 1 < line.size()) {
        out += "  ";
        ++i;
        continue;
      }
      if (c == quote) quote = 0;
      out += ' ';
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      out += ' ';
      continue;
    }
    if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    out += c;
  }
  return out;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  const size_t b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// One __shared__ declaration (`code` is the line's code part, `line` the line itself).
Result<std::string> lower_shared_line(const std::string& line, const std::string& code, size_t at,
                                      const std::string& path, int number) {
  static const std::regex align_re(R"((__align__|alignas)\s*\(\s*([^)]*)\)\s*)");
  // TYPE NAME DIMS, with optional extern/static and __align__(N)/alignas(N) anywhere.
  static const std::regex decl_re(R"(^(.*?)\b([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)$)");
  const size_t semi = code.find(';', at);
  if (semi == std::string::npos)
    return fail(path, number, "a __shared__ declaration must end on its own line");
  std::string prefix = code.substr(0, at);
  std::string decl = code.substr(at + 10, semi - at - 10);
  const std::string after = line.substr(semi + 1);
  bool is_extern = false;
  for (const char* word : {"extern", "static"}) {
    const std::regex w(std::string(R"(\b)") + word + R"(\b\s*)");
    if (std::regex_search(prefix, w) || std::regex_search(decl, w)) {
      if (std::string(word) == "extern") is_extern = true;
      prefix = std::regex_replace(prefix, w, "");
      decl = std::regex_replace(decl, w, "");
    }
  }
  std::string align;
  std::smatch m;
  for (std::string* part : {&prefix, &decl}) {
    if (std::regex_search(*part, m, align_re)) {
      align = m[2];
      *part = std::regex_replace(*part, align_re, "");
    }
  }
  // The type may stand before __shared__ (`extern double __shared__ x[]`).
  std::string type_before = trim(prefix);
  const size_t indent_end = line.find_first_not_of(" \t");
  const std::string indent = line.substr(0, indent_end == std::string::npos ? 0 : indent_end);
  decl = trim(decl);
  if (decl.find(',') != std::string::npos && decl.find('<') == std::string::npos)
    return fail(path, number, "declare one __shared__ variable per line");
  if (decl.find('=') != std::string::npos)
    return fail(path, number, "a __shared__ variable cannot have an initializer");
  if (!std::regex_match(decl, m, decl_re))
    return fail(path, number, "cannot read this __shared__ declaration");
  std::string type = trim(trim(type_before) + " " + trim(m[1]));
  const std::string name = m[2], dims = trim(m[3]);
  if (type.empty()) return fail(path, number, "__shared__ declaration without a type");
  std::ostringstream repl;
  repl << indent;
  if (is_extern) {
    if (dims != "[]")
      return fail(path, number, "extern __shared__ must be an array of unknown size");
    repl << type << "* " << name << " = reinterpret_cast<" << type
         << "*>(::coop::emu::dynamic_shared(\"" << name << "\", sizeof(" << type << ")));";
  } else {
    if (dims.find("[]") != std::string::npos)
      return fail(path, number,
                  "a __shared__ array without a size must be declared extern (dynamic shared "
                  "memory)");
    // __LINE__ rather than the number: a #line directive (an exercise check's program) renumbers.
    repl << "static const ::coop::emu::SharedSlot coop_slot_" << name << "_" << number << "{\""
         << name << "\", __LINE__}; auto& " << name << " = ::coop::emu::shared_decl<"
         << type << dims << ">(coop_slot_" << name << "_" << number << ");";
    if (!align.empty()) repl << " static_assert(alignof(" << type << ") <= (" << align << "));";
  }
  return repl.str() + after;
}

// A __shared__ union or struct declared with its members, as CUB's examples keep the
// TempStorage of every primitive a kernel uses: `__shared__ union TempStorage { ... } temp;`,
// over several lines or one. `lines` runs from the __shared__ line to the one whose `}` closes
// the type (`close` there). The type is declared as written (coop_shared_type_LINE if it has no
// name) and the variable lowered as any other on the closing line, so every line stays in place.
Result<std::vector<std::string>> lower_shared_aggregate(std::vector<std::string> lines,
                                                       size_t at, size_t close,
                                                       const std::string& path, int number) {
  static const std::regex head_re(R"(__shared__\s+(union|struct)\s*([A-Za-z_]\w*)?\s*\{)");
  std::smatch m;
  const std::string first = lines.front().substr(at);
  if (!std::regex_search(first, m, head_re) || m.position(0) != 0)
    return fail(path, number, "cannot read this __shared__ declaration");
  const std::string type = m[2].matched ? m[2].str() : "coop_shared_type_" + std::to_string(number);
  const size_t head_end = at + size_t(m.length(0));
  const size_t indent_end = lines.front().find_first_not_of(" \t");
  const std::string indent = lines.front().substr(0, std::min(indent_end, at));
  // The closing line first: on a one-line declaration it is the first line too, and `close`
  // counts from its start as written.
  std::string& last = lines.back();
  const std::string variable = indent + "__shared__ " + type + " " + last.substr(close + 1);
  const std::string variable_code = code_part(variable);
  Result<std::string> lowered =
      lower_shared_line(variable, variable_code, variable_code.find("__shared__"), path,
                        number + int(lines.size()) - 1);
  if (!lowered) return lowered.status();
  last = last.substr(0, close + 1) + "; " + trim(*lowered);
  lines.front() = lines.front().substr(0, at) + m[1].str() + " " + type + " {" +
                  lines.front().substr(head_end);
  return lines;
}

// The kernel named just before `end` in `code`: an identifier, possibly qualified, possibly with
// template arguments (`ns::k<float, 4>`). Returns its start, or npos.
size_t name_start(const std::string& code, size_t end) {
  size_t i = end;
  while (i > 0 && (code[i - 1] == ' ' || code[i - 1] == '\t')) --i;
  if (i > 0 && code[i - 1] == '>') {  // template arguments: walk back to the matching '<'
    int depth = 0;
    while (i > 0) {
      --i;
      if (code[i] == '>') ++depth;
      if (code[i] == '<' && --depth == 0) break;
    }
    if (depth != 0) return std::string::npos;
  }
  while (i > 0 && (std::isalnum(static_cast<unsigned char>(code[i - 1])) || code[i - 1] == '_' ||
                   code[i - 1] == ':'))
    --i;
  return i < end ? i : std::string::npos;
}

// The first argument of the call whose '(' is at `open`: [start, end) in code, trimmed.
std::pair<size_t, size_t> first_argument(const std::string& code, size_t open) {
  int depth = 0;
  size_t i = open + 1;
  for (; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') {
      if (depth == 0) break;
      --depth;
    }
    if (c == ',' && depth == 0) break;
  }
  size_t a = open + 1, b = i;
  while (a < b && (code[a] == ' ' || code[a] == '\t')) ++a;
  while (b > a && (code[b - 1] == ' ' || code[b - 1] == '\t')) --b;
  return {a, b};
}

// A kernel named in a cast such as `(void*)k`, `(const void *)&k` or `reinterpret_cast<void*>(k)`.
std::string kernel_in_cast(std::string arg) {
  static const std::regex cast_re(
      R"(^\s*(?:\(\s*(?:const\s+)?void\s*\*\s*\)|reinterpret_cast\s*<\s*(?:const\s+)?void\s*\*\s*>)\s*)");
  arg = std::regex_replace(arg, cast_re, "");
  arg = trim(arg);
  while (!arg.empty() && arg.front() == '(' && arg.back() == ')') arg = trim(arg.substr(1, arg.size() - 2));
  if (!arg.empty() && arg.front() == '&') arg = trim(arg.substr(1));
  return arg;
}

// The built-in variables, where they stand as variables (not as a field after . or ->).
std::string lower_builtins(const std::string& line) {
  static const std::pair<const char*, const char*> kBuiltins[] = {
      {"threadIdx", "(::coop::byo::thread_idx())"},
      {"blockIdx", "(::coop::byo::block_idx())"},
      {"blockDim", "(::coop::byo::block_dim())"},
      {"gridDim", "(::coop::byo::grid_dim())"},
  };
  std::string code = code_part(line);
  code.resize(line.size(), ' ');
  std::string out;
  size_t i = 0;
  while (i < line.size()) {
    const unsigned char c = static_cast<unsigned char>(code[i]);
    if (!(std::isalpha(c) || c == '_')) {
      out += line[i++];
      continue;
    }
    size_t end = i;
    while (end < line.size() && (std::isalnum(static_cast<unsigned char>(code[end])) ||
                                 code[end] == '_'))
      ++end;
    const std::string word = line.substr(i, end - i);
    size_t before = i;
    while (before > 0 && (code[before - 1] == ' ' || code[before - 1] == '\t')) --before;
    // A field (x.gridDim, p->gridDim) or a qualified name (ns::gridDim), not the ?: colon.
    auto preceded_by = [&](const char* two) {
      return before > 1 && code[before - 2] == two[0] && code[before - 1] == two[1];
    };
    const bool member =
        before > 0 && (code[before - 1] == '.' || preceded_by("->") || preceded_by("::"));
    const char* replacement = nullptr;
    for (const auto& [name, repl] : kBuiltins)
      if (word == name) replacement = repl;
    out += replacement && !member ? replacement : word;
    i = end;
  }
  return out;
}

// Where the name at `at` starts with its global qualifier: `::name` is the same name as `name`
// (and the emulator's runtime makes both coop's), `ns::name` is another one (at is returned).
size_t global_qualifier(const std::string& code, size_t at) {
  if (at < 2 || code.compare(at - 2, 2, "::") != 0) return at;
  size_t k = at - 2;
  while (k > 0 && code[k - 1] == ' ') --k;
  const unsigned char c = k > 0 ? static_cast<unsigned char>(code[k - 1]) : ' ';
  return std::isalnum(c) || c == '_' || c == '>' || c == ':' ? at : at - 2;
}

// Prefixes ::coop:: to each match of `re` whose group `name` is unqualified or globally
// qualified (::f); members (x.f, p->f) and names of other namespaces (ns::f) stay as they are.
// The character before a name is checked here, not matched, so that a name right inside another
// match's parenthesis (__shfl_sync(__ballot_sync(m, p), v, 0)) is found too.
std::string prefix_coop(const std::string& line, const std::regex& re, int name) {
  std::string code = code_part(line);
  code.resize(line.size(), ' ');
  std::string out;
  size_t copied = 0;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), re); it != std::sregex_iterator();
       ++it) {
    const size_t at = size_t(it->position(name));
    const size_t start = global_qualifier(code, at);
    const char before = start > 0 ? code[start - 1] : ' ';
    if (start == at && (before == ':' || before == '.' || before == '>')) continue;
    out += line.substr(copied, start - copied) + "::coop::";
    copied = at;
  }
  return out + line.substr(copied);
}

// Calls of CUDA's atomics (and their _block and _system forms), __syncthreads(), warp intrinsics
// and the <cuda_pipeline.h> primitives, made calls of coop's traced ones; and libcu++'s
// atomic_ref, barrier, pipeline and memcpy_async, made coop's traced ones. nvcc has libcu++'s real
// namespace cuda, which cannot be made coop's as the emulator's headers do, so only these names
// move: the scopes, orders, aligned_size_t, pipeline_role and cuda::atomic stay libcu++'s.
std::string traced_calls(const std::string& line) {
  static const std::regex call_re(
      R"(\b((?:atomicAdd|atomicSub|atomicMin|atomicMax|atomicExch|atomicAnd|atomicOr|atomicXor)"
      R"(|atomicInc|atomicDec|atomicCAS)(?:_block|_system)?)"
      R"(|__syncthreads|__syncthreads_count|__syncthreads_and|__syncthreads_or)"
      R"(|__shfl_sync|__shfl_up_sync|__shfl_down_sync|__shfl_xor_sync|__ballot_sync|__any_sync)"
      R"(|__all_sync|__syncwarp|__pipeline_memcpy_async|__pipeline_commit|__pipeline_wait_prior)"
      R"()\s*\()");
  static const std::regex name_re(
      R"(\bcuda::(?:std::)?(?:atomic_ref|barrier)\b)"
      R"(|\bcuda::(?:memcpy_async|pipeline_shared_state|pipeline|make_pipeline)\b)"
      R"(|\bcuda::pipeline_consumer_wait_prior\b)");
  const std::string out = prefix_coop(line, call_re, 1);
  return out.find("cuda::") == std::string::npos ? out : prefix_coop(out, name_re, 0);
}

// A kernel's reads of the clock, in the emulator's modelled time (device/emu/modelled_time.hpp):
// clock() (the C library's name, which host code keeps: std::clock() is not rewritten, and
// device_clock() outside a kernel is the C library's), and the special registers that inline
// PTX reads with one mov, which the host compiler cannot assemble:
//   asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));  ->  (t) = ::coop::byo::globaltimer();
// Other inline PTX is left for the compiler to refuse.
std::string lower_clock_reads(const std::string& line) {
  static const std::regex clock_re(R"(\b(clock)\s*\(\s*\))");
  static const std::regex asm_re(
      R"(\b(?:asm|__asm__|__asm)\s*(?:volatile|__volatile__)?\s*\(\s*"\s*mov\.[ub](?:32|64)\s+%0\s*,)"
      R"(\s*%%(globaltimer|clock64|clock|smid|laneid)\s*;?\s*"\s*:\s*"=[lr]"\s*\(([^()]*)\)\s*)"
      R"((?::[^;]*)?\)\s*;)");
  std::string out = line;
  if (out.find("clock") != std::string::npos) {
    std::string code = code_part(out);
    code.resize(out.size(), ' ');
    std::string rewritten;
    size_t copied = 0;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), clock_re);
         it != std::sregex_iterator(); ++it) {
      const size_t at = size_t(it->position(1));
      const size_t start = global_qualifier(code, at);
      const char before = start > 0 ? code[start - 1] : ' ';
      if (start == at && (before == ':' || before == '.' || before == '>')) continue;
      rewritten += out.substr(copied, start - copied) + "::coop::byo::device_clock()";
      copied = at + size_t(it->length(0));
    }
    out = rewritten + out.substr(copied);
  }
  if (out.find("asm") == std::string::npos) return out;
  static const std::pair<const char*, const char*> kRegisters[] = {
      {"globaltimer", "::coop::byo::globaltimer()"},
      {"clock64", "::coop::byo::clock64_register()"},
      {"clock", "::coop::byo::clock_register()"},
      {"smid", "::coop::emu::this_thread().sm"},
      {"laneid", "::coop::emu::this_thread().lane"},
  };
  std::smatch m;
  while (std::regex_search(out, m, asm_re)) {
    const char* read = "";
    for (const auto& [name, call] : kRegisters)
      if (m[1] == name) read = call;
    out = m.prefix().str() + "(" + m[2].str() + ") = " + read + ";" + m.suffix().str();
  }
  return out;
}

// A kernel cast to void* (`(void*)k`, `(const void *)&k`): a CUDA Graph's kernel node gets only
// that address, so the runtime is told here which kernel it is (device/byo/graphs.hpp):
//   (void*)k  ->  (void*)::coop::byo::kernel_pointer("k", k)
// Any other operand of the cast (a buffer, an integer) goes through unchanged; an operand that
// continues past the name (a call, an index, a member) is not matched.
std::string lower_kernel_casts(const std::string& line) {
  if (line.find("void") == std::string::npos) return line;
  // (void*)k, with what may follow the operand; reinterpret_cast<void*>(k), with its parenthesis.
  static const std::regex cast_re(
      R"((\(\s*(?:const\s+)?void\s*\*\s*\))\s*(&\s*)?((?:::)?[A-Za-z_][\w:]*(?:\s*<[^<>;()]*>)?))"
      R"((?=\s*(?:[,;)}?:]|$))|)"
      R"((reinterpret_cast\s*<\s*(?:const\s+)?void\s*\*\s*>\s*\()\s*(&\s*)?)"
      R"(((?:::)?[A-Za-z_][\w:]*(?:\s*<[^<>;()]*>)?)(?=\s*\)))");
  std::string code = code_part(line);
  code.resize(line.size(), ' ');
  std::string out;
  size_t copied = 0;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), cast_re);
       it != std::sregex_iterator(); ++it) {
    const int g = (*it)[1].matched ? 1 : 4;  // which of the two forms
    const std::string name = line.substr(size_t(it->position(g + 2)), size_t(it->length(g + 2)));
    if (name == "nullptr" || name == "NULL" || name == "this") continue;
    out += line.substr(copied, size_t(it->position(0)) - copied) + it->str(g) +
           "::coop::byo::kernel_pointer(\"" + name + "\", " + it->str(g + 1) + name + ")";
    copied = size_t(it->position(0) + it->length(0));
  }
  return out + line.substr(copied);
}

// Rewrites the launches and allocations of one line of a program (see lowering.hpp).
Result<std::string> lower_program_line(std::string line, const std::string& path, int number,
                                       SourceKind kind) {
  if (kind == SourceKind::GpuProgram) line = traced_calls(line);
  if (kind == SourceKind::Program) line = lower_clock_reads(lower_builtins(line));
  for (size_t from = 0;;) {
    std::string code = code_part(line);
    code.resize(line.size(), ' ');
    const size_t open = code.find("<<<", from);
    if (open == std::string::npos) break;
    const size_t close = code.find(">>>", open + 3);
    if (close == std::string::npos)
      return fail(path, number, "a launch's <<< and >>> must be on one line");
    const size_t start = name_start(code, open);
    if (start == std::string::npos) return fail(path, number, "cannot read the kernel launched here");
    const std::string name = trim(line.substr(start, open - start));
    const std::string config = line.substr(open + 3, close - open - 3);
    const std::string repl =
        "::coop::byo::launcher(\"" + name + "\", " + name + ", " + config + ")";
    line = line.substr(0, start) + repl + line.substr(close + 3);
    from = start + repl.size();
  }
  struct Call {
    const char* api;
    const char* replacement;
    int kernel_argument;  // which argument names the kernel (0 or 1); -1: renamed (GPU only)
  };
  static const Call kCalls[] = {
      {"cudaLaunchCooperativeKernel", "::coop::byo::launch_cooperative", 0},
      {"cudaLaunchKernelEx", "::coop::byo::launch_ex", 1},
      {"cudaLaunchKernel", "::coop::byo::launch_kernel", 0},
      {"cudaMallocManaged", "::coop::byo::malloc_managed_as", 0},
      {"cudaMalloc", "::coop::byo::malloc_as", 0},
      {"cudaDeviceReset", "::coop::byo::device_reset", -1},
      {"cudaFree", "::coop::byo::free_device", -1},
      {"cudaFreeAsync", "::coop::byo::free_device_async", -1},
      {"cudaMallocAsync", "::coop::byo::malloc_device_async", -1},
  };
  // Compiled once: lowering runs over every line of a program and its headers.
  static const std::vector<std::regex> kPatterns = [] {
    std::vector<std::regex> v;
    for (const Call& call : kCalls) v.emplace_back(std::string(R"(\b)") + call.api + R"(\s*\()");
    return v;
  }();
  for (size_t c = 0; c < std::size(kCalls); ++c) {
    const Call& call = kCalls[c];
    if (line.find(call.api) == std::string::npos) continue;
    const std::regex& api_re = kPatterns[c];
    for (size_t from = 0;;) {
      std::string code = code_part(line);
      code.resize(line.size(), ' ');
      std::smatch m;
      const std::string rest = code.substr(from);
      if (!std::regex_search(rest, m, api_re)) break;
      size_t at = from + size_t(m.position(0));
      const size_t open = at + size_t(m.length(0)) - 1;
      // ::cudaFree(p) is CUDA's too, and its `::` goes with it; ns::cudaFree(p) is another's.
      if (at >= 2 && code.compare(at - 2, 2, "::") == 0) {
        const char before = at >= 3 ? code[at - 3] : ' ';
        if (std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '>') {
          from = open;
          continue;
        }
        at -= 2;
      }
      auto [a, b] = first_argument(code, open);
      std::string head;
      size_t replace_end = b;
      if (call.kernel_argument < 0) {
        if (kind == SourceKind::Program) break;
        head = std::string(call.replacement) + "(";
        replace_end = open + 1;
      } else if (call.kernel_argument == 0) {
        const std::string arg = line.substr(a, b - a);
        const std::string target = kernel_in_cast(arg);
        if (std::string(call.api).rfind("cudaMalloc", 0) == 0) {
          // cudaMalloc((void**)&d_x, n): named and typed by the variable.
          static const std::regex ptr_cast(R"(^\s*\(\s*void\s*\*\s*\*\s*\)\s*)");
          const std::string unc = trim(std::regex_replace(arg, ptr_cast, ""));
          if (unc.empty() || unc.front() != '&') {
            from = b;  // not the &variable form: the plain runtime call stays
            continue;
          }
          const std::string var = trim(unc.substr(1));
          head = std::string(call.replacement) + "(\"" + var + "\", " + unc;
        } else {
          head = std::string(call.replacement) + "(\"" + target + "\", " + target;
        }
      } else {
        // cudaLaunchKernelEx(&config, kernel, ...): the kernel is the second argument.
        if (b >= code.size() || code[b] != ',')
          return fail(path, number, std::string(call.api) + ": the kernel must follow the config on this line");
        auto [ka, kb] = first_argument(code, b);
        const std::string kernel = kernel_in_cast(line.substr(ka, kb - ka));
        head = std::string(call.replacement) + "(\"" + kernel + "\", " + line.substr(a, b - a) +
               ", " + kernel;
        replace_end = kb;
      }
      line = line.substr(0, at) + head + line.substr(replace_end);
      from = at + head.size();
    }
  }
  return lower_kernel_casts(line);
}

// Host code may name its own variable after a built-in one (`const int blockDim = 256;` in a
// blog post's main, or a parameter `int gridDim`): from its declaration to the end of its scope
// the name is the program's, not the built-in. There it is renamed (to coop_own_blockDim), so
// that lower_builtins leaves it alone; lines and the rest of the text stay as they are.
std::string rename_own_builtin_names(std::string text) {
  // The text's code, comments and strings blanked, at the same offsets.
  std::string code;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::string c = code_part(line);
    c.resize(line.size(), ' ');
    code += c + "\n";
  }
  code.resize(text.size(), ' ');
  for (const char* name : {"threadIdx", "blockIdx", "blockDim", "gridDim"}) {
    const std::regex declaration(std::string(R"(\b(?:int|unsigned|long|short|size_t|char|float|)"
                                             R"(double|auto|bool|dim3|uint3)\s*[*&]?\s+)") +
                                 name + R"(\s*([=;,\[({)]))");
    const std::regex use(std::string(R"((^|[^\w.>:]))") + name + R"(\b)");
    std::set<size_t> uses;  // where the program's own variable is named
    for (auto d = std::sregex_iterator(code.begin(), code.end(), declaration);
         d != std::sregex_iterator(); ++d) {
      const size_t at = size_t(d->position(0));
      // A parameter's scope is the function body after it; a variable's, the rest of its block.
      const bool parameter = (*d)[1] == ")" || (*d)[1] == ",";
      size_t end = at;
      for (int depth = 0; end < code.size(); ++end) {
        if (code[end] == '{') ++depth;
        if (code[end] == '}' && (depth-- == 0 || (parameter && depth == 0))) break;
      }
      for (auto u = std::sregex_iterator(code.begin() + at, code.begin() + end, use);
           u != std::sregex_iterator(); ++u)
        uses.insert(at + size_t(u->position(0) + u->length(1)));
    }
    for (auto u = uses.rbegin(); u != uses.rend(); ++u) {
      text.insert(*u, "coop_own_");
      code.insert(*u, "coop_own_");
    }
  }
  return text;
}

}  // namespace

std::string join_launch_chevrons(const std::string& text) {
  static const std::regex open_re(R"(<<\s*<)"), close_re(R"(>>\s*>)"),
      operator_re(R"(\boperator\s*$)");
  // Most programs write no chevrons apart: they come back as they are, unsearched.
  bool apart = false;
  for (size_t i = 0; !apart && i + 3 < text.size(); ++i) {
    const char c = text[i];
    if ((c != '<' && c != '>') || text[i + 1] != c) continue;
    size_t j = i + 2;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    apart = j > i + 2 && j < text.size() && text[j] == c;
  }
  if (!apart) return text;
  std::string out;
  for (size_t begin = 0; begin <= text.size();) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    for (size_t from = 0;;) {
      const std::string code = code_part(line);
      std::smatch open, close;
      const std::string rest = code.substr(std::min(from, code.size()));
      if (!std::regex_search(rest, open, open_re)) break;
      const size_t at = from + size_t(open.position(0));
      from = at + size_t(open.length(0));
      const std::string after = code.substr(from);
      if (std::regex_search(code.substr(0, at), operator_re) ||
          !std::regex_search(after, close, close_re))
        continue;
      line.replace(from + size_t(close.position(0)), size_t(close.length(0)), ">>>");
      line.replace(at, size_t(open.length(0)), "<<<");
      from = at + 3;
    }
    out += line;
    if (end == text.size()) break;
    out += '\n';
    begin = end + 1;
  }
  return out;
}

Result<std::string> lower_source(const std::string& text, const std::string& path,
                                 SourceKind kind) {
  std::ostringstream out;
  out << "#line 1 \"" << path << "\"\n";
  static const std::regex ns_re(R"(\bnamespace\s+coop::lessons::)");
  std::istringstream in(kind == SourceKind::Program ? rename_own_builtin_names(text) : text);
  std::string line;
  int number = 0;
  bool in_block_comment = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string code = code_part(line);
    if (in_block_comment || code.find("/*") != std::string::npos) {
      // Block comments are rare in kernels; code on a line that opens or closes one is left alone.
      const bool opens = code.find("/*") != std::string::npos;
      const bool closes = code.find("*/") != std::string::npos;
      in_block_comment = (in_block_comment || opens) && !closes;
      out << line << "\n";
      continue;
    }
    if (kind == SourceKind::Lesson && std::regex_search(code, ns_re)) {
      out << std::regex_replace(line, ns_re, "namespace coop::lessons::emulated::") << "\n";
      continue;
    }
    if (kind != SourceKind::Lesson) {
      Result<std::string> lowered = lower_program_line(line, path, number, kind);
      if (!lowered) return lowered.status();
      line = *lowered;
    }
    if (kind == SourceKind::GpuProgram || kind == SourceKind::GpuHost) {  // nvcc knows __shared__
      out << line << "\n";
      continue;
    }
    const std::string lowered_code = code_part(line);
    const size_t at = lowered_code.find("__shared__");
    if (at == std::string::npos) {
      out << line << "\n";
      continue;
    }
    static const std::regex aggregate_re(R"(^__shared__\s+(union|struct)\b[^;{]*\{)");
    if (std::regex_search(lowered_code.substr(at), aggregate_re)) {
      // Read on to the line whose `}` closes the type.
      std::vector<std::string> lines{line};
      int depth = 0;
      size_t close = std::string::npos;
      for (size_t from = at;;) {
        const std::string code = code_part(lines.back());
        for (size_t i = from; i < code.size() && close == std::string::npos; ++i) {
          if (code[i] == '{') ++depth;
          if (code[i] == '}' && --depth == 0) close = i;
        }
        if (close != std::string::npos) break;
        std::string next;
        if (!std::getline(in, next))
          return fail(path, number, "this __shared__ declaration's { is never closed");
        if (!next.empty() && next.back() == '\r') next.pop_back();
        Result<std::string> member = lower_program_line(next, path, number + int(lines.size()), kind);
        if (!member) return member.status();
        lines.push_back(*member);
        from = 0;
      }
      Result<std::vector<std::string>> declared =
          lower_shared_aggregate(lines, at, close, path, number);
      if (!declared) return declared.status();
      for (const std::string& l : *declared) out << l << "\n";
      number += int(lines.size()) - 1;
      continue;
    }
    Result<std::string> shared = lower_shared_line(line, lowered_code, at, path, number);
    if (!shared) return shared.status();
    out << *shared << "\n";
  }
  return kind == SourceKind::GpuHost ? strip_device_code(out.str()) : out.str();
}

std::string program_prelude(SourceKind kind) {
  switch (kind) {
    case SourceKind::Program:
      return "#include \"device/byo/runtime.hpp\"\n";
    case SourceKind::GpuProgram:
      return "#include \"device/byo/gpu_runtime.cuh\"\n";
    case SourceKind::GpuHost:
      return "#include \"device/byo/gpu_host_runtime.hpp\"\n";
    case SourceKind::Lesson:
      break;
  }
  return "";
}

}  // namespace coop
