#include "ditmk/tt/jit/kernel_compiler.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "ditmk/core/build_paths.hpp"
#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/tt/hw/inc/ditmk_device_abi.h"
#include "ditmk/tt/jit/jit_defines.hpp"
#include "ditmk/tt/jit/kernel_roots.hpp"
#include "ditmk/tt/jit/subprocess.hpp"

namespace ditmk::tt::dialect {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// 128 bits of FNV-1a (two 64-bit streams with different bases): a cache key, not a defence against
// anyone crafting collisions (the cache is the user's own folder).
std::string hash_text(std::string_view text) {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : text) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ c) * 0x100000001b3ull;
    b ^= b >> 29;
  }
  return fmt::format("{:016x}{:016x}", a, b);
}

std::optional<std::string> file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string compiler() {
  const char* cxx = std::getenv("DITMK_KERNEL_CXX");
  return cxx && *cxx ? cxx : "c++";
}

// What the compiler says it is: part of every key, so a compiler upgrade rebuilds the cache.
const std::string& compiler_identity() {
  static const std::string identity = [] {
    const ProcessResult version = run_process({compiler(), "--version"});
    require(version.status == 0, "cannot run the kernel compiler '{}' (set DITMK_KERNEL_CXX): {}", compiler(),
            version.output.substr(0, version.output.find('\n')));
    return compiler() + "\n" + version.output.substr(0, version.output.find('\n'));
  }();
  return identity;
}

// The JIT's target for a build: KernelBuild's fidelity is ditmk's index (0 LoFi .. 3 HiFi4).
JitTarget jit_target(const KernelBuild& build) {
  JitTarget target;
  target.processor = build.processor;
  target.noc = build.noc;
  target.math_fidelity = llk_math_fidelity(build.math_fidelity);
  target.fp32_dest_acc_en = build.fp32_dest_acc_en;
  target.math_approx_mode = build.math_approx_mode;
  target.cb_formats = build.cb_formats;
  return target;
}

// The kernel's folder, the device headers standing in for the hardware layer, then the kernel root's
// folders the JIT puts on the path.
std::vector<fs::path> include_dirs(const KernelBuild& build) {
  std::vector<fs::path> dirs = {build.source.parent_path(), device_include_dir()};
  if (build.kernel_root) {
    for (const fs::path& dir : kernel_root_include_dirs(*build.kernel_root)) dirs.push_back(dir);
  }
  return dirs;
}

// tt-metal 0.81.1's JIT compiles kernels as C++17 with SFPI's -ftt-nttp, -ftt-constinit and
// -ftt-consteval (tt_metal/jit_build/build.cpp): class-type non-type template parameters (ttnn's
// kernel_lib/eltwise/api/chain.hpp), constinit and consteval. A host compiler has those three only
// in C++20, so kernels build as C++20; -Wno-volatile quiets C++20's deprecation of compound
// assignment to volatile registers, which the device headers and kernels do as C++17 code may.
std::vector<std::string> compile_flags(const KernelBuild& build) {
  std::vector<std::string> flags = {
      "-std=c++20", "-Wno-volatile", "-O2", "-g0", "-fPIC", "-shared", "-fvisibility=hidden", "-fno-exceptions", "-fno-rtti",
      "-fno-threadsafe-statics", "-fasynchronous-unwind-tables", "-ffreestanding", "-nostdlib",
      "-Wl,--no-undefined"};
  for (const fs::path& dir : include_dirs(build)) flags.push_back("-I" + dir.string());
  for (const Define& define : jit_defines(jit_target(build))) flags.push_back(define_flag(define));
  if (!build.compile_time_args.empty()) {
    flags.push_back(fmt::format("-DKERNEL_COMPILE_TIME_ARGS={}", fmt::join(build.compile_time_args, ",")));
  }
  for (const auto& [name, value] : build.defines) flags.push_back(fmt::format("-D{}={}", name, value));
  return flags;
}

// tt-metal's JIT force-includes the generated named-args header and, for compute, includes the
// generated descriptors before the kernel, inside firmware that includes the kernel; ours writes
// both into the wrapper, then the prelude (args, the ABI pointer), then, for a Metal 2.0 kernel, the
// generated bindings (dfb::, tensor::, sem::) and args:: headers, then the kernel, then the exported
// entry. Data-movement kernels see the dataflow API unasked.
std::string wrapper_text(const KernelBuild& build) {
  std::string text = named_args_header_text(build.named_args);
  text += compute_descriptors_text(jit_target(build));
  text += data_movement_descriptors_text(jit_target(build));
  text += "#include \"ditmk_kernel_prelude.h\"\n";
  if (build.processor != emu::Processor::trisc) text += "#include \"api/dataflow/dataflow_api.h\"\n";
  if (build.runtime_arguments_schema) {
    text += kernel_bindings_header_text(build.bindings, build.cb_formats, build.processor == emu::Processor::trisc);
    // One base-address word per tensor binding and per scratchpad sits between the named common args
    // and the varargs.
    text += kernel_args_header_text(*build.runtime_arguments_schema, build.named_args,
                                    uint32_t(build.bindings.tensors.size() + build.bindings.scratchpads.size()),
                                    build.compile_time_vararg_count);
  }
  text += fmt::format("#include \"{}\"\n", fs::absolute(build.source).string());
  text += "#include \"ditmk_kernel_entry.h\"\n";
  return text;
}

