#pragma once
// The older include path of api/compute/reconfig_data_format.h.
#include "api/compute/reconfig_data_format.h"
