#include "device/lowering/kernel_bindings.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>

namespace coop {
namespace {

Status fail(const std::string& path, int line, const std::string& message) {
  return Status::error(path + ":" + std::to_string(line) + ": error: " + message);
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\n");
  const size_t b = s.find_last_not_of(" \t\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// `text` with comments and string and character literals blanked to spaces; newlines stay, so
// offsets and line numbers are those of the original.
std::string code_only(const std::string& text) {
  std::string out = text;
  enum { Code, Line, Block, Quote } state = Code;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (state == Code) {
      if (c == '/' && next == '/') state = Line;
      if (c == '/' && next == '*') state = Block;
      if (c == '"' || c == '\'') state = Quote, quote = c;
      if (state != Code) out[i] = ' ';
      continue;
    }
    if (c == '\n') {
      if (state == Line) state = Code;
      continue;
    }
    out[i] = ' ';
    if (state == Block && c == '*' && next == '/') {
      out[++i] = ' ';
      state = Code;
    } else if (state == Quote && c == '\\' && next != '\n') {
      out[++i] = ' ';
    } else if (state == Quote && c == quote) {
      state = Code;
    }
  }
  return out;
}

int line_at(const std::string& text, size_t pos) {
  return int(std::count(text.begin(), text.begin() + std::ptrdiff_t(pos), '\n')) + 1;
}

// The closing bracket that matches the one at `open`, or npos.
size_t matching(const std::string& code, size_t open) {
  const char o = code[open], c = o == '(' ? ')' : o == '<' ? '>' : o == '[' ? ']' : '}';
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    if (code[i] == o) ++depth;
    if (code[i] == c && --depth == 0) return i;
  }
  return std::string::npos;
}

// Words that make up a built-in type; a parameter's last word is its name unless it is one.
bool is_builtin_word(const std::string& word) {
  static const std::set<std::string> kWords = {
      "bool", "char", "char8_t", "char16_t", "char32_t", "wchar_t", "short",
      "int",  "long", "signed",  "unsigned", "float",    "double",  "void"};
  return kWords.count(word) > 0;
}

// Type names the generated header can spell: built-ins and those of <cstddef> and <cstdint>.
// A lesson's own struct or a CUDA vector type exists only in the kernel file, which the host
// side of a binding never includes.
bool is_known_type_word(const std::string& word) {
  static const std::regex kStandard(
      R"((std::)?(size_t|ptrdiff_t|u?int(8|16|32|64)_t|u?intptr_t)|const|volatile)");
  return is_builtin_word(word) || std::regex_match(word, kStandard);
}

// "const  float *" -> "const float*": single spaces, pointers against their type.
std::string normalized_type(const std::string& type) {
  std::string out;
  for (char c : type) {
    if (c == '\t' || c == '\n') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    if (c == '*' && !out.empty() && out.back() == ' ') out.pop_back();
    out += c;
  }
  return trim(out);
}

// One parameter's text ("const float* __restrict__ input") as a type and a name.
Result<KernelParam> read_param(std::string text, const std::string& path, int line) {
  static const std::regex kRestrict(R"(\b__restrict__\b|\b__restrict\b)");
  static const std::regex kQualifiers(R"(((const|volatile)\s*)*)");
  static const std::regex kLastWord(R"(^(.*?)\b([A-Za-z_]\w*)$)");
  static const std::regex kWord(R"([A-Za-z_][\w:]*)");
  text = std::regex_replace(text, kRestrict, " ");
  if (const size_t eq = text.find('='); eq != std::string::npos) text = text.substr(0, eq);
  text = trim(text);
  if (text.find('&') != std::string::npos)
    return fail(path, line, "kernel parameter '" + text + "' is a reference; kernels take values");
  if (text.find('[') != std::string::npos)
    return fail(path, line, "kernel parameter '" + text + "' is an array; write it as a pointer");
  KernelParam p;
  std::smatch m;
  // "unsigned n" is named n, "unsigned" and "const Quad" are not named.
  if (std::regex_match(text, m, kLastWord) && !is_builtin_word(m[2])) {
    const std::string rest = trim(m[1]);
    if (!std::regex_match(rest, kQualifiers)) {
      p.name = m[2];
      text = rest;
    }
  }
  p.type = normalized_type(text);
  for (auto it = std::sregex_iterator(p.type.begin(), p.type.end(), kWord);
       it != std::sregex_iterator(); ++it) {
    if (!is_known_type_word(it->str()))
      return fail(path, line,
                  "kernel parameter type '" + p.type + "' names '" + it->str() +
                      "', which the host side of the binding does not know; use built-in types, "
                      "<cstdint>/<cstddef> types and pointers to them");
  }
  return p;
}

// The parameters between the parentheses at [open, close] of `code`.
Result<std::vector<KernelParam>> read_params(const std::string& code, size_t open, size_t close,
                                             const std::string& path) {
  std::vector<KernelParam> params;
  const std::string list = trim(code.substr(open + 1, close - open - 1));
  if (list.empty() || list == "void") return params;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open + 1; i <= close; ++i) {
    const char c = code[i];
    if (c == '(' || c == '<' || c == '[') ++depth;
    if ((c == ')' || c == '>' || c == ']') && i < close) --depth;
    if ((c == ',' && depth == 0) || i == close) {
      const int line = line_at(code, std::min(code.find_first_not_of(" \t\n", start), i));
      Result<KernelParam> p = read_param(code.substr(start, i - start), path, line);
      if (!p) return p.status();
      params.push_back(*p);
      start = i + 1;
    }
  }
  return params;
}

std::string kernel_type(const KernelSignature& k) {
  std::string out = "Kernel<";
  for (size_t i = 0; i < k.params.size(); ++i) out += (i ? ", " : "") + k.params[i].type;
  return out + ">";
}

std::string signature_comment(const KernelSignature& k) {
  std::string out = k.name + "(";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const KernelParam& p = k.params[i];
    out += (i ? ", " : "") + p.type + (p.name.empty() ? "" : " " + p.name);
  }
  return out + ")";
}

}  // namespace

