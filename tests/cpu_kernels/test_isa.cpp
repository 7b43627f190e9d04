#include <gtest/gtest.h>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/isa.hpp"

namespace ditmk::cpu {
namespace {

TEST(Isa, NamesRoundTrip) {
  for (Isa isa : {Isa::portable, Isa::avx2, Isa::avx512f, Isa::avx512_bf16, Isa::amx_bf16}) EXPECT_EQ(parse_isa(isa_name(isa)), isa);
  EXPECT_EQ(isa_names(), (std::vector<std::string>{"portable", "avx2", "avx512f", "avx512", "amx"}));
  EXPECT_THROW(parse_isa("sse9"), Error);
}

TEST(Isa, DetectedIsSupportedAndPortableAlwaysIs) {
  const std::vector<Isa> isas = supported_isas();
  ASSERT_FALSE(isas.empty());
  EXPECT_EQ(isas.front(), Isa::portable);
  EXPECT_EQ(isas.back(), detected_isa());
  EXPECT_LE(int(selected_isa()), int(detected_isa()));
}

// Runs last in this binary's order on purpose: it lowers the process-wide limit.
TEST(Isa, ZLimitOnlyLowers) {
  const Isa before = selected_isa();
  limit_isa("amx");
  EXPECT_EQ(selected_isa(), before);
  limit_isa("portable");
  EXPECT_EQ(selected_isa(), Isa::portable);
  limit_isa("avx512");
  EXPECT_EQ(selected_isa(), Isa::portable);
  EXPECT_THROW(limit_isa("fast"), Error);
}

}  // namespace
}  // namespace ditmk::cpu
