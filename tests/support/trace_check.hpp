#pragma once
// Checks a Chrome trace written by the timing model: valid JSON, every span on a track with a start
// and a duration, spans of one processor track never overlapping, zone tracks properly nested.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ditmk/tt/emu/chrome_trace.hpp"

namespace ditmk::testing {

struct TraceCounts {
  std::size_t spans = 0, zones = 0, transfers = 0, tracks = 0;
};

inline TraceCounts check_trace(const std::string& text) {
  TraceCounts counts;
  const nlohmann::json doc = nlohmann::json::parse(text);  // throws on invalid JSON
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  for (const nlohmann::json& e : doc.at("traceEvents")) {
    const std::string ph = e.at("ph");
    if (ph == "b" || ph == "e") {
      counts.transfers += ph == "b";
      EXPECT_TRUE(e.contains("id") && e.contains("ts") && e.contains("pid") && e.contains("tid"));
      continue;
    }
    if (ph != "X") continue;
    EXPECT_TRUE(e.contains("pid") && e.contains("tid") && e.contains("ts") && e.contains("dur") && e.contains("name"))
        << e.dump();
    EXPECT_GE(e.at("dur").get<double>(), 0.0);
    const int tid = e.at("tid");
    (tid < tt::emu::kZoneTrackOffset ? counts.spans : counts.zones) += 1;
    tracks[{e.at("pid").get<int>(), tid}].push_back({e.at("ts").get<double>(), e.at("dur").get<double>()});
  }
  constexpr double kPrintedPrecision = 1e-3;  // microseconds with four decimals
  for (auto& [track, spans] : tracks) {
    // by start, the longer of two that start together first (it encloses the other)
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    if (track.second < tt::emu::kZoneTrackOffset) {
      for (std::size_t i = 1; i < spans.size(); ++i) {
        EXPECT_LE(spans[i - 1].first + spans[i - 1].second, spans[i].first + kPrintedPrecision)
            << "track " << track.first << "." << track.second << " overlaps at " << spans[i].first;
      }
    } else {
      // zones nest: each one ends before the next one that starts after it outside it
      std::vector<double> open;
      for (const auto& [start, dur] : spans) {
        while (!open.empty() && open.back() <= start + kPrintedPrecision) open.pop_back();
        if (!open.empty()) {
          EXPECT_LE(start + dur, open.back() + kPrintedPrecision) << "zones cross at " << start;
        }
        open.push_back(start + dur);
      }
    }
  }
  counts.tracks = tracks.size();
  return counts;
}

}  // namespace ditmk::testing
