#pragma once
// tt-metal picks the SFPU headers a kernel needs from SFPU_OP_*_INCLUDE defines; every modelled op
// is declared here whichever defines a kernel sets.
#include "api/compute/eltwise_unary/activations.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/eltwise_unary/gelu.h"
#include "api/compute/eltwise_unary/negative.h"
#include "api/compute/eltwise_unary/rdiv.h"
#include "api/compute/eltwise_unary/recip.h"
#include "api/compute/eltwise_unary/relu.h"
#include "api/compute/eltwise_unary/rpow.h"
#include "api/compute/eltwise_unary/rsqrt.h"
#include "api/compute/eltwise_unary/sqrt.h"
#include "api/compute/eltwise_unary/trigonometry.h"
#include "api/compute/eltwise_unary/typecast.h"
// tt-metal includes it for SFPU_OP_COMPUTE_KERNEL_API_INCLUDE: sigmoid, tanh, log, abs, square, ...
#include "api/compute/compute_kernel_api.h"
