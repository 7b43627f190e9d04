#pragma once
// Where this build's sources and outputs are. The paths live in one generated file
// (build_paths.cpp.in, configured into the build folder) rather than in -D macros on every compile
// that uses them: a macro holding an absolute path changes each such compile's command line, so a
// clone in another folder could never reuse the compiler cache's objects for them; with the paths in
// one file, only that one file is compiled again.

namespace ditmk::build {

// The source tree this build was configured from (PROJECT_SOURCE_DIR)
const char* source_dir();
// The build folder (PROJECT_BINARY_DIR)
const char* binary_dir();

}  // namespace ditmk::build
