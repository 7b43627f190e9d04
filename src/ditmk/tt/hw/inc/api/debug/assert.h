#pragma once
#include "debug/assert.h"
