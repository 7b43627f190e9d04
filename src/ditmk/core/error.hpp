#pragma once
// One error type for everything a user can get wrong (files, tensors, fields, options). Its message
// is a single line that names the offending file, tensor or field; the CLI prints it and exits 1.
#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace ditmk {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A path that does not exist (the Python module raises FileNotFoundError for it).
class NotFound : public Error {
 public:
  explicit NotFound(const std::string& message) : Error(message) {}
};

template <typename... Args>
[[noreturn]] void fail_not_found(fmt::format_string<Args...> format, Args&&... args) {
  throw NotFound(fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void require(bool condition, fmt::format_string<Args...> format, Args&&... args) {
  if (!condition) throw Error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace ditmk
