#pragma once
// tt-metal's api/compute/common.h: what every compute kernel has, args, CBs, DST, packing.
#include <stdint.h>

#include "api/compile_time_args.h"
#include "api/compute/cb_api.h"
#include "api/compute/common_globals.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reg_api.h"
#include "api/named_compile_time_args.h"
#include "ckernel.h"
#include "debug/assert.h"
#include "debug/dprint.h"
#include "debug/waypoint.h"
#include "ditmk/data_format.h"
#include "ditmk/kernel_args.h"
#include "hostdevcommon/kernel_structs.h"
#include "api/debug/kernel_profiler.hpp"
