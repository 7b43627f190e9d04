#pragma once
// The older include path of api/compute/eltwise_unary/recip.h.
#include "api/compute/eltwise_unary/recip.h"
