// Errors are values at the CUDA and emulator boundary: a Status says what went wrong in words a
// student can act on. Nothing throws through a kernel launch.
#pragma once

#include <string>
#include <utility>

namespace coop {

class Status {
 public:
  Status() = default;  // success
  static Status error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace coop
