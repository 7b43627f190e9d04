#pragma once
// Runs a program (no shell: arguments go through as they are) and collects what it printed.
#include <string>
#include <vector>

namespace ditmk::tt::dialect {

struct ProcessResult {
  int status = -1;     // exit code; -1 when it could not start or died on a signal
  std::string output;  // stdout and stderr together
};
ProcessResult run_process(const std::vector<std::string>& argv);

}  // namespace ditmk::tt::dialect
