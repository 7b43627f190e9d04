#pragma once
// What tt-metal's softmax kernels include for their SFPU calls: exp of the (shifted) input and the
// reciprocal of the row sum. It declares nothing of its own.
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/recip.h"
