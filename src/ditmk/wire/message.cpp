#include "ditmk/wire/message.hpp"

#include <algorithm>
#include <msgpack.hpp>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/io/npy.hpp"
#include "ditmk/model/observation_batch.hpp"

namespace ditmk::wire {

namespace {

// How deep a request may nest: request -> data -> ndarray map is 3.
constexpr std::size_t kMaxDepth = 8;
// The longest list a field may be (a batch's embodiment ids or tags).
constexpr uint32_t kMaxListItems = 4096;

std::string_view text_of(const msgpack::object& o) { return {o.via.str.ptr, o.via.str.size}; }

const char* type_name(const msgpack::object& o) {
  switch (o.type) {
    case msgpack::type::NIL: return "nil";
    case msgpack::type::BOOLEAN: return "a boolean";
    case msgpack::type::POSITIVE_INTEGER:
    case msgpack::type::NEGATIVE_INTEGER: return "an integer";
    case msgpack::type::FLOAT32:
    case msgpack::type::FLOAT64: return "a float";
    case msgpack::type::STR: return "a string";
    case msgpack::type::BIN: return "bytes";
    case msgpack::type::ARRAY: return "an array";
    case msgpack::type::MAP: return "a map";
    case msgpack::type::EXT: return "an extension";
  }
  return "unknown";
}

// The value of `key` in a map whose keys must all be strings; nullptr when absent.
const msgpack::object* member(const msgpack::object& map, std::string_view key, const std::string& where) {
  const msgpack::object* found = nullptr;
  for (uint32_t i = 0; i < map.via.map.size; ++i) {
    const msgpack::object& k = map.via.map.ptr[i].key;
    if (k.type != msgpack::type::STR) fail("{}: a key is {}, not a string", where, type_name(k));
    if (text_of(k) == key) {
      if (found) fail("{}: key '{}' appears twice", where, key);
      found = &map.via.map.ptr[i].val;
    }
  }
  return found;
}

// {"__ndarray_class__": true, "as_npy": bin}: the array, or nullopt when the map is not an ndarray.
std::optional<Tensor> ndarray(const msgpack::object& map, const std::string& where) {
  const msgpack::object* tag = member(map, "__ndarray_class__", where);
  if (tag == nullptr) return std::nullopt;
  if (tag->type != msgpack::type::BOOLEAN || !tag->via.boolean) fail("{}: __ndarray_class__ is not true", where);
  const msgpack::object* npy = member(map, "as_npy", where);
  if (npy == nullptr) fail("{}: an ndarray without 'as_npy'", where);
  if (npy->type != msgpack::type::BIN) fail("{}: as_npy is {}, not bytes", where, type_name(*npy));
  if (map.via.map.size != 2) fail("{}: an ndarray map has {} keys (expected __ndarray_class__ and as_npy)", where, map.via.map.size);
  return io::parse_npy(reinterpret_cast<const std::byte*>(npy->via.bin.ptr), npy->via.bin.size, where);
}

Value data_value(const msgpack::object& o, const std::string& where) {
  Value v;
  switch (o.type) {
    case msgpack::type::POSITIVE_INTEGER:
      if (o.via.u64 > uint64_t(INT64_MAX)) fail("{}: integer {} is too large", where, o.via.u64);
      v.kind = Value::Kind::integer, v.integer = int64_t(o.via.u64);
      return v;
    case msgpack::type::NEGATIVE_INTEGER:
      v.kind = Value::Kind::integer, v.integer = o.via.i64;
      return v;
    case msgpack::type::FLOAT32:
    case msgpack::type::FLOAT64:
      v.kind = Value::Kind::number, v.number = o.via.f64;
      return v;
    case msgpack::type::STR:
      v.kind = Value::Kind::string, v.string = std::string(text_of(o));
      return v;
    case msgpack::type::MAP:
      if (auto array = ndarray(o, where)) {
        v.kind = Value::Kind::array, v.array = std::move(*array);
        return v;
      }
      fail("{}: a map that is not an ndarray", where);
    case msgpack::type::ARRAY:
      // Each item costs a Value, far more than its byte in the message: lists are bounded.
      if (o.via.array.size > kMaxListItems)
        fail("{}: a list of {} items (at most {})", where, o.via.array.size, kMaxListItems);
      v.kind = Value::Kind::list;
      for (uint32_t i = 0; i < o.via.array.size; ++i) {
        const msgpack::object& item = o.via.array.ptr[i];
        const bool scalar = item.type == msgpack::type::POSITIVE_INTEGER || item.type == msgpack::type::NEGATIVE_INTEGER ||
                            item.type == msgpack::type::STR;
        if (!scalar) fail("{}: item {} of the list is {} (expected integers or strings)", where, i, type_name(item));
        v.items.push_back(data_value(item, where));
      }
      return v;
    default: fail("{}: {} is not an ndarray, an integer, a float, a string or a list", where, type_name(o));
  }
}

void pack_json(msgpack::packer<msgpack::sbuffer>& pk, const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object:
      pk.pack_map(uint32_t(j.size()));
      for (const auto& [key, value] : j.items()) {
        pk.pack(key);
        pack_json(pk, value);
      }
      return;
    case nlohmann::json::value_t::array:
      pk.pack_array(uint32_t(j.size()));
      for (const auto& value : j) pack_json(pk, value);
      return;
    case nlohmann::json::value_t::string: pk.pack(j.get<std::string>()); return;
    case nlohmann::json::value_t::boolean: pk.pack(j.get<bool>()); return;
    case nlohmann::json::value_t::number_integer: pk.pack(j.get<int64_t>()); return;
    case nlohmann::json::value_t::number_unsigned: pk.pack(j.get<uint64_t>()); return;
    case nlohmann::json::value_t::number_float: pk.pack(j.get<double>()); return;
    default: pk.pack_nil(); return;
  }
}

std::string take(const msgpack::sbuffer& buffer) { return {buffer.data(), buffer.size()}; }

}  // namespace

