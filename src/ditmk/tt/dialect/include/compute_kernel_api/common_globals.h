#pragma once
// The older include path of api/compute/common_globals.h.
#include "api/compute/common_globals.h"
