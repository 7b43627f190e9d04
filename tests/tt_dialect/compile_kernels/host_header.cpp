#include <vector>

void kernel_main() {}
