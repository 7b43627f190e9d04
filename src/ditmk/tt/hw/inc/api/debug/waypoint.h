#pragma once
#include "debug/waypoint.h"
