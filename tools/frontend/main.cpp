// coopviz-frontend: reads a CUDA source with Clang's C++ front end and prints the edits that
// lower its launches and __shared__ declarations (tools/frontend/launch_edits.hpp). coopviz runs
// it on each file of a user's program before compiling it (device/lowering/front_end.hpp).
//
//   coopviz-frontend FILE [CLANG OPTION]... < TEXT
//
// TEXT is FILE's text (read from standard input: the caller may lower a text that is not on
// disk); the options are the program's own -I and -D. The source is parsed as CUDA host code
// against the toolkit's headers; Clang's errors are counted, not printed: a program that g++
// compiles may be refused by Clang here and there, and what Clang still read is used.
//
// Output, one record a line: `frontend 1 errors=E launches=L shared=S shown=N blocks=K`, then
// `edit launch|shared|shown|blocks OFFSET LENGTH TEXT` (TEXT with \\ and \n escaped) and
// `skip WHERE: WHY` for what is left to the line lowering (WHY "not shown: ..." for an access
// left plain). --record-blocks adds each kernel's block records (shown_edits.hpp).
//
// --pch-dir=DIR keeps the prelude below precompiled in DIR, with <cooperative_groups.h> when the
// source includes it where moving it first changes nothing: most of a parse is those headers.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "tools/frontend/launch_edits.hpp"
#include "tools/frontend/shown_edits.hpp"

namespace {

// What nvcc gives every CUDA source before its first line, as far as finding launches needs:
// CUDA's runtime header with __CUDACC__ (its __global__ and __shared__ become Clang's CUDA
// attributes), Clang's built-in variables, and the call `<<<>>>` stands for.
constexpr const char* kPrelude = R"(#pragma once
#define __CUDACC__ 1
#include <cuda_runtime.h>
#include <__clang_cuda_builtin_vars.h>
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem = 0, cudaStream_t stream = 0);
)";
constexpr const char* kPreludePath = "/coopviz-frontend/prelude.h";
// The text a precompiled prelude is made from: the prelude, and <cooperative_groups.h> after it
// where the source allows (cooperative_groups_first).
constexpr const char* kPrecompiledPath = "/coopviz-frontend/precompiled.h";
constexpr const char* kWithCooperativeGroups = "#include <cooperative_groups.h>\n";

// Whether the source's first lines are only comments and #include <...> of headers until one of
// <cooperative_groups/...>: then that header read before them (it includes nothing of the
// program's and depends on no macro the program could have defined) leaves the parse as it was.
bool cooperative_groups_first(const std::string& text) {
  std::istringstream lines(text);
  bool in_comment = false;
  for (std::string line; std::getline(lines, line);) {
    size_t at = line.find_first_not_of(" \t\r");
    if (in_comment || (at != std::string::npos && line.compare(at, 2, "/*") == 0)) {
      const size_t end = line.find("*/", in_comment ? 0 : at + 2);
      in_comment = end == std::string::npos;
      if (in_comment) continue;
      at = line.find_first_not_of(" \t\r", end + 2);
    }
    if (at == std::string::npos || line.compare(at, 2, "//") == 0) continue;
    if (line[at] != '#') return false;
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos || line.compare(at, 7, "include") != 0) return false;
    at = line.find_first_not_of(" \t", at + 7);
    if (at == std::string::npos || line[at] != '<') return false;
    if (line.compare(at, 20, "<cooperative_groups.") == 0 ||
        line.compare(at, 20, "<cooperative_groups/") == 0)
      return true;
  }
  return false;
}

// A file's size and time, or "-" when there is none.
std::string stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "-";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

// Writes the precompiled prelude to the output file it is given.
class PrecompilePrelude : public clang::GeneratePCHAction {
 public:
  explicit PrecompilePrelude(std::string out) : out_(std::move(out)) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef in) override {
    if (!std::getenv("COOPVIZ_FRONTEND_DIAGNOSTICS"))
      ci.getDiagnostics().setClient(new clang::IgnoringDiagConsumer, true);
    ci.getDiagnostics().setErrorLimit(0);
    // Clang's errors over CUDA's headers are tolerated here as in any parse.
    ci.getPreprocessorOpts().AllowPCHWithCompilerErrors = true;
    ci.getFrontendOpts().OutputFile = out_;
    // Only system headers: their bodies are skipped as the parse of a source skips them.
    ci.getFrontendOpts().SkipFunctionBodies = true;
    return clang::GeneratePCHAction::CreateASTConsumer(ci, in);
  }

 private:
  std::string out_;
};

std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

