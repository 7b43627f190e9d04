#include <zmq.h>

void kernel_main() {}
