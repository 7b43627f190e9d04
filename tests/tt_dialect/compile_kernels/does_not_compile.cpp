#include <cstdint>

void kernel_main() {
  const uint32_t n = get_arg_val<uint32_t>(0);
  for (uint32_t i = 0; i < n; ++i) no_such_call(i);
}
