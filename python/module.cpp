// _ditmk: the C++ action head for Python. Arrays arrive as (buffer, dtype name) pairs that the
// Python layer (python/ditmk/__init__.py) makes from numpy arrays or torch tensors; they are viewed,
// not copied. The GIL is released for the whole call, so heads in several Python threads run at
// once; each head serves one call at a time.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>
#include <optional>
#include <nlohmann/json.hpp>

#include "ditmk/api/ditmk.hpp"
#include "ditmk/model/observation_batch.hpp"
#include "ditmk/model/realtime_chunking.hpp"
#include "ditmk/model/synthetic.hpp"
#include "ditmk/serve/service.hpp"
#include "ditmk/wire/message.hpp"
#include "tt_binding.hpp"

namespace py = pybind11;

namespace ditmk::python {

namespace {

DType dtype_of(const std::string& name, const std::string& array) {
  static const std::map<std::string, DType> names = {{"float32", DType::F32}, {"float16", DType::F16},
                                                     {"bfloat16", DType::BF16}, {"float64", DType::F64},
                                                     {"int64", DType::I64},   {"int32", DType::I32},
                                                     {"bool", DType::BOOL}};
  const auto it = names.find(name);
  if (it == names.end()) fail("{}: dtype {} (expected float32, float16, bfloat16, float64, int64, int32 or bool)", array, name);
  return it->second;
}

// A C-contiguous array (the Python layer makes it so) as a view; `dtype` may say bfloat16 for the
// raw 16-bit words torch hands over.
TensorView view_of(const py::array& a, const std::string& dtype, const std::string& name) {
  const DType t = dtype_of(dtype, name);
  if (std::size_t(a.itemsize()) != dtype_size(t)) fail("{}: {}-byte elements for dtype {}", name, a.itemsize(), dtype);
  if (!(a.flags() & py::array::c_style)) fail("{}: the array is not C-contiguous", name);
  Shape shape(a.shape(), a.shape() + a.ndim());
  return {t, shape, static_cast<const std::byte*>(a.data())};
}

py::array_t<float> to_numpy(const Matrix<double>& m) {
  py::array_t<float> out({m.rows, m.cols});
  float* p = out.mutable_data();
  for (std::size_t i = 0; i < m.data.size(); ++i) p[i] = float(m.data[i]);
  return out;
}

py::object json_to_python(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

struct Head {
  ActionHead head;
  std::mutex calls;

  explicit Head(const OpenOptions& options) : head(options) {}

  // arrays: name -> (array, dtype name), copied by the head.
  void set_vision_language(const std::map<std::string, std::pair<py::array, std::string>>& arrays) {
    model::ObservationArrays views;
    for (const auto& [name, array] : arrays) views[name] = view_of(array.first, array.second, name);
    py::gil_scoped_release released;
    const std::lock_guard<std::mutex> one_call_at_a_time(calls);
    head.set_vision_language(views);
  }
  void clear_vision_language() {
    const std::lock_guard<std::mutex> one_call_at_a_time(calls);
    head.clear_vision_language();
  }

  // arrays: name -> (array, dtype name); noise and previous likewise or None; rtc: (action_horizon,
  // rtc_overlap_steps, rtc_frozen_steps, rtc_ramp_rate) or None.
  py::tuple get_action(const std::map<std::string, std::pair<py::array, std::string>>& arrays, const std::string& embodiment,
                       const std::optional<std::pair<py::array, std::string>>& noise, uint64_t seed, bool velocities,
                       const std::optional<std::pair<py::array, std::string>>& previous, const std::string& previous_name,
                       const std::optional<std::tuple<int64_t, int64_t, int64_t, double>>& rtc) {
    model::ObservationArrays views;
    for (const auto& [name, array] : arrays) views[name] = view_of(array.first, array.second, name);
    CallOptions call;
    call.embodiment = embodiment;
    call.seed = seed;
    if (noise) call.noise = view_of(noise->first, noise->second, "noise");
    if (previous) call.previous_actions = view_of(previous->first, previous->second, previous_name);
    call.previous_actions_name = previous_name;
    if (rtc) call.rtc = model::RealTimeChunking{std::get<0>(*rtc), std::get<1>(*rtc), std::get<2>(*rtc), std::get<3>(*rtc)};
    model::DenoiseResult result;
    {
      py::gil_scoped_release released;
      const std::lock_guard<std::mutex> one_call_at_a_time(calls);
      result = head.get_action(head.observation(views), call);
    }
    py::array_t<float> actions = to_numpy(result.actions);
    const py::list warnings = py::cast(result.warnings);
    if (!velocities) return py::make_tuple(actions, py::none(), warnings);
    const int steps = int(result.velocities.size());
    py::array_t<float> v({steps, result.actions.rows, result.actions.cols});
    float* p = v.mutable_data();
    for (const auto& step : result.velocities)
      for (double x : step.data) *p++ = float(x);
    return py::make_tuple(actions, v, warnings);
  }

  // A batch: arrays with a leading batch dimension B (ActionHead::observations), embodiments one for
  // every sample or one each, noise and previous [B, ...] or None (sample i without noise draws from
  // seed + i); -> (actions [B, H, A], velocities [B, steps, H, A] or None, warnings "sample i: ...").
  py::tuple get_actions(const std::map<std::string, std::pair<py::array, std::string>>& arrays,
                        const std::vector<std::string>& embodiments, const std::optional<std::pair<py::array, std::string>>& noise,
                        uint64_t seed, bool velocities, const std::optional<std::pair<py::array, std::string>>& previous,
                        const std::string& previous_name, const std::optional<std::tuple<int64_t, int64_t, int64_t, double>>& rtc) {
    model::ObservationArrays views;
    for (const auto& [name, array] : arrays) views[name] = view_of(array.first, array.second, name);
    std::vector<model::DenoiseResult> results;
    {
      py::gil_scoped_release released;
      const std::lock_guard<std::mutex> one_call_at_a_time(calls);
      const std::vector<model::Observation> batch = head.observations(views);
      const std::size_t b = batch.size();
      if (embodiments.size() != 1 && embodiments.size() != b)
        fail("embodiment_id: {} ids for a batch of {}", embodiments.size(), b);
      // a batched array's sample i, the array named when its batch is not the observations'
      auto sample_views = [&](const std::optional<std::pair<py::array, std::string>>& a, const std::string& name) {
        std::vector<std::optional<TensorView>> out(b);
        if (!a) return out;
        const TensorView v = view_of(a->first, a->second, name);
        if (v.shape.empty() || v.shape[0] != int64_t(b))
          fail("{}: shape {} for a batch of {} (expected a leading dimension of {})", name, shape_str(v.shape), b, b);
        for (std::size_t i = 0; i < b; ++i) out[i] = model::sample_of(v, int64_t(i));
        return out;
      };
      const auto noises = sample_views(noise, "noise"), previouses = sample_views(previous, previous_name);
      std::vector<CallOptions> options(b);
      for (std::size_t i = 0; i < b; ++i) {
        CallOptions& call = options[i];
        call.embodiment = embodiments.size() == 1 ? embodiments[0] : embodiments[i];
        call.seed = seed + i;
        call.noise = noises[i];
        call.previous_actions = previouses[i];
        call.previous_actions_name = previous_name;
        if (rtc) call.rtc = model::RealTimeChunking{std::get<0>(*rtc), std::get<1>(*rtc), std::get<2>(*rtc), std::get<3>(*rtc)};
      }
      results = head.get_actions(batch, options);
    }
    const int64_t b = int64_t(results.size()), h = results[0].actions.rows, a = results[0].actions.cols;
    py::array_t<float> actions({b, h, a});
    float* p = actions.mutable_data();
    py::list warnings;
    for (std::size_t i = 0; i < results.size(); ++i) {
      for (double x : results[i].actions.data) *p++ = float(x);
      for (const std::string& w : results[i].warnings) warnings.append(b == 1 ? w : "sample " + std::to_string(i) + ": " + w);
    }
    if (!velocities) return py::make_tuple(actions, py::none(), warnings);
    const int64_t steps = int64_t(results[0].velocities.size());
    py::array_t<float> v({b, steps, h, a});
    float* q = v.mutable_data();
    for (const auto& r : results)
      for (const auto& step : r.velocities)
        for (double x : step.data) *q++ = float(x);
    return py::make_tuple(actions, v, warnings);
  }
};

// The bytes of a Python bytes object, without a copy (the object outlives the view).
std::string_view bytes_of(const py::bytes& b) {
  char* data = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(b.ptr(), &data, &size) != 0) throw py::error_already_set();
  return {data, std::size_t(size)};
}

// `ditmk serve`'s policy service over a Head: request bytes in, reply bytes out. It is serve::Service,
// the server's own code, so a replica of the Ray deployment (python/ditmk/ray.py) replies with the bytes
// the server would. It takes no token: the ingress checks it before a request reaches a replica.
struct PolicyService {
  py::object owner;  // the Head, alive while the service refers to it
  Head& head;
  serve::Service service;