Result<KernelFile> read_kernels(const std::string& text, const std::string& path) {
  const std::string code = code_only(text);
  KernelFile file;
  std::smatch m;
  static const std::regex kNamespace(R"(\bnamespace\s+(coop::lessons::\w+)\s*\{)");
  if (!std::regex_search(code, m, kNamespace))
    return fail(path, 1, "kernels must be defined in a namespace coop::lessons::<name> { ... }");
  file.name_space = m[1];
  static const std::regex kGlobal(R"(\b__global__\b)");
  // The declaration up to its parameters: `__global__ void [__launch_bounds__(...)] name(`.
  static const std::regex kHead(
      R"(__global__\s+void\s+(__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\()");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), kGlobal);
       it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position());
    const int line = line_at(code, at);
    const size_t before = code.find_last_not_of(" \t\n", at == 0 ? 0 : at - 1);
    if (at > 0 && before != std::string::npos && code[before] == '>')
      return fail(path, line, "a template kernel cannot be bound; instantiate it in a plain one");
    std::smatch h;
    if (!std::regex_search(code.cbegin() + std::ptrdiff_t(at), code.cend(), h, kHead,
                           std::regex_constants::match_continuous))
      return fail(path, line,
                  "cannot read this kernel's declaration (expected "
                  "`__global__ void name(parameters)`)");
    const size_t open = at + size_t(h.length(0)) - 1;
    const size_t close = matching(code, open);
    if (close == std::string::npos) return fail(path, line, "kernel parameters never close");
    const size_t body = code.find_first_not_of(" \t\n", close + 1);
    if (body == std::string::npos || code[body] != '{') continue;  // a declaration only
    KernelSignature k;
    k.name = h[2];
    k.line = line;
    Result<std::vector<KernelParam>> params = read_params(code, open, close, path);
    if (!params) return params.status();
    k.params = *params;
    file.kernels.push_back(k);
  }
  if (file.kernels.empty()) return fail(path, 1, "no __global__ kernel is defined here");
  return file;
}

KernelBindingFiles write_kernel_bindings(const KernelFile& file, const std::string& folder,
                                         const std::string& kernel_file) {
  const std::string stem = kernel_file.substr(0, kernel_file.rfind('.'));
  const std::string emulated =
      "coop::lessons::emulated::" + file.name_space.substr(file.name_space.rfind(':') + 1);
  const std::string generated = "// Generated by coopviz-lower from " + folder + "/" + kernel_file +
                                ". Do not edit: change the kernel file.\n";
  const std::string open_ns = "namespace " + file.name_space + " {\n\n";
  const std::string close_ns = "\n}  // namespace " + file.name_space + "\n";
  KernelBindingFiles out;

  std::ostringstream h;
  h << generated << "// The kernels of " << kernel_file << " as both backends see them.\n"
    << "#pragma once\n\n#include <cstddef>\n#include <cstdint>\n\n"
    << "#include \"device/launch/kernel.hpp\"\n\n"
    << open_ns << "struct Kernels {\n";
  for (const KernelSignature& k : file.kernels)
    h << "  // " << signature_comment(k) << "\n  " << kernel_type(k) << " " << k.name << "{\""
      << k.name << "\", {}, nullptr};\n";
  h << "};\n\n"
    << "void bind_gpu(Kernels& k);  // kernels.cu: the entries nvcc compiled\n"
    << "void bind_emu(Kernels& k);  // kernels_emu.cpp: the lowered kernels\n"
    << "const Kernels& kernels();   // both backends bound\n"
    << close_ns;
  out.header = h.str();

  std::ostringstream g;
  g << generated << "#include \"" << folder << "/kernels.hpp\"\n\n"
    << "#include \"device/gpu/module.cuh\"\n#include \"" << folder << "/" << kernel_file << "\"\n\n"
    << open_ns << "void bind_gpu(Kernels& k) {\n";
  for (const KernelSignature& k : file.kernels)
    g << "  k." << k.name << ".gpu = COOP_GPU_ENTRY(" << k.name << ");\n";
  g << "}\n" << close_ns;
  out.gpu_source = g.str();

  std::ostringstream e;
  e << generated << "#include \"" << folder << "/kernels.hpp\"\n\n"
    << "#include \"device/launch/bound_kernels.hpp\"\n\n"
    << "// " << kernel_file << " lowered for the emulator (namespace " << emulated << ").\n"
    << "#include \"" << stem << ".emu.cuh\"\n\n"
    << open_ns << "void bind_emu(Kernels& k) {\n";
  for (const KernelSignature& k : file.kernels)
    e << "  k." << k.name << ".emu = &::" << emulated << "::" << k.name << ";\n";
  e << "}\n\nconst Kernels& kernels() { return bound_kernels(bind_gpu, bind_emu); }\n" << close_ns;
  out.emu_source = e.str();
  return out;
}

}  // namespace coop
