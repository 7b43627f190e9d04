#pragma once
// The LLK's ckernel_defs.h, the part kernels name: the ids of a Tensix core's threads (BRISC and the
// three TRISCs), which the mailboxes of ckernel.h are addressed by, and how an SFPU result is
// narrowed into a bf16 DST (a template option of the binary SFPU calls; the emulator's DST holds
// fp32 values, so neither mode changes its result), and the packer's modes.
#include <stdint.h>

namespace ckernel {

enum ThreadId { BriscThreadId = 0, UnpackThreadId = 1, MathThreadId = 2, PackThreadId = 3 };

enum class DstRoundingMode : uint8_t { Default = 0, NearestEven = 1 };

// How the packer writes a tile: whole, as row-major rows (untilize), or the reverse.
enum class PackMode : uint8_t { Default = 0, Untilize = 1, Tilize = 2 };

}  // namespace ckernel
