#pragma once
// The older include path of api/compute/cb_api.h.
#include "api/compute/cb_api.h"
