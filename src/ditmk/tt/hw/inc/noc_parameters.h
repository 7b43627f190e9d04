#pragma once
// tt-metal's JIT puts the architecture's noc/ folder on the include path, so kernels also include
// noc_parameters.h by its bare name.
#include "noc/noc_parameters.h"