bool same_token(const std::string& given, const std::string& expected) {
  unsigned diff = given.size() != expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i)
    diff |= unsigned(uint8_t(expected[i]) ^ uint8_t(i < given.size() ? given[i] : 0));
  return diff == 0;
}

Request decode_request(const std::byte* bytes, std::size_t size, const std::optional<std::string>& expected_token) {
  // Every element of a container needs at least one byte of the message, so these limits bound what
  // the decoder allocates by the message's size whatever its headers claim.
  const auto n = static_cast<std::size_t>(std::min<std::size_t>(size, UINT32_MAX));
  const msgpack::unpack_limit limit(n, n, n, n, n, kMaxDepth);
  msgpack::object_handle handle;
  std::size_t offset = 0;
  try {
    handle = msgpack::unpack(reinterpret_cast<const char*>(bytes), size, offset, nullptr, nullptr, limit);
  } catch (const msgpack::insufficient_bytes&) {
    fail("request: truncated msgpack ({} bytes)", size);
  } catch (const std::exception& e) {
    fail("request: not msgpack ({})", e.what());
  }
  if (offset != size) fail("request: {} bytes after the msgpack map", size - offset);
  const msgpack::object& top = handle.get();
  if (top.type != msgpack::type::MAP) fail("request: {}, not a map", type_name(top));
  Request r;
  if (const msgpack::object* endpoint = member(top, "endpoint", "request")) {
    if (endpoint->type != msgpack::type::STR) fail("endpoint: {}, not a string", type_name(*endpoint));
    r.endpoint = std::string(text_of(*endpoint));
  }
  if (const msgpack::object* token = member(top, "api_token", "request")) {
    if (token->type != msgpack::type::STR) fail("api_token: {}, not a string", type_name(*token));
    r.api_token = std::string(text_of(*token));
  }
  if (expected_token && !same_token(r.api_token.value_or(""), *expected_token))
    throw Unauthorized(r.api_token ? "Unauthorized: invalid API token" : "Unauthorized: this server needs an api_token");
  for (uint32_t i = 0; i < top.via.map.size; ++i) {
    const std::string_view key = text_of(top.via.map.ptr[i].key);
    if (key != "endpoint" && key != "api_token" && key != "data")
      fail("request: unknown key '{}' (expected endpoint, data, api_token)", key);
  }
  if (const msgpack::object* data = member(top, "data", "request"); data && data->type != msgpack::type::NIL) {
    if (data->type != msgpack::type::MAP) fail("data: {}, not a map", type_name(*data));
    for (uint32_t i = 0; i < data->via.map.size; ++i) {
      const msgpack::object& k = data->via.map.ptr[i].key;
      if (k.type != msgpack::type::STR) fail("data: a key is {}, not a string", type_name(k));
      const std::string name(text_of(k));
      if (r.data.count(name)) fail("data: key '{}' appears twice", name);
      r.data.emplace(name, data_value(data->via.map.ptr[i].val, name));
    }
  }
  return r;
}

