#pragma once
#include "debug/dprint.h"
