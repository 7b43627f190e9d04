#pragma once
// The LLK's SFPU copy between DST tiles, which kernels (ttnn's kernel_lib) include before
// api/compute/copy_dest_values.h; that header's calls go through the device ABI here, so this one
// only brings it in.
#include "api/compute/copy_dest_values.h"
