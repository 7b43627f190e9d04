#pragma once
// The older include path of api/compute/eltwise_unary/activations.h.
#include "api/compute/eltwise_unary/activations.h"
