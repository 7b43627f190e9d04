#pragma once
// The NoC a data-movement kernel was built for (-DNOC_INDEX; 0 for compute kernels).
#include <stdint.h>

#ifndef NOC_INDEX
#define NOC_INDEX 0
#endif
constexpr uint8_t noc_index = NOC_INDEX;
