#pragma once
#include "ditmk/circular_buffer.h"
#include "hostdevcommon/kernel_structs.h"
