#pragma once
// The two sinusoid encodings of the action head (MODEL.md sections 2 and 3). Their argument
// orders differ on purpose: the timestep embedding puts cos first with divisor half-1, the action
// encoder's tau puts sin first with divisor half.
#include <vector>

namespace ditmk::model {

// [cos(t f_j), sin(t f_j)], f_j = exp(-ln(10000) j / (C/2 - 1)), j < C/2.
std::vector<double> timestep_sinusoid(int t, int channels);
// [sin(t g_j), cos(t g_j)], g_j = exp(-ln(10000) j / (D/2)), j < D/2.
std::vector<double> tau_sinusoid(int t, int width);

}  // namespace ditmk::model
