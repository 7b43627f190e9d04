#pragma once
// The older include path of api/compute/bcast.h.
#include "api/compute/bcast.h"
