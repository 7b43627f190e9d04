#pragma once
// Every limit a ProgramSpec must respect (docs/plan.md, "Checks"). Each failure throws
// ditmk::Error with one line that names the limit, the numbers and, for L1, the role.
#include "ditmk/tt/plan/program_spec.hpp"

namespace ditmk::tt {

void check_cbs(const ProgramSpec& spec);          // count, ids, pages, overlapping duplicates
void check_args(const ProgramSpec& spec);         // named CTAs, runtime-arg words, semaphores
void check_groups_and_l1(const ProgramSpec& spec);
void check_io(const ProgramSpec& spec);           // the output slot is last
void check_program(const ProgramSpec& spec);      // all of the above

}  // namespace ditmk::tt
