#pragma once
// The older include path of api/compute/compute_kernel_api.h.
#include "api/compute/compute_kernel_api.h"
