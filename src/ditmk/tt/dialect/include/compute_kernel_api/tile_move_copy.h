#pragma once
// The older include path of api/compute/tile_move_copy.h.
#include "api/compute/tile_move_copy.h"
