#pragma once
// The older include path of api/compute/transpose_wh.h.
#include "api/compute/transpose_wh.h"