// The real file system, less what is not a regular file: an #include of a FIFO or a device
// would block the front end or never end (the compiler after it meets the same include under
// coopviz's limits, and says so). Clang takes such a file as one it cannot open.
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
 public:
  RegularFilesOnly() : ProxyFileSystem(llvm::vfs::getRealFileSystem()) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override {
    llvm::ErrorOr<llvm::vfs::Status> st = status(path);
    if (st && st->getType() != llvm::sys::fs::file_type::regular_file)
      return std::make_error_code(std::errc::permission_denied);
    return ProxyFileSystem::openFileForRead(path);
  }
};

// Set once a source's edits are printed.
bool handled = false;

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(clang::DiagnosticsEngine& diagnostics, const coop::frontend::ShownNames& shown,
           bool record_blocks)
      : diagnostics_(diagnostics), shown_(shown), record_blocks_(record_blocks) {}
  // The bodies of functions in system headers (CUDA's, the C++ library's) hold nothing to
  // lower and are most of the parse; Clang still parses a body it needs (constexpr, a deduced
  // return type) whatever this says.
  bool shouldSkipFunctionBody(clang::Decl* d) override {
    return d->getASTContext().getSourceManager().isInSystemHeader(d->getLocation());
  }

  void HandleTranslationUnit(clang::ASTContext& context) override {
    handled = true;
    coop::frontend::LaunchEdits found = coop::frontend::collect_launch_edits(context);
    coop::frontend::collect_shown_edits(context, shown_, found);
    if (record_blocks_) coop::frontend::collect_block_records(context, found);
    coop::frontend::sort_edits(found);
    std::cout << "frontend 1 errors=" << diagnostics_.getNumErrors()
              << " launches=" << found.launches << " shared=" << found.shared_variables
              << " shown=" << found.shown << " blocks=" << found.blocks << "\n";
    for (const auto& e : found.edits)
      std::cout << "edit " << e.kind << " " << e.offset << " " << e.length << " "
                << escaped(e.text) << "\n";
    for (const auto& s : found.skipped) std::cout << "skip " << s.where << ": " << s.why << "\n";
  }

 private:
  clang::DiagnosticsEngine& diagnostics_;
  const coop::frontend::ShownNames& shown_;
  bool record_blocks_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(coop::frontend::ShownNames shown, bool record_blocks)
      : shown_(std::move(shown)), record_blocks_(record_blocks) {}

 protected:
  // A precompiled prelude holds Clang's tolerated errors over CUDA's headers.
  bool BeginInvocation(clang::CompilerInstance& ci) override {
    ci.getPreprocessorOpts().AllowPCHWithCompilerErrors = true;
    return true;
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    // Counted, not printed: the caller reads stdout alone, and Clang's stricter opinion of a
    // program that g++ accepts is no error of the user's.
    if (!std::getenv("COOPVIZ_FRONTEND_DIAGNOSTICS"))
      ci.getDiagnostics().setClient(new clang::IgnoringDiagConsumer, true);
    ci.getDiagnostics().setErrorLimit(0);
    ci.getFrontendOpts().SkipFunctionBodies = true;
    return std::make_unique<Consumer>(ci.getDiagnostics(), shown_, record_blocks_);
  }

 private:
  coop::frontend::ShownNames shown_;
  bool record_blocks_;
};

// What a child that read the source printed, and how it ended.
struct Child {
  std::string output;
  bool ended_well = false;      // exited, having printed the edits
  bool unread_prelude = false;  // exited without reading the source: the prelude was unusable
};

