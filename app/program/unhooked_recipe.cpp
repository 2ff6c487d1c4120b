#include "app/program/unhooked_recipe.hpp"

#include <algorithm>
#include <fstream>

namespace coop::app {
namespace fs = std::filesystem;

namespace {

std::string shell_word(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

Status keep_unhooked_recipe(const fs::path& executable, const std::vector<UnhookedSource>& sources,
                            const std::vector<std::string>& instrumentation) {
  const fs::path dir = executable.parent_path();
  const std::string name = executable.filename().string();
  std::error_code ec;
  // Line tables stay (a fault's line); the hooks go. The copy is built once, in the background,
  // so it can afford -O2, which keeps a kernel's running sums in registers across its barriers
  // (-O1 keeps them in the frame: a store and a load in every turn of the loop).
  std::string compiles, compiler;
  for (size_t k = 0; k < sources.size(); ++k) {
    const fs::path kept = sources[k].lowered.parent_path() / (name + ".unhooked.cpp");
    fs::rename(sources[k].lowered, kept, ec);
    if (ec) return Status::error("cannot keep the lowered program: " + ec.message());
    std::vector<std::string> compile = sources[k].compile;
    std::erase_if(compile, [&](const std::string& flag) {
      return flag != "-g1" && std::find(instrumentation.begin(), instrumentation.end(), flag) !=
                                  instrumentation.end();
    });
    std::replace(compile.begin(), compile.end(), std::string("-O1"), std::string("-O2"));
    for (const std::string& word : compile) compiles += shell_word(word) + " ";
    compiles += "-fPIC -ftls-model=initial-exec -c -x c++ " +
                shell_word(kept.lexically_relative(dir).string()) + " -o \"$part." +
                std::to_string(k) + ".o\"\n";
    compiler = shell_word(compile.front());
  }
  std::ofstream out(dir / (name + ".unhooked.sh"));
  // The copy's functions are its own (-Bsymbolic-functions) and its variables the program's: a
  // variable the copy defines too is found in the executable first (which exports its symbols),
  // so both halves share one. Its constructors would construct those variables a second time, so
  // they go. A variable only the copy can see (internal linkage, writable) would be a second
  // one: such a program gets no copy. Thread-local variables are the executable's, reached
  // through its static TLS block (-ftls-model=initial-exec), not a lookup per access.
  out << "#!/bin/sh\n"
         "# "
      << name
      << "'s kernels without the memory hooks (device/byo/unhooked_copy.hpp).\n"
      // A compiler process's caps, as for any compile of the user's code (child_process.hpp:
      // 2 GiB of address space, 120 s of CPU time).
      << "set -e\nulimit -v 2097152\nulimit -t 120\ncd " << shell_word(dir.string()) << "\n"
      << "part=" << name << ".unhooked.so.$$\n"
      << "trap 'status=$?; rm -f \"$part\" \"$part\".*.o; [ $status -eq 0 ] || echo \"the copy "
         "did not build (see "
      << name << ".unhooked.log)\" > " << name << ".unhooked.none' EXIT\n"
      << compiles
      << "for o in \"$part\".*.o; do objcopy --remove-section=.init_array "
         "--remove-section=.fini_array --remove-section=.ctors --remove-section=.dtors \"$o\"; "
         "done\n"
      << "if objdump -t \"$part\".*.o | awk '$2 == \"l\" && $3 == \"O\" && $4 ~ "
         "/^\\.(data|bss|tdata|tbss)/ && $4 !~ /^\\.data\\.rel\\.ro/ && $NF != "
         "\"_ZStL8__ioinit\" { found = 1 } END { exit !found }'; then\n"
      << "  echo 'a writable variable of internal linkage (static) would have a second copy' > "
      << name << ".unhooked.none\n  exit 0\nfi\n"
      << compiler << " -shared -Wl,-Bsymbolic-functions \"$part\".*.o -o \"$part\"\n"
      << "mv -f \"$part\" " << name << ".unhooked.so\n";
  if (!out) return Status::error("cannot write " + (dir / (name + ".unhooked.sh")).string());
  return {};
}

}  // namespace coop::app
