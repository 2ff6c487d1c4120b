#include "device/paths/data_dirs.hpp"

#include <cstdlib>

namespace coop {
namespace fs = std::filesystem;

DataDirs data_dirs() {
  DataDirs d;
  std::error_code ec;
  // The executable's own path, symbolic links resolved: a link in ~/bin to an installed coopviz
  // still finds the share/ folder beside the real one.
  const fs::path bin = fs::read_symlink("/proc/self/exe", ec).parent_path();
  const fs::path share = (bin / COOPVIZ_DATA_FROM_BIN).lexically_normal();
  const bool installed = !ec && fs::is_directory(share, ec);
  if (installed) {
    d.traces = {share / "traces"};
    d.lessons = share / "lessons";
    d.programs = share / "programs";
    d.fonts = share / "fonts";
    d.headers = share / "include";
    d.libraries = (bin / COOPVIZ_LIBRARIES_FROM_BIN).lexically_normal();
    d.front_end = bin / "coopviz-frontend";
  } else {
    const fs::path source = COOPVIZ_SOURCE_DIR;
    d.traces = {source / "assets" / "traces"};
    d.lessons = source / "lessons";
    d.programs = source / "tests" / "programs";
    // The build machine's own font packages (scripts/install-deps.sh installs them).
    d.fonts = COOPVIZ_SYSTEM_FONTS;
    d.headers = source;
    d.libraries = COOPVIZ_LIBRARY_DIR;
    d.front_end = COOPVIZ_FRONT_END;
  }
  if (const char* front_end = std::getenv("COOPVIZ_FRONTEND"); front_end && *front_end)
    d.front_end = std::string(front_end) == "off" ? fs::path() : fs::path(front_end);
  if (const char* assets = std::getenv("COOPVIZ_ASSETS"); assets && *assets)
    d.traces.insert(d.traces.begin(), fs::path(assets) / "traces");
  return d;
}

}  // namespace coop
