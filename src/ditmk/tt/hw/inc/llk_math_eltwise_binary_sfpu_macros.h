#pragma once
// The LLK's macros that the compute API's binary SFPU calls expand to on the chip (SFPU_BINARY_CALL,
// SFPU_BINARY_INIT, ...). ditmk's compute headers call the device ABI instead, so nothing is declared
// here; kernels that include it before those headers (ttnn's kernel_lib) still compile.
