#pragma once
// The older include path of api/compute/eltwise_unary/rsqrt.h.
#include "api/compute/eltwise_unary/rsqrt.h"
