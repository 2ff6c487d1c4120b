#include "device/launch/shown_accesses.hpp"

#include <cctype>

#include "device/launch/shown_entry.hpp"
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
    const std::string_view entry = trim(joined.substr(0, comma));
    const ShownEntry e = split_shown_entry(entry);
    if (!identifier(e.name))
      return Status::error(std::string(what) + ": '" + std::string(entry) +
                           "' is not a buffer's name (a C identifier, or NAME on the line with "
                           "TEXT; names joined by commas)");
    if (e.line_text.size() > kMaxShownLineText)
      return Status::error(std::string(what) + ": '" + std::string(entry) + "' has a text of " +
                           std::to_string(e.line_text.size()) + " characters: at most " +
                           std::to_string(kMaxShownLineText));
    names.emplace_back(entry);
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
