#pragma once
// How the FPU's reduce weighs its input by the scaler tile (reduce_tile's second operand). The
// reduce is a pooling matmul between one face of the input and row 0 of one face of the scaler, so
// the scaler is not one number but a weight per reduced element, and which scaler element meets
// which input element follows the LLK's face pairing (tt-llk blackhole llk_math_reduce.h and
// llk_unpack_AB_reduce.h of the 0.81.1 tree):
//   row sum:    input (r, c) is weighted by scaler (0, c); the scaler sits in SrcA transposed within
//               each face and MVMUL pairs input faces 0/2 with scaler face 0 and 1/3 with face 1;
//   col sum:    input (r, c) is weighted by scaler (16 * (r / 16), 16 * (c / 16) + r % 16): GAPOOL
//               multiplies SrcB's row 0 (the paired scaler face) into the input face's rows;
//   scalar sum: the col-sum weighting pools all four faces into one 16-wide row, which is then
//               pooled once more against row 0 of the last scaler face (3), so a uniform scaler s
//               scales the sum by s * s (why tt-metal's HW reduce passes sqrt(1/N) for a mean);
//   max:        GMPOOL scales before its max by the power of two of the paired scaler element (its
//               exponent only, sign and mantissa dropped; a zero scaler element gives 0), with the
//               same pairing as the sums (row: scaler (16 * (r / 16), c)), and the scalar max pools
//               twice as the scalar sum does.
// The layernorm reader's partial scaler (1.0 in the first W % 32 columns only) drops a padded
// width's columns out of a row sum this way, and the reduce's partial scaler of H % 32 rows out of a
// column sum.
#include "ditmk/tt/emu/compute_api.hpp"

namespace ditmk::tt::emu {

// out = the reduction of the row-major 32x32 tile `in` weighted by the row-major 32x32 tile
// `scaler` as above, in the reduce's result elements (row: column 0, col: row 0, scalar: (0,0));
// the other elements of out are 0. in, scaler and out hold kTileElems floats each.
void reduce_with_scaler(ReduceFunc func, ReduceDim dim, const float* in, const float* scaler, float* out);

// The power of two GMPOOL keeps of a scaler element: 2^floor(log2 |s|), 0 for 0 (and for
// subnormals, which the FPU flushes).
float max_pool_scale(float s);

}  // namespace ditmk::tt::emu
