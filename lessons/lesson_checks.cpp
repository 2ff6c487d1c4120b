#include "lessons/lesson_checks.hpp"

namespace coop::lessons {

int line_of(std::string_view source, std::string_view snippet) {
  const std::vector<int> lines = lines_with(source, snippet);
  return lines.empty() ? 0 : lines.front();
}

Status refuse_hazard_on_gpu(const Executor& exec, const std::string& variant,
                            const std::string& what) {
  if (exec.backend() != Backend::Gpu) return {};
  return Status::error(variant + " " + what +
                       " on purpose; it runs only on the emulator, which reports the hazard "
                       "instead of hanging or corrupting data (use --backend emu)");
}

Check hazard_reported(std::string name, const Status& launched,
                      const std::vector<std::string>& fragments) {
  std::string expected;
  for (const std::string& f : fragments) expected += (expected.empty() ? "" : ", ") + f;
  if (launched.ok())
    return make_check(std::move(name), "a report naming " + expected,
                      "the launch completed without a report", false);
  std::string missing;
  for (const std::string& f : fragments)
    if (launched.message().find(f) == std::string::npos)
      missing += (missing.empty() ? "" : ", ") + f;
  if (!missing.empty())
    return make_check(std::move(name), "a report naming " + expected,
                      launched.message() + " (missing: " + missing + ")", false);
  // The report's line that says the most of what was expected (a report has one per block).
  std::string best;
  size_t best_hits = 0, start = 0;
  const std::string& m = launched.message();
  while (start < m.size()) {
    size_t end = m.find('\n', start);
    if (end == std::string::npos) end = m.size();
    const std::string line = m.substr(start, end - start);
    size_t hits = 0;
    for (const std::string& f : fragments) hits += line.find(f) != std::string::npos;
    if (hits > best_hits) best_hits = hits, best = line;
    start = end + 1;
  }
  const size_t first = best.find_first_not_of(' ');
  return make_check(std::move(name), "a report naming " + expected,
                    first == std::string::npos ? m : best.substr(first), true);
}

std::string thread_range(size_t first, size_t last) {
  return "threads " + std::to_string(first) + (first == last ? "" : "-" + std::to_string(last));
}

Check nothing_dropped(const std::vector<Trace>& launches) {
  uint64_t dropped = 0;
  for (const Trace& t : launches) dropped += t.dropped();
  return make_check("every event recorded", "0 dropped", std::to_string(dropped) + " dropped",
                    dropped == 0);
}

}  // namespace coop::lessons
