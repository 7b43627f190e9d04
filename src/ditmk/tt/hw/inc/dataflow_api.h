#pragma once
// The older include path of tt-metal's data-movement API.
#include "api/dataflow/dataflow_api.h"
