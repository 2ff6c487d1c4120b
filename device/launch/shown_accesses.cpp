#include "device/launch/shown_accesses.hpp"

#include <cctype>

#include "device/launch/trim.hpp"

namespace coop {
namespace {

bool identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

Result<std::vector<std::string>> parse_shown_buffers(std::string_view joined,
                                                     std::string_view what) {
  std::vector<std::string> names;
  if (trim(joined).empty()) return names;
  while (true) {
    const size_t comma = joined.find(',');
    const std::string_view name = trim(joined.substr(0, comma));
    if (!identifier(name))
      return Status::error(std::string(what) + ": '" + std::string(name) +
                           "' is not a buffer's name (a C identifier, names joined by commas)");
    names.emplace_back(name);
    if (names.size() > kMaxShownBuffers)
      return Status::error(std::string(what) + ": at most " + std::to_string(kMaxShownBuffers) +
                           " buffers, got more");
    if (comma == std::string_view::npos) return names;
    joined.remove_prefix(comma + 1);
  }
}

std::string join_shown_buffers(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& n : names) joined += (joined.empty() ? "" : ",") + n;
  return joined;
}

}  // namespace coop
