#pragma once
// The message of the ditmk::Error a call throws ("" when it throws none), for tests that check
// what an error names.
#include <functional>
#include <string>

#include "ditmk/core/error.hpp"

namespace ditmk::testing {

inline std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace ditmk::testing
