#pragma once
// The older include path of api/compute/eltwise_binary.h.
#include "api/compute/eltwise_binary.h"
