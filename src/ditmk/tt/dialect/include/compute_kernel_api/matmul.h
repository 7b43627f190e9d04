#pragma once
// The older include path of api/compute/matmul.h.
#include "api/compute/matmul.h"
