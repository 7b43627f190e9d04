#include "ditmk/cpu/isa_calibration.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ditmk/core/progress.hpp"
#include "ditmk/cpu/kernels/cache_info.hpp"
#include "ditmk/cpu/weight_digest.hpp"
#include "ditmk/io/atomic_file.hpp"

namespace ditmk::cpu {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

json names(const std::vector<Isa>& isas) {
  json a = json::array();
  for (Isa isa : isas) a.push_back(isa_name(isa));
  return a;
}

void warn(const std::string& what) { fmt::print(stderr, "warning: isa calibration: {}\n", what); }

// The cached choice of `format` for these candidates; nullopt when the file holds none (`why` empty)
// or cannot be trusted (`why` says why).
std::optional<IsaChoice> read_choice(const fs::path& file, const std::string& signature, WeightFormat format,
                                     const std::vector<Isa>& candidates, std::string& why) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const json j = json::parse(text.str(), nullptr, false);
  if (!in || j.is_discarded() || !j.is_object()) {
    why = "not a calibration file (corrupt or truncated)";
    return std::nullopt;
  }
  if (j.value("signature", "") != signature) {
    why = "made on another CPU or thread count";
    return std::nullopt;
  }
  const json choices = j.value("choices", json::object());
  const std::string key(weight_format_name(format));
  if (!choices.is_object() || !choices.contains(key)) return std::nullopt;
  const json& c = choices[key];
  if (!c.is_object() || c.value("candidates", json()) != names(candidates)) return std::nullopt;  // another cap
  IsaChoice choice{.source = "cached", .cache_file = file.string()};
  try {
    choice.isa = parse_isa(c.at("isa").get<std::string>());
    for (Isa isa : candidates) choice.timings.push_back({isa, c.at("ms").at(std::string(isa_name(isa))).get<double>()});
  } catch (const std::exception&) {
    why = fmt::format("its {} entry is incomplete", key);
    return std::nullopt;
  }
  if (std::find(candidates.begin(), candidates.end(), choice.isa) == candidates.end()) {
    why = fmt::format("its {} choice {} is not a candidate here", key, isa_name(choice.isa));
    return std::nullopt;
  }
  return choice;
}

// Adds the choice to the file (its other formats kept when the file is this CPU's); failures ignored.
void write_choice(const fs::path& file, const std::string& signature, WeightFormat format,
                  const std::vector<Isa>& candidates, const IsaChoice& choice) {
  json j = {{"signature", signature}, {"choices", json::object()}};
  {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const json old = json::parse(text.str(), nullptr, false);
    if (old.is_object() && old.value("signature", "") == signature && old.contains("choices") &&
        old["choices"].is_object())
      j["choices"] = old["choices"];
  }
  json ms = json::object();
  for (const IsaTiming& t : choice.timings) ms[std::string(isa_name(t.isa))] = t.ms;
  j["choices"][std::string(weight_format_name(format))] = {
      {"candidates", names(candidates)}, {"isa", isa_name(choice.isa)}, {"ms", ms}};
  try {
    fs::create_directories(file.parent_path());
    io::write_file_atomic(file.string(), j.dump(2) + "\n");
  } catch (const std::exception&) {
    // no cache: the next engine measures again
  }
}

}  // namespace

std::string cpu_signature(int threads) {
  const CacheSizes& c = cache_sizes();
  return fmt::format("calibration {}; {}; caches {} {} {}; threads {}", kCalibrationVersion, cpu_identity(), c.l1d, c.l2,
                     c.l3, threads);
}

std::vector<Isa> isa_candidates(Isa cap) {
  std::vector<Isa> out;
  for (Isa isa : supported_isas())
    if (isa != Isa::portable && isa <= cap) out.push_back(isa);
  if (out.empty()) out.push_back(Isa::portable);
  return out;
}

Isa pick_isa(const std::vector<IsaTiming>& timings) {
  const IsaTiming& default_path = timings.back();
  const IsaTiming& fastest =
      *std::min_element(timings.begin(), timings.end(), [](const IsaTiming& a, const IsaTiming& b) { return a.ms < b.ms; });
  return fastest.ms < default_path.ms * (1 - kSwitchMargin) ? fastest.isa : default_path.isa;
}

IsaChoice calibrate_isa(WeightFormat format, const std::vector<Isa>& candidates, const std::string& signature,
                        const std::string& cache_dir, const std::function<double(Isa)>& time_once) {
  if (candidates.size() == 1) return {.isa = candidates[0], .source = "only candidate"};
  const fs::path file = cache_dir.empty() ? fs::path()
                                          : fs::path(cache_dir) / fmt::format("{:016x}.json", digest64({
                                                reinterpret_cast<const std::byte*>(signature.data()), signature.size()}));
  if (!file.empty()) {
    std::string why;
    if (std::optional<IsaChoice> cached = read_choice(file, signature, format, candidates, why)) return *cached;
    if (!why.empty()) warn(fmt::format("{}: {}; measuring again", file.string(), why));
  }
  if (is_terminal(stderr))
    fmt::print(stderr, "calibrating the {} kernels on this CPU (once per machine): {}\n", weight_format_name(format),
               fmt::join(names(candidates), ", "));
  std::vector<std::vector<double>> ms(candidates.size());
  for (int round = 0; round < kCalibrationRounds; ++round)
    for (std::size_t c = 0; c < candidates.size(); ++c) ms[c].push_back(time_once(candidates[c]));
  IsaChoice choice{.source = "measured", .cache_file = file.string()};
  for (std::size_t c = 0; c < candidates.size(); ++c) choice.timings.push_back({candidates[c], median(ms[c])});
  choice.isa = pick_isa(choice.timings);
  if (!file.empty()) write_choice(file, signature, format, candidates, choice);
  return choice;
}

}  // namespace ditmk::cpu
