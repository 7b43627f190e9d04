#pragma once
// The older include path of api/compute/compute_kernel_hw_startup.h.
#include "api/compute/compute_kernel_hw_startup.h"
