#pragma once
// DST[idst_out] = DST[idst_in], value for value, after its init. The DST holds fp32 values, so the
// copy is exact whichever data format a kernel names.
#include "api/compute/common.h"
#include "ditmk/compute.h"
#include "ditmk/data_format.h"

namespace ckernel {

ALWI void copy_dest_values_init() { ditmk::compute::init(DITMK_INIT_SFPU_BINARY, DITMK_SFPU_BINARY_COPY); }

template <DataFormat DATA_FORMAT>
ALWI void copy_dest_values(uint32_t idst_in, uint32_t idst_out) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_COPY, idst_in, idst_in, idst_out, VectorMode::RC,
                              "copy_dest_values");
}

ALWI void copy_dest_values(uint32_t idst_in, uint32_t idst_out) {
  ditmk::compute::sfpu_binary(DITMK_SFPU_BINARY_COPY, idst_in, idst_in, idst_out, VectorMode::RC,
                              "copy_dest_values");
}

}  // namespace ckernel