// Runs `read` (true when it printed the edits) in a child process, its standard output kept.
Child read_in_child(const std::function<bool()>& read) {
  Child out;
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0) return out;
  std::cout.flush();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    return out;
  }
  if (pid == 0) {
    ::close(pipe_ends[0]);
    ::dup2(pipe_ends[1], 1);
    const bool printed = read();
    std::cout.flush();
    std::_Exit(printed ? 0 : 3);
  }
  ::close(pipe_ends[1]);
  char buffer[65536];
  for (ssize_t n; (n = ::read(pipe_ends[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.output.append(buffer, size_t(n));
  }
  ::close(pipe_ends[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.ended_well = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  out.unread_prelude = WIFEXITED(status) && WEXITSTATUS(status) == 3;
  return out;
}

// "a,b" -> {"a", "b"}.
std::vector<std::string> split_names(const std::string& joined) {
  std::vector<std::string> names;
  for (size_t at = 0; at <= joined.size();) {
    const size_t comma = std::min(joined.find(',', at), joined.size());
    if (comma > at) names.push_back(joined.substr(at, comma - at));
    at = comma + 1;
  }
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argv[1][0] != '/') {
    std::cerr << "usage: coopviz-frontend /ABSOLUTE/FILE.cu [-I DIR | -D NAME=VALUE]... < TEXT\n";
    return 2;
  }
  const std::string file = argv[1];
  const std::string text(std::istreambuf_iterator<char>(std::cin), {});
  const char* resource_dir = std::getenv("COOPVIZ_CLANG_RESOURCE_DIR");
  const char* cuda_include = std::getenv("COOPVIZ_CUDA_INCLUDE");
  const std::string cuda = cuda_include ? cuda_include : COOPVIZ_CUDA_INCLUDE;
  std::vector<std::string> args = {"-x",
                                   "cuda",
                                   "--cuda-host-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "-std=c++20",
                                   "-resource-dir",
                                   resource_dir ? resource_dir : COOPVIZ_CLANG_RESOURCE_DIR,
                                   "-Wno-unknown-cuda-version",
                                   "-isystem",
                                   cuda,
                                   "-isystem",
                                   cuda + "/cccl"};
  coop::frontend::ShownNames shown;
  bool record_blocks = false;
  std::string pch_dir;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--record-blocks")
      record_blocks = true;
    else if (arg.starts_with("--show-stores="))
      shown.stores = split_names(arg.substr(14));
    else if (arg.starts_with("--show-loads="))
      shown.loads = split_names(arg.substr(13));
    else if (arg.starts_with("--pch-dir="))
      pch_dir = arg.substr(10);
    else
      args.push_back(arg);
  }
  const std::string precompiled_text =
      std::string(kPrelude) + (cooperative_groups_first(text) ? kWithCooperativeGroups : "");
  auto files = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::makeIntrusiveRefCnt<RegularFilesOnly>());
  auto in_memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  in_memory->addFile(file, 0, llvm::MemoryBuffer::getMemBufferCopy(text));
  in_memory->addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBuffer(kPrelude));
  in_memory->addFile(kPrecompiledPath, 0, llvm::MemoryBuffer::getMemBufferCopy(precompiled_text));
  files->pushOverlay(in_memory);

  // The precompiled prelude, made by the first parse that finds none: named by everything it
  // depends on (the options, this binary, the toolkit's and Clang's headers), which Clang does
  // not check of system headers itself.
  std::string pch;
  if (!pch_dir.empty()) {
    std::string key = precompiled_text + stamp("/proc/self/exe") + stamp(cuda + "/cuda_runtime.h") +
                      stamp(cuda + "/cooperative_groups.h") +
                      stamp(std::string(resource_dir ? resource_dir : COOPVIZ_CLANG_RESOURCE_DIR) +
                            "/include/__clang_cuda_builtin_vars.h");
    for (const std::string& a : args) key += "\n" + a;
    char name[32];
    std::snprintf(name, sizeof name, "%016zx.pch", std::hash<std::string>{}(key));
    pch = pch_dir + "/" + name;
    if (::access(pch.c_str(), R_OK) != 0) {
      const std::string partial = pch + "." + std::to_string(::getpid());
      ::mkdir(pch_dir.c_str(), 0755);
      const bool made = clang::tooling::runToolOnCodeWithArgs(
          std::make_unique<PrecompilePrelude>(partial), precompiled_text, files, args,
          kPrecompiledPath, "coopviz-frontend");
      // Linked in, never renamed over: a prelude that another front end is reading stays the
      // file it opened (Clang reads it by the size it found), and the first one made is kept.
      const bool kept = made && (::link(partial.c_str(), pch.c_str()) == 0 || errno == EEXIST);
      std::remove(partial.c_str());
      if (!kept) pch.clear();
    }
  }
  auto parse = [&](const std::string& precompiled) {
    std::vector<std::string> with = args;
    if (precompiled.empty())
      with.insert(with.end(), {"-include", kPreludePath});
    else
      with.insert(with.end(), {"-include-pch", precompiled});
    clang::tooling::runToolOnCodeWithArgs(std::make_unique<Action>(shown, record_blocks), text,
                                          files, with, file, "coopviz-frontend");
  };
  // Errors in the source are no failure (they were counted). With the precompiled prelude the
  // source is read in a child, whose edits are passed on only when it ends well: Clang over a
  // prelude that holds its tolerated errors can fail where the same text read whole does not.
  // Then, or where Clang would not read the prelude (put aside), the source is read without it.
  if (!pch.empty()) {
    Child child = read_in_child([&] { parse(pch); return handled; });
    if (child.ended_well) {
      std::cout << child.output;
      std::cout.flush();
      return std::cout ? 0 : 1;
    }
    if (child.unread_prelude) std::remove(pch.c_str());
  }
  parse("");
  std::cout.flush();
  return std::cout ? 0 : 1;
}
