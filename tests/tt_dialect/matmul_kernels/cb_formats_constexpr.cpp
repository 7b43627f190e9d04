// The CB formats as constant expressions, as 0.81.1's kernels use them (constexpr tile sizes, a
// format as a template arg): the test gives CB 0 bfloat16 and CB 1 bfloat8_b tiles on every core.
// ASK_MISSING: the kernel asks for CB 5, which no core has, so the running program is asked and faults.
#include <cstdint>

template <DataFormat format>
constexpr uint32_t bytes_of_tile() {
  return format == DataFormat::Bfp8_b ? 1088 : 2048;
}

void kernel_main() {
  constexpr uint32_t bf16_bytes = get_tile_size(0);
  constexpr DataFormat bfp8 = get_dataformat(1);
  static_assert(bf16_bytes == 2048, "CB 0 holds bfloat16 tiles");
  static_assert(bfp8 == DataFormat::Bfp8_b, "CB 1 holds bfloat8_b tiles");
  static_assert(bytes_of_tile<get_dataformat(1)>() == get_tile_size(1), "a format works as a template arg");
#ifdef ASK_MISSING
  const int32_t missing = get_tile_size(5);
  (void)missing;
#endif
}
