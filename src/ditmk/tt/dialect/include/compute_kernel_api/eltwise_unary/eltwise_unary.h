#pragma once
// The older include path of api/compute/eltwise_unary/eltwise_unary.h.
#include "api/compute/eltwise_unary/eltwise_unary.h"
