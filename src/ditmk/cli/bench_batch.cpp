#include "ditmk/cli/bench_batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>

#include "ditmk/cpu/engine.hpp"
#include "ditmk/model/synthetic.hpp"

namespace ditmk::cli {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<int> batch_sizes(int max_batch) {
  std::vector<int> sizes;
  for (int b = 1; b < max_batch; b *= 2) sizes.push_back(b);
  sizes.push_back(max_batch);
  return sizes;
}

}  // namespace

json time_batches(const BatchBenchOptions& o, const model::Weights& w, const std::vector<cpu::WeightFormat>& formats) {
  const model::ModelConfig& c = w.config;
  const std::vector<int> sizes = batch_sizes(o.max_batch);
  // Sample i: the synthetic observation and noise of seed i (distinct VL features: each sample's
  // precompute is its own, as in a simulation of many environments).
  std::vector<model::Observation> observations;
  std::vector<Matrix<double>> noises;
  for (int i = 0; i < o.max_batch; ++i) {
    observations.push_back(model::synthetic_observation(c, uint64_t(i)));
    noises.push_back(model::noise_matrix(model::synthetic_noise(c, uint64_t(i)).view(), c, "noise"));
  }
  struct Format {
    std::unique_ptr<cpu::Engine> engine;
    std::vector<std::vector<double>> single_ms, single_steps_ms;    // [sample][run]: whole call, its 4-step loop
    std::vector<std::vector<double>> batched_ms, batched_steps_ms;  // [size][run]
    std::vector<model::DenoiseResult> singles;
    bool bit_identical = true;
  };
  std::vector<Format> runs(formats.size());
  for (std::size_t f = 0; f < formats.size(); ++f) {
    runs[f].engine = std::make_unique<cpu::Engine>(w, o.embodiment, cpu::EngineOptions{o.threads, formats[f], o.isa});
    runs[f].single_ms.resize(std::size_t(o.max_batch)), runs[f].single_steps_ms.resize(std::size_t(o.max_batch));
    runs[f].batched_ms.resize(sizes.size()), runs[f].batched_steps_ms.resize(sizes.size());
    runs[f].singles.resize(std::size_t(o.max_batch));
    // warm-up: the largest batch grows the workspace once, outside the timed runs
    std::vector<model::CallInputs<float>> inputs;
    for (const auto& obs : observations) inputs.push_back(runs[f].engine->precompute(obs));
    std::vector<cpu::BatchSample> batch;
    for (int i = 0; i < o.max_batch; ++i) batch.push_back({&inputs[std::size_t(i)], o.embodiment, &noises[std::size_t(i)], {}});
    runs[f].engine->denoise_batch(batch);
  }
  for (int r = 0; r < o.runs; ++r) {
    for (Format& fmt : runs) {
      cpu::Engine& engine = *fmt.engine;
      for (int i = 0; i < o.max_batch; ++i) {
        const auto start = Clock::now();
        const model::CallInputs<float> inputs = engine.precompute(observations[std::size_t(i)]);
        const auto steps = Clock::now();
        fmt.singles[std::size_t(i)] = engine.denoise(inputs, noises[std::size_t(i)]);
        fmt.single_steps_ms[std::size_t(i)].push_back(ms_since(steps));
        fmt.single_ms[std::size_t(i)].push_back(ms_since(start));
      }
      for (std::size_t s = 0; s < sizes.size(); ++s) {
        const auto start = Clock::now();
        std::vector<model::CallInputs<float>> inputs;
        std::vector<cpu::BatchSample> batch;
        inputs.reserve(std::size_t(sizes[s]));
        for (int i = 0; i < sizes[s]; ++i) {
          inputs.push_back(engine.precompute(observations[std::size_t(i)]));
          batch.push_back({&inputs.back(), o.embodiment, &noises[std::size_t(i)], {}});
        }
        const auto steps = Clock::now();
        const std::vector<model::DenoiseResult> results = engine.denoise_batch(batch);
        fmt.batched_steps_ms[s].push_back(ms_since(steps));
        fmt.batched_ms[s].push_back(ms_since(start));
        for (int i = 0; i < sizes[s]; ++i)
          fmt.bit_identical = fmt.bit_identical && results[std::size_t(i)].actions.data == fmt.singles[std::size_t(i)].actions.data;
      }
    }
  }
  json report = json::array();
  for (std::size_t f = 0; f < formats.size(); ++f) {
    const Format& fmt = runs[f];
    json rows = json::array();
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      // B single calls: the sum of the samples' medians
      double single = 0, single_steps = 0;
      for (int i = 0; i < sizes[s]; ++i)
        single += median(fmt.single_ms[std::size_t(i)]), single_steps += median(fmt.single_steps_ms[std::size_t(i)]);
      const double batched = median(fmt.batched_ms[s]), batched_steps = median(fmt.batched_steps_ms[s]);
      rows.push_back({{"batch", sizes[s]},
                      {"single_calls_ms", single},
                      {"batched_call_ms", batched},
                      {"single_denoises_per_s", sizes[s] / single * 1e3},
                      {"batched_denoises_per_s", sizes[s] / batched * 1e3},
                      {"throughput_ratio", single / batched},
                      {"single_steps_ms", single_steps},
                      {"batched_steps_ms", batched_steps},
                      {"steps_ratio", single_steps / batched_steps}});
    }
    report.push_back({{"weight_format", cpu::weight_format_name(formats[f])},
                      {"isa", cpu::isa_name(fmt.engine->isa())},
                      {"threads", fmt.engine->threads()},
                      {"runs", o.runs},
                      {"bit_identical", fmt.bit_identical},
                      {"sizes", rows}});
  }
  return report;
}

void print_batches(const json& batches) {
  for (const json& f : batches) {
    fmt::print("  batched        {} weights ({}, {} threads, {} runs; distinct observations); each sample {}\n",
               f["weight_format"].get<std::string>(), f["isa"].get<std::string>(), f["threads"].get<int>(),
               f["runs"].get<int>(), f["bit_identical"].get<bool>() ? "bit-identical to its single call" : "DIFFERENT");
    for (const json& row : f["sizes"])
      fmt::print("    B = {:2d}       single calls {:9.1f} ms ({:.2f}/s), one batch {:9.1f} ms ({:.2f}/s): {:.2f}x throughput; "
                 "4-step loops {:.1f} vs {:.1f} ms ({:.2f}x)\n",
                 row["batch"].get<int>(), row["single_calls_ms"].get<double>(), row["single_denoises_per_s"].get<double>(),
                 row["batched_call_ms"].get<double>(), row["batched_denoises_per_s"].get<double>(),
                 row["throughput_ratio"].get<double>(), row["single_steps_ms"].get<double>(),
                 row["batched_steps_ms"].get<double>(), row["steps_ratio"].get<double>());
  }
}

}  // namespace ditmk::cli
