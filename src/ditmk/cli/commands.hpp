#pragma once
// Every subcommand lives in its own cmd_<name>.cpp and adds itself to the app here. A subcommand
// reports bad input by throwing ditmk::Error; main prints its one line and exits 1.
#include <CLI/CLI.hpp>

namespace ditmk::cli {

void add_run(CLI::App& app);
void add_inspect(CLI::App& app);
void add_compare(CLI::App& app);
void add_make_checkpoint(CLI::App& app);
void add_plan(CLI::App& app);
void add_bench(CLI::App& app);
void add_emulate(CLI::App& app);
void add_pack(CLI::App& app);
void add_serve(CLI::App& app);
void add_export(CLI::App& app);

}  // namespace ditmk::cli
