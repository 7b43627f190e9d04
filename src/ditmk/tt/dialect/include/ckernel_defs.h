#pragma once
// The LLK's ckernel_defs.h, the part kernels name: the ids of a Tensix core's threads (BRISC and the
// three TRISCs), which the mailboxes of ckernel.h are addressed by.
#include <stdint.h>

namespace ckernel {

enum ThreadId { BriscThreadId = 0, UnpackThreadId = 1, MathThreadId = 2, PackThreadId = 3 };

}  // namespace ckernel
