// tt-metal's page printers (api/debug/dprint_pages.h) over two pages a kernel writes into CB 0:
// u16 and bf16 values, u8 bytes (declared, as in tt-metal, with DEBUG_PRINT_ENABLED), and the CB's
// interface.
#include <cstdint>

#define DEBUG_PRINT_ENABLED 1

#include "api/debug/dprint_pages.h"

void kernel_main() {
  const uint32_t addr = get_write_ptr(0);
  volatile tt_l1_ptr uint16_t* p = reinterpret_cast<volatile tt_l1_ptr uint16_t*>(addr);
  const uint16_t values[4] = {1, 2, 0x3F80, 0xC000};  // 0x3F80, 0xC000: bf16 1 and -2
  for (uint32_t i = 0; i < 4; ++i) p[i] = values[i];
  tt::data_movement::common::print_u16_pages(addr, 2, 1);
  tt::data_movement::common::print_bf16_pages(addr, 2, 1, 1);
  tt::data_movement::common::print_u8_pages(addr, 2, 1);
  print_cb_details(0);
}
