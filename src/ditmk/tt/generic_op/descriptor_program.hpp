#pragma once
// A ProgramDescriptor as the host API's Program, ready for HostDevice::load: each kernel created
// with its build (processor, NoC, compile-time args, defines, compute config) and its common and
// per-core runtime args, `address_of` resolved from the tensors' addresses; the CBs at the
// addresses l1_layout placed them; the semaphores.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/program/descriptor_checks.hpp"
#include "ditmk/tt/host_api/host_api.hpp"

namespace ditmk::tt::dialect {

// The compile-time args {"tensor_accessor_args": name} expands to: tt-metal's TensorAccessorArgs
// encoding of the tensor (api/tensor/tensor_accessor_args.h describes the words).
std::vector<uint32_t> tensor_accessor_args(const TensorDescriptor& tensor);

// `addresses`: every tensor an arg takes the address of (a DRAM buffer's base, an L1 shard's
// address); a missing one is an error naming it.
Program program_of(const ProgramDescriptor& program, const L1Layout& layout,
                   const std::map<std::string, uint32_t>& addresses);

}  // namespace ditmk::tt::dialect
