#pragma once
// The older include path of api/compute/reduce.h.
#include "api/compute/reduce.h"
