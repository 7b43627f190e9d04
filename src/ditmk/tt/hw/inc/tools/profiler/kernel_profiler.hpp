#pragma once
// The older include path of api/debug/kernel_profiler.hpp (tt-metal 0.81.1's).
#include "api/debug/kernel_profiler.hpp"
