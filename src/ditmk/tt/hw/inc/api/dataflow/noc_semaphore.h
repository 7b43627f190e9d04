#pragma once
// tt-metal keeps this name for the Semaphore class, which api/semaphore.h defines.
#include "api/semaphore.h"
