// Compile-time check of a TensorAccessorArgs block: the kernel's compile-time args must be the words
// of the define EXPECTED_WORDS (what a host-side encoder computed for the same tensor), and
// TensorAccessorArgs<0> must read them as one block that spans them all. The build fails, naming the
// check, when they differ.
#include <stdint.h>

namespace {

constexpr uint32_t expected_words[] = {EXPECTED_WORDS};
constexpr size_t expected_count = sizeof(expected_words) / sizeof(expected_words[0]);

constexpr bool words_match() {
  if (expected_count != kernel_compile_time_args.size()) return false;
  for (size_t i = 0; i < expected_count; ++i) {
    if (expected_words[i] != kernel_compile_time_args[i]) return false;
  }
  return true;
}

}  // namespace

static_assert(words_match(), "the descriptor's TensorAccessorArgs words differ from EXPECTED_WORDS");
static_assert(TensorAccessorArgs<0>::num_compile_time_args() == expected_count,
              "TensorAccessorArgs<0> does not span the whole block");

void kernel_main() {
  DPRINT << "accessor args: " << uint32_t(expected_count) << " words" << ENDL();
}
