#include "app/cli/progress_bar.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace coop::app {
namespace {

int terminal_columns() {
  winsize w{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20) return w.ws_col;
  return 80;
}

}  // namespace

ProgressBar::ProgressBar() : enabled_(isatty(STDERR_FILENO) != 0) {}

ProgressBar::~ProgressBar() {
  finish();
}

void ProgressBar::update(double fraction, const std::string& stage) {
  if (!enabled_) return;
  constexpr int kWidth = 30;
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int filled = int(fraction * kWidth + 0.5);
  std::string line = "[" + std::string(size_t(filled), '#') +
                     std::string(size_t(kWidth - filled), '.') + "] " +
                     std::to_string(int(fraction * 100 + 0.5)) + "%  " + stage;
  const size_t room = size_t(terminal_columns() - 1);
  if (line.size() > room) line.resize(room);
  std::fprintf(stderr, "\r%s\x1b[K", line.c_str());  // \x1b[K clears the rest of the old line
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\x1b[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace coop::app
