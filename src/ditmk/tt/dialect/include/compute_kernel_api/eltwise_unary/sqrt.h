#pragma once
// The older include path of api/compute/eltwise_unary/sqrt.h.
#include "api/compute/eltwise_unary/sqrt.h"
