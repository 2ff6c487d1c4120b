#include "device/launch/launch_config.hpp"

#include <charconv>
#include <cstdint>
#include <string>

namespace coop {

const char* to_string(LaunchMode mode) {
  switch (mode) {
    case LaunchMode::Normal:
      return "normal";
    case LaunchMode::Cooperative:
      return "cooperative";
    case LaunchMode::Cluster:
      return "cluster";
  }
  return "?";
}

Result<uint64_t> parse_count(std::string_view text, std::string_view what, uint64_t limit) {
  const std::string shown(text);
  if (text.empty()) return Status::error(std::string(what) + ": empty value");
  if (text.front() == '-')
    return Status::error(std::string(what) + " '" + shown + "': must not be negative");
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range)
    return Status::error(std::string(what) + " '" + shown + "' overflows: the limit is " +
                         std::to_string(limit));
  if (ec != std::errc() || end != text.data() + text.size())
    return Status::error(std::string(what) + " '" + shown + "' is not a whole number");
  if (value > limit)
    return Status::error(std::string(what) + " " + shown + " exceeds the limit of " +
                         std::to_string(limit));
  return value;
}

Result<Dim3> parse_dim3(std::string_view text, std::string_view what) {
  // Every error says the form allowed, then what is wrong with this text.
  // A block's limits are CUDA's for every device: naming the grid's would mislead.
  const bool block = std::string_view(what).find("block") != std::string_view::npos;
  const std::string range = block ? "x and y from 1 to 1024, z from 1 to 64, 1024 threads in all"
                                  : "each a whole number from 1 to 2147483647";
  const auto bad = [&](const std::string& why) {
    return Status::error(std::string(what) + " expects X, X,Y or X,Y,Z, " + range + ", got '" +
                         std::string(text) + "': " + why);
  };
  uint32_t parts[3] = {1, 1, 1};
  int n = 0;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string_view piece = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (n == 3) return bad("it has more than 3 dimensions");
    Result<uint64_t> v = parse_count(piece, "dimension", 2147483647u);
    if (!v) return bad(v.message());
    if (*v == 0) return bad("every dimension must be at least 1");
    parts[n++] = uint32_t(*v);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return Dim3{parts[0], parts[1], parts[2]};
}

}  // namespace coop
