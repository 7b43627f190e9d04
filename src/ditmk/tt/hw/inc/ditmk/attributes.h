#pragma once
// tt-metal's kernel attributes. L1 is plain memory here: the address-space qualifiers of its RISC-V
// build are empty.
#ifndef tt_l1_ptr
#define tt_l1_ptr
#endif
#ifndef tt_reg_ptr
#define tt_reg_ptr
#endif
#ifndef FORCE_INLINE
#define FORCE_INLINE inline __attribute__((always_inline))
#endif
#ifndef ALWI
#define ALWI inline __attribute__((always_inline))
#endif
