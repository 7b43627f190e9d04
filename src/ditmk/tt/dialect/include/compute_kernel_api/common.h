#pragma once
// The older include path of api/compute/common.h.
#include "api/compute/common.h"
