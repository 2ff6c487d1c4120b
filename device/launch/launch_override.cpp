#include "device/launch/launch_override.hpp"

#include <cctype>

#include "device/launch/launch_checks.hpp"
#include "device/launch/trim.hpp"

namespace coop {
namespace {

// "ns::reduce<256, float>" -> "reduce": what a user calls the kernel when they name it alone.
std::string_view bare_name(std::string_view name) {
  name = trim(name);
  if (const size_t angle = name.find('<'); angle != std::string_view::npos)
    name = trim(name.substr(0, angle));
  if (const size_t colons = name.rfind("::"); colons != std::string_view::npos)
    name.remove_prefix(colons + 2);
  return name;
}

std::string without_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

}  // namespace

Result<LaunchOverride> parse_launch_override(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return Status::error(
        "--launch expects KERNEL=GRID/BLOCK (GRID and BLOCK each X, X,Y, X,Y,Z "
        "or * for the program's own), got '" +
        std::string(text) + "': " + why);
  };
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) return bad("no '=' after the kernel's name");
  LaunchOverride o;
  o.kernel = std::string(trim(text.substr(0, eq)));
  if (o.kernel.empty()) return bad("the kernel's name is missing");
  const std::string_view shape = text.substr(eq + 1);
  const size_t slash = shape.find('/');
  if (slash == std::string_view::npos) return bad("no '/' between the grid and the block");
  const std::string_view grid = trim(shape.substr(0, slash)), block = trim(shape.substr(slash + 1));
  if (grid != "*") {
    Result<Dim3> g = parse_dim3(grid, "the grid");
    if (!g) return bad(g.message());
    o.grid = *g;
  }
  if (block != "*") {
    Result<Dim3> b = parse_dim3(block, "the block");
    if (!b) return bad(b.message());
    o.block = *b;
  }
  if (!o.grid && !o.block) return bad("it changes neither the grid nor the block");
  return o;
}

std::string to_string(const LaunchOverride& o) {
  return o.kernel + "=" + (o.grid ? o.grid->str() : "*") + "/" + (o.block ? o.block->str() : "*");
}

std::string join_launch_overrides(const std::vector<LaunchOverride>& list) {
  std::string out;
  for (const LaunchOverride& o : list) {
    if (!out.empty()) out += ';';
    out += to_string(o);
  }
  return out;
}

Result<std::vector<LaunchOverride>> parse_launch_overrides(std::string_view joined) {
  std::vector<LaunchOverride> list;
  while (!trim(joined).empty()) {
    const size_t semi = joined.find(';');
    Result<LaunchOverride> o = parse_launch_override(joined.substr(0, semi));
    if (!o) return o.status();
    list.push_back(*o);
    if (semi == std::string_view::npos) break;
    joined.remove_prefix(semi + 1);
  }
  return list;
}

bool overrides_kernel(const LaunchOverride& o, std::string_view launched) {
  const std::string wanted = without_spaces(o.kernel), name = without_spaces(launched);
  if (wanted == name) return true;
  // A bare name stands for every instantiation and spelling of the kernel.
  return wanted == bare_name(wanted) && bare_name(name) == wanted;
}

const LaunchOverride* find_launch_override(const std::vector<LaunchOverride>& list,
                                           std::string_view launched) {
  // The most specific first: "reduce<256>" before "reduce".
  for (const LaunchOverride& o : list)
    if (without_spaces(o.kernel) == without_spaces(launched)) return &o;
  for (const LaunchOverride& o : list)
    if (overrides_kernel(o, launched)) return &o;
  return nullptr;
}

LaunchConfig apply(const LaunchOverride& o, LaunchConfig config) {
  if (o.grid) config.grid = *o.grid;
  if (o.block) config.block = *o.block;
  return config;
}

Status check_launch_override(const LaunchOverride& o, const DeviceProps& device) {
  // The parts the override leaves alone are taken as 1, so only its own values can fail.
  LaunchConfig c;
  c.grid = o.grid.value_or(Dim3{});
  c.block = o.block.value_or(Dim3{});
  KernelResources any;
  any.max_threads_per_block = device.max_threads_per_block;
  if (Status s = validate_shape(c, device, any); !s)
    return Status::error(to_string(o) + ": " + s.message());
  return {};
}

}  // namespace coop
