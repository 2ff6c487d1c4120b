#include "visual/field_text.hpp"

#include <charconv>

namespace coop::visual {
namespace {

std::string_view trim(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::string range(int64_t min, int64_t max) {
  return std::to_string(min) + " to " + std::to_string(max);
}

}  // namespace

Result<int64_t> parse_whole(std::string_view text, std::string_view what, int64_t min,
                            int64_t max) {
  const std::string_view t = trim(text);
  const std::string name(what);
  const std::string allowed = ": " + name + " must be a whole number from " + range(min, max);
  if (t.empty()) return Status::error("empty" + allowed);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range)
    return Status::error("'" + std::string(t) + "' is too large" + allowed);
  if (ec != std::errc() || end != t.data() + t.size())
    return Status::error("'" + std::string(t) + "' is not a whole number" + allowed);
  if (v < min || v > max)
    return Status::error(std::to_string(v) + (v < min ? " is too small" : " is too large") +
                         allowed);
  return v;
}

Result<Dim3> parse_dims(std::string_view text, std::string_view what, const Dim3& max,
                        uint64_t max_product) {
  const std::string name(what);
  const std::string shape = name + " is X, X,Y or X,Y,Z with x 1 to " + std::to_string(max.x) +
                            ", y 1 to " + std::to_string(max.y) + ", z 1 to " +
                            std::to_string(max.z) +
                            (max_product ? ", " + std::to_string(max_product) + " in all" : "");
  int64_t parts[3] = {1, 1, 1};
  const int64_t limit[3] = {max.x, max.y, max.z};
  const char* axis[3] = {"x", "y", "z"};
  int n = 0;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    if (n == 3) return Status::error("'" + std::string(trim(text)) + "' has more than 3 parts: " + shape);
    const std::string_view piece =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    Result<int64_t> v = parse_whole(piece, name + " " + axis[n], 1, limit[n]);
    if (!v) return Status::error(v.message() + " (" + shape + ")");
    parts[n++] = *v;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  const uint64_t product = uint64_t(parts[0]) * uint64_t(parts[1]) * uint64_t(parts[2]);
  if (max_product && product > max_product)
    return Status::error(name + " " + std::to_string(parts[0]) + "x" + std::to_string(parts[1]) +
                         "x" + std::to_string(parts[2]) + " has " + std::to_string(product) +
                         " in all, more than " + std::to_string(max_product));
  return Dim3{uint32_t(parts[0]), uint32_t(parts[1]), uint32_t(parts[2])};
}

std::string dims_text(const Dim3& d) {
  if (d.y == 1 && d.z == 1) return std::to_string(d.x);
  if (d.z == 1) return std::to_string(d.x) + "," + std::to_string(d.y);
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

}  // namespace coop::visual