namespace {

const Value* field_of(const Request& r, const char* name, Value::Kind kind, const char* expected) {
  const auto it = r.data.find(name);
  if (it == r.data.end()) return nullptr;
  if (it->second.kind != kind) fail("{}: expected {}", name, expected);
  return &it->second;
}

// An integer given as an int or as a numpy scalar (a 0-d or 1-element integer array).
std::optional<int64_t> integer_field(const Request& r, const char* name) {
  const auto it = r.data.find(name);
  if (it == r.data.end()) return std::nullopt;
  const Value& v = it->second;
  if (v.kind == Value::Kind::integer) return v.integer;
  const bool integer_array = v.kind == Value::Kind::array && v.array.numel() == 1 &&
                             (v.array.dtype() == DType::I64 || v.array.dtype() == DType::I32);
  if (!integer_array) fail("{}: expected an integer", name);
  return int64_t(v.array.view().at(0));
}

// A number given as a float, an int or a numpy scalar (a 0-d or 1-element float or integer array).
std::optional<double> number_field(const Request& r, const char* name) {
  const auto it = r.data.find(name);
  if (it == r.data.end()) return std::nullopt;
  const Value& v = it->second;
  if (v.kind == Value::Kind::number) return v.number;
  if (v.kind == Value::Kind::integer) return double(v.integer);
  const bool scalar_array = v.kind == Value::Kind::array && v.array.numel() == 1 &&
                            (is_float(v.array.dtype()) || v.array.dtype() == DType::I64 || v.array.dtype() == DType::I32);
  if (!scalar_array) fail("{}: expected a number", name);
  return v.array.view().at(0);
}

// The previous chunk and the four options of real-time chunking, all of them or none.
void realtime_chunking_fields(const Request& r, ActionCall& call) {
  static const char* const kNames[] = {"action", "action_horizon", "rtc_overlap_steps", "rtc_frozen_steps", "rtc_ramp_rate"};
  const auto given = std::count_if(std::begin(kNames), std::end(kNames), [&](const char* n) { return r.data.count(n) > 0; });
  if (given == 0) return;
  for (const char* name : kNames)
    if (!r.data.count(name))
      fail("{}: missing (real-time chunking needs action, action_horizon, rtc_overlap_steps, rtc_frozen_steps and "
           "rtc_ramp_rate)", name);
  call.previous_actions = field_of(r, "action", Value::Kind::array, "an ndarray [H_prev, A] (the previous chunk)")->array.view();
  call.rtc = model::RealTimeChunking{*integer_field(r, "action_horizon"), *integer_field(r, "rtc_overlap_steps"),
                                     *integer_field(r, "rtc_frozen_steps"), *number_field(r, "rtc_ramp_rate")};
}

}  // namespace