bool under(const fs::path& path, const fs::path& folder) {
  const fs::path rel = path.lexically_relative(folder);
  return !rel.empty() && *rel.begin() != "..";
}

// The standard headers a kernel may include: those with nothing hosted behind them.
const std::set<std::string>& freestanding_headers() {
  static const std::set<std::string> names = {
      "cstdint", "cstddef", "climits", "cfloat", "cstdarg", "type_traits", "array", "utility", "limits",
      "bit", "initializer_list", "tuple", "compare", "concepts", "ratio", "stdint.h", "stddef.h", "limits.h",
      "float.h", "stdbool.h", "stdarg.h"};
  return names;
}

// The line of `parent` that includes `name`, or 0.
int include_line(const fs::path& parent, const std::string& name) {
  std::ifstream in(parent);
  std::string line;
  const std::regex directive("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]");
  for (int number = 1; std::getline(in, line); ++number) {
    std::smatch m;
    if (std::regex_search(line, m, directive) && fs::path(m[1].str()).filename() == name) return number;
  }
  return 0;
}

std::string shown_path(const fs::path& path, const KernelBuild& build) {
  std::error_code ec;
  if (fs::equivalent(path, build.source, ec)) return build.source_name;
  const fs::path rel = path.lexically_relative(fs::current_path());
  return !rel.empty() && *rel.begin() != ".." ? rel.string() : path.string();
}

// The C and C++ standard library's hosted headers: silicon's toolchain ships them (ttnn's kernels
// include <cstring>, <algorithm>, <cmath>), so a kernel may include them, with a warning: the
// emulator links kernels without the C and C++ runtimes (memcpy, memmove, memset and memcmp aside:
// ditmk_kernel_entry.h), so another library call the compiler does not inline fails to link here.
const std::set<std::string>& hosted_standard_headers() {
  static const std::set<std::string> names = {
      "algorithm", "any", "atomic", "barrier", "bitset", "cassert", "cctype", "cerrno", "cfenv", "charconv",
      "chrono", "cinttypes", "clocale", "cmath", "codecvt", "complex", "condition_variable", "coroutine",
      "csetjmp", "csignal", "cstdio", "cstdlib", "cstring", "ctime", "cuchar", "cwchar", "cwctype", "deque",
      "exception", "execution", "filesystem", "format", "forward_list", "fstream", "functional", "future",
      "iomanip", "ios", "iosfwd", "iostream", "istream", "iterator", "latch", "list", "locale", "map",
      "memory", "memory_resource", "mutex", "new", "numbers", "numeric", "optional", "ostream", "queue",
      "random", "ranges", "regex", "scoped_allocator", "semaphore", "set", "shared_mutex",
      "source_location", "span", "sstream", "stack", "stdexcept", "stop_token", "streambuf", "string",
      "string_view", "syncstream", "system_error", "thread", "typeindex", "typeinfo", "unordered_map",
      "unordered_set", "valarray", "variant", "vector", "version", "assert.h", "ctype.h", "errno.h",
      "fenv.h", "inttypes.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdio.h", "stdlib.h",
      "string.h", "time.h", "uchar.h", "wchar.h", "wctype.h"};
  return names;
}

