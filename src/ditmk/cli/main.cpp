#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "ditmk/cli/commands.hpp"
#include "ditmk/core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ditmk: the GR00T action head as one persistent program (reference, CPU megakernel, emulated Blackhole)"};
  app.require_subcommand(1);
  app.set_version_flag("--version-info", "ditmk " DITMK_VERSION);
  ditmk::cli::add_run(app);
  ditmk::cli::add_inspect(app);
  ditmk::cli::add_compare(app);
  ditmk::cli::add_make_checkpoint(app);
  ditmk::cli::add_plan(app);
  ditmk::cli::add_bench(app);
  ditmk::cli::add_emulate(app);
  ditmk::cli::add_pack(app);
  ditmk::cli::add_serve(app);
  ditmk::cli::add_export(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const ditmk::Error& e) {
    fmt::print(stderr, "ditmk: error: {}\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "ditmk: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "ditmk: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
