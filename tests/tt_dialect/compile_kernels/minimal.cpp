#include <cstdint>

void kernel_main() {
  volatile uint32_t n = get_arg_val<uint32_t>(0);
  (void)n;
}