// Kernel hygiene from the compiler's -H include tree: every header that the kernel, its own folder,
// the device headers or the kernel root include must itself be one of those or a standard header.
// A freestanding standard header is silent; a hosted one is returned as a warning (silicon's
// toolchain has it); anything else is refused.
std::vector<std::string> check_includes(const std::string& output, const fs::path& wrapper, const KernelBuild& build) {
  // The kernel's folder, the device headers and the kernel root: headers that are kernel code.
  std::vector<fs::path> kernel_code = {fs::weakly_canonical(device_include_dir()),
                                       fs::weakly_canonical(build.source.parent_path())};
  if (build.kernel_root) kernel_code.push_back(fs::weakly_canonical(*build.kernel_root));
  auto is_user = [&](const fs::path& p) {
    return p == wrapper || std::any_of(kernel_code.begin(), kernel_code.end(), [&](const fs::path& f) { return under(p, f); });
  };
  std::vector<std::string> warnings;
  std::vector<fs::path> stack = {wrapper};
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::size_t depth = 0;
    while (depth < line.size() && line[depth] == '.') ++depth;
    if (depth == 0 || depth >= line.size() || line[depth] != ' ' || depth > stack.size()) continue;
    const fs::path header = fs::weakly_canonical(line.substr(depth + 1));
    stack.resize(depth);
    const fs::path& parent = stack.back();
    const std::string name = header.filename().string();
    if (is_user(parent) && !is_user(header) && !freestanding_headers().count(name)) {
      const int at = include_line(parent, name);
      if (!hosted_standard_headers().count(name)) {
        fail("{}:{}: includes <{}>, a host header: kernels see the device API, the kernel root's headers and "
             "the C and C++ standard headers (compiling for {})",
             shown_path(parent, build), at, name, emu::processor_name(build.processor));
      }
      std::string warning = fmt::format(
          "{}:{}: includes <{}>, a hosted standard header: silicon's toolchain has it; here kernels link "
          "without the C and C++ runtimes (memcpy, memmove, memset and memcmp aside), so another library "
          "call the compiler does not inline fails to link (compiling for {})",
          shown_path(parent, build), at, name, emu::processor_name(build.processor));
      if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) warnings.push_back(std::move(warning));
    }
    stack.push_back(header);
  }
  return warnings;
}

// One line from the compiler's output: the first error, with the kernel named as the descriptor does.
[[noreturn]] void fail_compile(const std::string& output, const KernelBuild& build, const fs::path& log) {
  const std::regex error_line("^(.+?):(\\d+):(?:\\d+:)? (?:fatal )?error: (.*)$");
  // The compiler crashing on a kernel (an internal compiler error) is the compiler's fault, not the
  // kernel's: said as such, with the place it crashed at.
  const std::regex crash_line("^(.+?):(\\d+):(?:\\d+:)? internal compiler error: (.*)$");
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, error_line)) {
      fail("{}:{}: error: {} (compiling for {}; compiler log {})", shown_path(m[1].str(), build), m[2].str(),
           m[3].str(), emu::processor_name(build.processor), log.string());
    }
    if (std::regex_match(line, m, crash_line)) {
      fail("{}:{}: the kernel compiler ({}) crashed: internal compiler error: {} (compiling for {}; compiler log {}; "
           "$DITMK_KERNEL_CXX picks another compiler)",
           shown_path(m[1].str(), build), m[2].str(), compiler(), m[3].str(), emu::processor_name(build.processor),
           log.string());
    }
    const std::size_t undefined = line.find("undefined reference to");
    if (undefined != std::string::npos) {
      fail("{}: {}: kernels link against the device API alone (compiling for {}; compiler log {})",
           build.source_name, line.substr(undefined), emu::processor_name(build.processor), log.string());
    }
  }
  fail("{}: the compiler failed for {}: {} (compiler log {})", build.source_name,
       emu::processor_name(build.processor), output.substr(0, output.find('\n')), log.string());
}

// `<hash> <path>` per line: what the object was built from (the wrapper aside: its text is in the key).
std::string deps_manifest(const fs::path& depfile, const fs::path& wrapper) {
  std::string text = file_text(depfile).value_or("");
  for (char& c : text) {
    if (c == '\\' || c == '\n') c = ' ';  // line continuations: every name is one word
  }
  const std::size_t colon = text.find(": ");
  std::istringstream words(colon == std::string::npos ? "" : text.substr(colon + 2));
  std::string manifest;
  for (std::string word; words >> word;) {
    if (fs::path(word) == wrapper) continue;
    const std::optional<std::string> content = file_text(word);
    require(content.has_value(), "kernel cache: cannot read {}, which the kernel includes", word);
    manifest += hash_text(*content) + " " + fs::absolute(word).string() + "\n";
  }
  return manifest;
}

bool deps_unchanged(const fs::path& manifest) {
  const std::optional<std::string> text = file_text(manifest);
  if (!text) return false;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t space = line.find(' ');
    if (space == std::string::npos) return false;
    const std::optional<std::string> content = file_text(line.substr(space + 1));
    if (!content || hash_text(*content) != line.substr(0, space)) return false;
  }
  return true;
}

}  // namespace

LoadedKernel::~LoadedKernel() { dlclose(handle_); }

std::optional<fs::path> installed_share(const std::string& folder, const std::string& marker) {
  // The wheel's binary lies in ditmk/bin, its Python extension in ditmk/: share/ is beside either.
  std::vector<fs::path> roots;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) roots.push_back(exe.parent_path().parent_path());
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&installed_share), &info) != 0 && info.dli_fname != nullptr) {
    roots.push_back(fs::path(info.dli_fname).parent_path());
  }
  for (const fs::path& root : roots) {
    const fs::path dir = root / "share" / folder;
    if (fs::is_regular_file(dir / marker, ec)) return dir;
  }
  return std::nullopt;
}

