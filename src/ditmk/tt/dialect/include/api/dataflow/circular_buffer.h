#pragma once
#include "ditmk/cb_format.h"
#include "ditmk/circular_buffer.h"
#include "hostdevcommon/kernel_structs.h"
