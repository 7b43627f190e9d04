#pragma once
// tt-metal's JIT puts internal/tt-1xx on the include path, so kernels also include risc_common.h by
// its bare name.
#include "internal/tt-1xx/risc_common.h"