namespace {

void check_field_names(const Request& r) {
  static const char* const kFields[] = {"backbone_features", "backbone_attention_mask", "image_mask", "state",
                                        "embodiment_id", "embodiment", "noise", "seed", "action", "action_horizon",
                                        "rtc_overlap_steps", "rtc_frozen_steps", "rtc_ramp_rate"};
  for (const auto& entry : r.data) {
    const std::string& name = entry.first;  // clang 14 cannot capture a structured binding
    if (std::find_if(std::begin(kFields), std::end(kFields), [&](const char* f) { return name == f; }) == std::end(kFields))
      fail("{}: unknown field (expected backbone_features, backbone_attention_mask, image_mask, state, embodiment_id "
           "or embodiment, noise or seed, and for real-time chunking action, action_horizon, rtc_overlap_steps, "
           "rtc_frozen_steps, rtc_ramp_rate)", name);
  }
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// A batched array's leading dimension, which must be the batch's; `rank`: the rank it must have (0: any >= 2).
void check_batch(const char* name, const TensorView& view, int64_t batch, std::size_t rank, const char* expected) {
  if (view.shape.empty() || view.shape[0] != batch)
    fail("{}: shape {}, a batch of {}, but backbone_features has a batch of {} (expected {})", name, shape_text(view.shape),
         view.shape.empty() ? 0 : view.shape[0], batch, expected);
  if ((rank && view.shape.size() != rank) || (!rank && view.shape.size() < 2))
    fail("{}: shape {} (expected {} in a batch)", name, shape_text(view.shape), expected);
}

// The batch's embodiments, one per sample: an embodiment_id (int, list or integer array) or an
// embodiment tag (string or list), for every sample alike or one each.
std::vector<std::string> batch_embodiments(const Request& r, int64_t batch) {
  const auto id = r.data.find("embodiment_id"), tag = r.data.find("embodiment");
  if (id != r.data.end() && tag != r.data.end()) fail("embodiment: give embodiment_id or embodiment, not both");
  std::vector<std::string> names(static_cast<std::size_t>(batch));
  if (id != r.data.end()) {
    const Value& v = id->second;
    std::vector<int64_t> ids;
    if (v.kind == Value::Kind::integer) {
      ids.assign(std::size_t(batch), v.integer);
    } else if (v.kind == Value::Kind::list) {
      for (const Value& item : v.items) {
        if (item.kind != Value::Kind::integer) fail("embodiment_id: a list with a string (expected integers)");
        ids.push_back(item.integer);
      }
    } else if (v.kind == Value::Kind::array && (v.array.dtype() == DType::I64 || v.array.dtype() == DType::I32)) {
      const TensorView view = v.array.view();
      if (view.numel() == 1) ids.assign(std::size_t(batch), int64_t(view.at(0)));
      else for (int64_t i = 0; i < view.numel(); ++i) ids.push_back(int64_t(view.at(i)));
    } else {
      fail("embodiment_id: expected an integer, a list of {} integers or an integer ndarray [{}]", batch, batch);
    }
    if (int64_t(ids.size()) != batch) fail("embodiment_id: {} ids for a batch of {}", ids.size(), batch);
    for (std::size_t i = 0; i < ids.size(); ++i) names[i] = std::to_string(ids[i]);
  } else if (tag != r.data.end()) {
    const Value& v = tag->second;
    if (v.kind == Value::Kind::string) {
      names.assign(std::size_t(batch), v.string);
    } else if (v.kind == Value::Kind::list) {
      if (int64_t(v.items.size()) != batch) fail("embodiment: {} tags for a batch of {}", v.items.size(), batch);
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (v.items[i].kind != Value::Kind::string) fail("embodiment: a list with an integer (expected tags)");
        names[i] = v.items[i].string;
      }
    } else {
      fail("embodiment: expected a string (an embodiment tag) or a list of {} tags", batch);
    }
  }
  return names;
}

std::vector<ActionCall> batch_calls(const Request& r, int64_t batch) {
  std::vector<ActionCall> calls(static_cast<std::size_t>(batch));
  const TensorView features = r.data.at("backbone_features").array.view();
  for (int64_t i = 0; i < batch; ++i) calls[std::size_t(i)].arrays["backbone_features"] = model::sample_of(features, i);
  for (const char* name : {"backbone_attention_mask", "image_mask", "state"}) {
    const Value* v = field_of(r, name, Value::Kind::array, "an ndarray");
    if (!v) continue;
    const TensorView view = v->array.view();
    check_batch(name, view, batch, std::string_view(name) == "state" ? 0 : 2,
                std::string_view(name) == "state" ? "[B, state_dim] or [B, L, state_dim]" : "[B, S]");
    for (int64_t i = 0; i < batch; ++i) calls[std::size_t(i)].arrays[name] = model::sample_of(view, i);
  }
  const std::vector<std::string> embodiments = batch_embodiments(r, batch);
  const Value* noise = field_of(r, "noise", Value::Kind::array, "an ndarray [B, H, A]");
  const std::optional<int64_t> seed = integer_field(r, "seed");
  if (noise && seed) fail("noise: give noise or seed, not both");
  if (noise) check_batch("noise", noise->array.view(), batch, 3, "[B, H, A]");
  if (seed && *seed < 0) fail("seed: {} is negative", *seed);
  ActionCall shared;
  realtime_chunking_fields(r, shared);
  if (shared.previous_actions) check_batch("action", *shared.previous_actions, batch, 3, "[B, H_prev, A]");
  for (int64_t i = 0; i < batch; ++i) {
    ActionCall& call = calls[std::size_t(i)];
    call.embodiment = embodiments[std::size_t(i)];
    if (noise) call.noise = model::sample_of(noise->array.view(), i);
    call.seed = uint64_t(seed.value_or(0)) + uint64_t(i);
    if (shared.previous_actions) call.previous_actions = model::sample_of(*shared.previous_actions, i);
    call.rtc = shared.rtc;
  }
  return calls;
}

}  // namespace

