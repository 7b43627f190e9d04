#pragma once
// The older include path of api/compute/pack.h.
#include "api/compute/pack.h"
