#pragma once
// The older include path of api/compute/reg_api.h.
#include "api/compute/reg_api.h"
