#pragma once
// What tt-metal's layernorm kernels include for their compute calls: the common compute API and
// the reciprocal square root of the normalisation (1 / sqrt(Var[x] + eps)). It declares nothing of
// its own.
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_unary/rsqrt.h"