std::vector<ActionCall> action_calls(const Request& r) {
  check_field_names(r);
  const Value* features = field_of(r, "backbone_features", Value::Kind::array, "an ndarray");
  if (!features || features->array.view().shape.size() != 3 || features->array.view().shape[0] <= 1)
    return {action_call(r)};
  return batch_calls(r, features->array.view().shape[0]);
}

ActionCall action_call(const Request& r) {
  check_field_names(r);
  ActionCall call;
  if (!r.data.count("backbone_features")) fail("backbone_features: missing (an ndarray [S, 2048] or [1, S, 2048])");
  for (const char* name : {"backbone_features", "backbone_attention_mask", "image_mask", "state"})
    if (const Value* v = field_of(r, name, Value::Kind::array, "an ndarray")) call.arrays[name] = v->array.view();
  const std::optional<int64_t> id = integer_field(r, "embodiment_id");
  const Value* tag = field_of(r, "embodiment", Value::Kind::string, "a string (an embodiment tag)");
  if (id && tag) fail("embodiment: give embodiment_id or embodiment, not both");
  if (id) call.embodiment = std::to_string(*id);
  if (tag) call.embodiment = tag->string;
  const Value* noise = field_of(r, "noise", Value::Kind::array, "an ndarray [H, A]");
  const std::optional<int64_t> seed = integer_field(r, "seed");
  if (noise && seed) fail("noise: give noise or seed, not both");
  if (noise) call.noise = noise->array.view();
  if (seed) {
    if (*seed < 0) fail("seed: {} is negative", *seed);
    call.seed = uint64_t(*seed);
  }
  realtime_chunking_fields(r, call);
  return call;
}

std::string encode_error(const std::string& message) {
  msgpack::sbuffer buffer;
  msgpack::packer<msgpack::sbuffer> pk(&buffer);
  pk.pack_map(1);
  pk.pack(std::string("error"));
  pk.pack(message);
  return take(buffer);
}

std::string encode_map(const nlohmann::json& object) {
  msgpack::sbuffer buffer;
  msgpack::packer<msgpack::sbuffer> pk(&buffer);
  pack_json(pk, object);
  return take(buffer);
}

std::string encode_actions(const Matrix<double>& actions) { return encode_actions(std::vector<Matrix<double>>{actions}); }

std::string encode_actions(const std::vector<Matrix<double>>& batch) {
  require(!batch.empty(), "encode_actions: an empty batch");
  const int64_t rows = int64_t(batch.front().rows), cols = int64_t(batch.front().cols);
  Tensor pred(DType::F32, {int64_t(batch.size()), rows, cols});
  float* out = pred.data<float>();
  for (const Matrix<double>& actions : batch) {
    require(int64_t(actions.rows) == rows && int64_t(actions.cols) == cols, "encode_actions: samples of different shapes");
    for (double v : actions.data) *out++ = float(v);
  }
  const std::string npy = io::encode_npy(pred.view());
  msgpack::sbuffer buffer;
  msgpack::packer<msgpack::sbuffer> pk(&buffer);
  pk.pack_map(1);
  pk.pack(std::string("action_pred"));
  pk.pack_map(2);
  pk.pack(std::string("__ndarray_class__"));
  pk.pack(true);
  pk.pack(std::string("as_npy"));
  pk.pack_bin(uint32_t(npy.size()));
  pk.pack_bin_body(npy.data(), uint32_t(npy.size()));
  return take(buffer);
}

}  // namespace ditmk::wire