  PolicyService(const py::object& h, std::size_t max_request_bytes)
      : owner(h), head(h.cast<Head&>()), service(head.head, std::nullopt, max_request_bytes) {}

  // -> (reply bytes, endpoint, error message or "", warnings: the release quirks `ditmk serve` logs)
  py::tuple handle(const py::bytes& request) {
    const std::string_view bytes = bytes_of(request);
    serve::Reply reply;
    {
      py::gil_scoped_release released;
      const std::lock_guard<std::mutex> one_call_at_a_time(head.calls);
      reply = service.handle(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    }
    return py::make_tuple(py::bytes(reply.bytes), reply.endpoint, reply.error, py::cast(reply.warnings));
  }
};

// What `ditmk serve` answers before any model work (serve::screen_request), for an ingress that routes
// the model's requests to replicas (python/ditmk/ray.py): -> (endpoint, reply bytes, error message or
// ""), the reply None where the request goes to a replica ("get_info", "get_action").
py::tuple ingress_reply(const py::bytes& request, const std::optional<std::string>& api_token, std::size_t max_request_bytes) {
  const std::string_view bytes = bytes_of(request);
  const serve::ScreenedRequest screened =
      serve::screen_request(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size(), api_token, max_request_bytes);
  if (screened.model_request) return py::make_tuple(screened.reply.endpoint, py::none(), "");
  return py::make_tuple(screened.reply.endpoint, py::bytes(screened.reply.bytes), screened.reply.error);
}

}  // namespace

}  // namespace ditmk::python

PYBIND11_MODULE(_ditmk, m) {
  using namespace ditmk;
  using ditmk::python::Head;
  using ditmk::python::json_to_python;
  m.doc() = "ditmk: the GR00T action head (see python/ditmk/__init__.py for the Python API)";
  m.attr("__version__") = DITMK_VERSION;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const NotFound& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  ditmk::python::bind_tt(m);
  py::class_<Head>(m, "Head")
      .def(py::init([](const std::string& checkpoint, const std::string& version, const std::string& backend,
                       const std::string& dtype, int threads, const std::string& isa, bool mask_padding,
                       bool weight_cache, bool reuse_vision_language) {
             py::gil_scoped_release released;  // loading and packing take seconds
             return std::make_unique<Head>(OpenOptions{checkpoint, version, backend, dtype, threads, isa, mask_padding,
                                                       weight_cache, "", reuse_vision_language});
           }),
           py::arg("checkpoint"), py::arg("version"), py::arg("backend"), py::arg("dtype"), py::arg("threads"),
           py::arg("isa"), py::arg("mask_padding"), py::arg("weight_cache") = true, py::arg("reuse_vision_language") = true)
      .def_property_readonly("info",
                             [](Head& h) {
                               nlohmann::json info;
                               {  // vl_cache_bytes and vl_reused_calls change with each call
                                 py::gil_scoped_release released;
                                 const std::lock_guard<std::mutex> one_call_at_a_time(h.calls);
                                 info = h.head.info().to_json();
                               }
                               return json_to_python(info);
                             })
      .def(
          "synthetic_observation",
          [](const Head& h, uint64_t seed) {
            const model::Observation obs = h.head.synthetic_observation(seed);
            py::array_t<float> features({int64_t(obs.features.shape[0]), int64_t(obs.features.shape[1])});
            std::copy(obs.features.as<float>(), obs.features.as<float>() + obs.features.numel(), features.mutable_data());
            const auto masks = [](const std::vector<uint8_t>& m) {
              py::array_t<bool> out(int64_t(m.size()));
              std::copy(m.begin(), m.end(), out.mutable_data());
              return out;
            };
            const ModelInfo& info = h.head.info();
            py::array_t<float> state({info.state_history, info.state_dim});
            std::copy(obs.state.begin(), obs.state.end(), state.mutable_data());
            py::dict d;
            d["features"] = features, d["attention_mask"] = masks(obs.attention_mask);
            d["image_mask"] = masks(obs.image_mask), d["state"] = state;
            return d;
          },
          py::arg("seed"))
      .def("set_vision_language", &Head::set_vision_language, py::arg("arrays"))
      .def("clear_vision_language", &Head::clear_vision_language)
      .def("get_action", &Head::get_action, py::arg("arrays"), py::arg("embodiment"), py::arg("noise"), py::arg("seed"),
           py::arg("velocities"), py::arg("previous"), py::arg("previous_name"), py::arg("rtc"))
      .def("get_actions", &Head::get_actions, py::arg("arrays"), py::arg("embodiments"), py::arg("noise"), py::arg("seed"),
           py::arg("velocities"), py::arg("previous"), py::arg("previous_name"), py::arg("rtc"));
  py::class_<ditmk::python::PolicyService>(m, "PolicyService")
      .def(py::init<const py::object&, std::size_t>(), py::arg("head"), py::arg("max_request_bytes"))
      .def("handle", &ditmk::python::PolicyService::handle, py::arg("request"));
  m.def("ingress_reply", &ditmk::python::ingress_reply, py::arg("request"), py::arg("api_token"),
        py::arg("max_request_bytes"));
  m.def("error_reply", [](const std::string& message) { return py::bytes(wire::encode_error(serve::one_line(message))); },
        py::arg("message"));
  m.def("inspect", [](const std::string& path) { return json_to_python(inspect(path)); }, py::arg("path"));
  // N1.7's real-time chunking start on its own (model::euler_start), for checking it against the
  // release's statements over many option sets: noise [H, A] float64, previous [H_prev, A] float32 ->
  // (x0 [H, A], strength [H], warnings).
  m.def(
      "realtime_chunking_start",
      [](const py::array_t<double, py::array::c_style>& noise, const py::array_t<float, py::array::c_style>& previous,
         const std::tuple<int64_t, int64_t, int64_t, double>& rtc) {
        if (noise.ndim() != 2) fail("noise: {} dimensions (expected [H, A])", noise.ndim());
        model::ModelConfig config = model::tiny_config(model::Version::n17, 1);
        config.horizon = int(noise.shape(0)), config.action_dim = int(noise.shape(1));
        Matrix<double> x(config.horizon, config.action_dim);
        std::copy(noise.data(), noise.data() + noise.size(), x.data.begin());
        const TensorView chunk = python::view_of(previous, "float32", "previous");
        const model::EulerStart start = model::euler_start(
            std::move(x), chunk, model::RealTimeChunking{std::get<0>(rtc), std::get<1>(rtc), std::get<2>(rtc), std::get<3>(rtc)},
            config, "previous");
        py::array_t<double> strength(int64_t(start.row_strength.size()));
        std::copy(start.row_strength.begin(), start.row_strength.end(), strength.mutable_data());
        py::array_t<double> x0({start.x0.rows, start.x0.cols});
        std::copy(start.x0.data.begin(), start.x0.data.end(), x0.mutable_data());
        return py::make_tuple(x0, strength, start.warnings);
      },
      py::arg("noise"), py::arg("previous"), py::arg("rtc"));
  m.def(
      "make_checkpoint",
      [](const std::string& out, const std::string& version, const std::string& dtype, uint64_t seed, int n_blocks,
         bool tiny, int shard_mb) {
        py::gil_scoped_release released;
        make_checkpoint({out, version, dtype, seed, n_blocks, shard_mb, tiny, false});
      },
      py::arg("out"), py::arg("version"), py::arg("dtype"), py::arg("seed"), py::arg("n_blocks"), py::arg("tiny"),
      py::arg("shard_mb"));
}
