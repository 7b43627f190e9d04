#pragma once
// tt-metal's catch-all compute header: the common calls and the SFPU ops it declares (silu among
// them), with the other modelled SFPU ops.
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
