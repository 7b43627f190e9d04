#pragma once
// Stands in for newlib's sys/_stdint.h, the C library of the SFPI toolchain (an LLK header
// includes it by that name); the host's <stdint.h> declares the same fixed-width types.
#include <stdint.h>
