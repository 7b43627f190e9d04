#pragma once
// A ProgramDescriptor written as the JSON parse_descriptor reads (schemas/program_descriptor.schema.json):
// every field the descriptor holds, in the parser's order, so parse(write(d)) is d again. Kernel
// sources are written as the descriptor names them (kernel_source), relative to its folder.
#include <nlohmann/json_fwd.hpp>

#include "ditmk/tt/program/descriptor.hpp"

namespace ditmk::tt::dialect {

nlohmann::ordered_json descriptor_json(const ProgramDescriptor& program);

}  // namespace ditmk::tt::dialect
