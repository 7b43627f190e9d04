#pragma once
// The older include path of api/compute/eltwise_unary/exp.h.
#include "api/compute/eltwise_unary/exp.h"
