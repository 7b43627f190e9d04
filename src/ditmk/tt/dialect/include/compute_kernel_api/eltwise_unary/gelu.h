#pragma once
// The older include path of api/compute/eltwise_unary/gelu.h.
#include "api/compute/eltwise_unary/gelu.h"
