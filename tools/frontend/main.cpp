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
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
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
                                   cuda + "/cccl",
                                   "-include",
                                   kPreludePath};
  coop::frontend::ShownNames shown;
  bool record_blocks = false;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--record-blocks")
      record_blocks = true;
    else if (arg.starts_with("--show-stores="))
      shown.stores = split_names(arg.substr(14));
    else if (arg.starts_with("--show-loads="))
      shown.loads = split_names(arg.substr(13));
    else
      args.push_back(arg);
  }
  auto files = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::makeIntrusiveRefCnt<RegularFilesOnly>());
  auto in_memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  in_memory->addFile(file, 0, llvm::MemoryBuffer::getMemBufferCopy(text));
  in_memory->addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBuffer(kPrelude));
  files->pushOverlay(in_memory);
  const bool ran = clang::tooling::runToolOnCodeWithArgs(std::make_unique<Action>(shown, record_blocks), text, files,
                                                         args, file, "coopviz-frontend");
  // Errors in the source are no failure (they were counted above); a tool that did not run is.
  (void)ran;
  std::cout.flush();
  return std::cout ? 0 : 1;
}
