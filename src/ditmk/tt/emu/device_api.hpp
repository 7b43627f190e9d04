#pragma once
// What a kernel for the emulated chip includes: the dataflow and compute calls, profiler zones.
#include "ditmk/tt/emu/compute_api.hpp"
#include "ditmk/tt/emu/dataflow_api.hpp"
#include "ditmk/tt/emu/profiler_api.hpp"
