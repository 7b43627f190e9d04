#pragma once
// Runs the built `ditmk` binary as a user would and captures what it printed.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "ditmk/core/build_paths.hpp"
#include "support/temp_dir.hpp"

namespace ditmk::testing {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
  // Lines ditmk printed to stderr. A sanitizer runtime's own notices ("==PID==WARNING: ...", such as
  // AddressSanitizer's one-time note on swapcontext, which the emulator's fibers use) are not ditmk's
  // output and are not counted.
  int err_lines() const {
    int n = 0;
    std::istringstream lines(err);
    for (std::string line; std::getline(lines, line);) n += line.rfind("==", 0) != 0;
    return n;
  }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string ditmk_binary() { return std::string(ditmk::build::binary_dir()) + "/ditmk"; }

inline CliResult run_command(const std::string& command) {
  TempDir capture;
  const std::string full = command + " >" + (capture / "out") + " 2>" + (capture / "err") + " </dev/null";
  const int status = std::system(full.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(capture / "out");
  r.err = slurp(capture / "err");
  return r;
}

inline CliResult run_ditmk(const std::string& args) { return run_command(ditmk_binary() + " " + args); }

}  // namespace ditmk::testing
