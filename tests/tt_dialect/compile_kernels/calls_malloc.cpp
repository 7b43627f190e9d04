#include <cstddef>

extern "C" void* malloc(std::size_t);

void kernel_main() { static_cast<volatile char*>(malloc(16))[0] = 1; }
