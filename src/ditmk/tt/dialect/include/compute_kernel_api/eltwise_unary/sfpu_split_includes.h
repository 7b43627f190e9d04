#pragma once
// The older include path of api/compute/eltwise_unary/sfpu_split_includes.h.
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
