#pragma once
// Where kernel sources and the headers above the hardware layer come from, as tt-metal's JIT finds
// them. A kernel source path is tried as given when absolute, else against the descriptor's folder
// (ditmk's rule, so a descriptor travels with its kernels) and the working folder (tt-metal's rule),
// else under the kernel root: --kernel-root DIR, else $TT_METAL_HOME (tt-metal's root).
//
// The kernel root also lends the compile its include folders, the ones the JIT puts on the path
// (build.cpp's list: the root, ttnn, ttnn/cpp, tt_metal, tt_metal/include, tt_metal/hostdevcommon/api,
// tt_metal/api, tt_metal/api/tt-metalium), after ditmk's device headers, which stand in for the
// hardware layer: the root's tt_metal/hw/inc, its LLK and ckernels folders are never on the path. So
// a kernel from a tt-metal tree builds with ttnn's kernel_lib helpers, hostdevcommon and its op's
// own headers as they are, on ditmk's device API.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ditmk::tt::dialect {

// `option` (--kernel-root) when given, else $TT_METAL_HOME when set, else none. Made absolute.
std::optional<std::filesystem::path> kernel_root(const std::optional<std::filesystem::path>& option);

// The kernel root's folders the JIT puts on the include path, in its order.
std::vector<std::filesystem::path> kernel_root_include_dirs(const std::filesystem::path& root);

// Every place a kernel source path `text` is looked for, in order (absolute and normalised).
std::vector<std::filesystem::path> kernel_source_candidates(const std::string& text,
                                                            const std::filesystem::path& descriptor_folder,
                                                            const std::optional<std::filesystem::path>& root);

// The first candidate that is a file, or none.
std::optional<std::filesystem::path> find_kernel_source(const std::vector<std::filesystem::path>& candidates);

}  // namespace ditmk::tt::dialect