fs::path device_include_dir() {
  if (const char* dir = std::getenv("DITMK_DEVICE_INCLUDE"); dir && *dir) return dir;
  // An installed ditmk (the wheel) carries the headers beside its binary; a build uses its sources.
  if (std::optional<fs::path> installed = installed_share("device_include", "ditmk_device_abi.h")) return *installed;
  return fs::path(build::source_dir()) / "src/ditmk/tt/hw/inc";
}

fs::path KernelCompiler::default_kernel_cache() {
  if (const char* dir = std::getenv("DITMK_KERNEL_CACHE"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "ditmk" / "kernels";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "ditmk" / "kernels";
  return fs::temp_directory_path() / "ditmk-kernels";
}

KernelCompiler::KernelCompiler(fs::path cache_dir) : cache_dir_(std::move(cache_dir)) {}

std::shared_ptr<LoadedKernel> KernelCompiler::load(const KernelBuild& build) {
  require(fs::is_regular_file(build.source), "{}: no such kernel file", build.source_name);
  const Clock::time_point start = Clock::now();
  const std::vector<std::string> flags = compile_flags(build);
  const std::string wrapper = wrapper_text(build);
  const std::string key = hash_text(fmt::format("{}\n{}\n{}", compiler_identity(), fmt::join(flags, "\n"), wrapper));
  if (auto it = loaded_.find(key); it != loaded_.end()) {
    if (std::shared_ptr<LoadedKernel> kernel = it->second.lock()) {
      ++stats_.cache_hits;
      return kernel;
    }
  }
  std::error_code ec;
  fs::create_directories(cache_dir_, ec);
  require(!ec, "kernel cache {}: {}", cache_dir_.string(), ec.message());
  const fs::path object = cache_dir_ / (key + ".so");
  const fs::path manifest = cache_dir_ / (key + ".deps");
  // The compile's warnings, one a line, kept beside the object so a cached load reports them too.
  const fs::path warnings_file = cache_dir_ / (key + ".warnings");
  std::vector<std::string> warnings;
  if (fs::exists(object) && deps_unchanged(manifest)) {
    ++stats_.cache_hits;
    std::istringstream lines(file_text(warnings_file).value_or(""));
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) warnings.push_back(line);
    }
  } else {
    const Clock::time_point compile_start = Clock::now();
    const fs::path work = cache_dir_ / fmt::format("{}.build-{}", key, getpid());
    fs::create_directories(work);
    const fs::path wrapper_path = work / "wrapper.cpp";
    io::write_file_atomic(wrapper_path.string(), wrapper);
    std::vector<std::string> argv = {compiler()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    for (const char* extra : {"-H", "-MD", "-MF"}) argv.push_back(extra);
    argv.push_back((work / "deps.d").string());
    argv.push_back(wrapper_path.string());
    argv.push_back("-o");
    argv.push_back((work / "kernel.so").string());
    const ProcessResult result = run_process(argv);
    const fs::path log = cache_dir_ / (key + ".log");
    io::write_file_atomic(log.string(), result.output);
    try {
      warnings = check_includes(result.output, fs::weakly_canonical(wrapper_path), build);
      if (result.status != 0) fail_compile(result.output, build, log);
      io::write_file_atomic(warnings_file.string(), warnings.empty() ? "" : fmt::format("{}\n", fmt::join(warnings, "\n")));
      io::write_file_atomic(manifest.string(), deps_manifest(work / "deps.d", wrapper_path));
    } catch (...) {
      fs::remove_all(work, ec);
      throw;
    }
    fs::rename(work / "kernel.so", object);
    fs::remove_all(work, ec);
    ++stats_.compiled;
    stats_.compile_seconds += seconds_since(compile_start);
  }
  void* handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  require(handle != nullptr, "{}: cannot load the compiled kernel: {}", build.source_name, dlerror());
  auto version = reinterpret_cast<uint32_t (*)()>(dlsym(handle, "ditmk_kernel_abi_version"));
  auto entry = reinterpret_cast<KernelEntry>(dlsym(handle, "ditmk_kernel_entry"));
  if (!version || !entry || version() != DITMK_DEVICE_ABI_VERSION) {
    dlclose(handle);
    fail("{}: the compiled kernel {} does not speak device ABI {}", build.source_name, object.string(),
         DITMK_DEVICE_ABI_VERSION);
  }
  auto kernel = std::make_shared<LoadedKernel>(handle, entry, std::move(warnings));
  loaded_[key] = kernel;
  stats_.load_seconds += seconds_since(start);
  return kernel;
}

}  // namespace ditmk::tt::dialect
