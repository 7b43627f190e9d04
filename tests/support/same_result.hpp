#pragma once
// Two denoise results with the same bytes: actions and every step's velocity.
#include <gtest/gtest.h>

#include <string>

#include "ditmk/model/denoise.hpp"

namespace ditmk::testing {

inline void expect_same_bytes(const model::DenoiseResult& got, const model::DenoiseResult& want, const std::string& what) {
  EXPECT_EQ(got.actions.data, want.actions.data) << what;
  ASSERT_EQ(got.velocities.size(), want.velocities.size()) << what;
  for (std::size_t s = 0; s < got.velocities.size(); ++s) EXPECT_EQ(got.velocities[s].data, want.velocities[s].data) << what;
}

}  // namespace ditmk::testing
