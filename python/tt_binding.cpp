// The emulated Tenstorrent chip for Python (ditmk.ttnn builds on it): a JSON ProgramDescriptor run
// in memory with each io tensor's device bytes in and out, and the tensor codec that turns a logical
// array into those bytes and back. Faults come back as data (ditmk.ttnn raises KernelFault from
// them), so a faulting kernel leaves the interpreter and the next run untouched: every run builds
// its own emulated device.
#include "tt_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <nlohmann/json.hpp>

#include "ditmk/core/error.hpp"
#include "ditmk/io/atomic_file.hpp"
#include "ditmk/tt/program/descriptor.hpp"
#include "ditmk/tt/generic_op/descriptor_runner.hpp"
#include "ditmk/tt/jit/kernel_compiler.hpp"
#include "ditmk/tt/program/tensor_codec.hpp"
#include "ditmk/tt/emu/chrome_trace.hpp"

namespace py = pybind11;

namespace ditmk::python {

namespace {

namespace dialect = tt::dialect;

py::object json_to_python(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

std::vector<std::byte> bytes_of(const py::bytes& b) {
  const std::string_view view = b;
  const auto* p = reinterpret_cast<const std::byte*>(view.data());
  return {p, p + view.size()};
}

py::bytes to_bytes(const std::vector<std::byte>& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// A fault's parts: "kernel reader.cpp on core (1,0) NCRISC" -> kernel, core [x, y], processor.
py::dict fault_dict(const tt::emu::Fault& fault) {
  py::dict d;
  d["kind"] = std::string(tt::emu::fault_kind_name(fault.kind));
  d["where"] = fault.where;
  d["message"] = fault.message;
  d["text"] = tt::emu::to_string(fault);
  d["waiters"] = fault.waiters;
  static const std::regex where(R"((?:kernel (.+) on )?core \((\d+),(\d+)\) (\S+))");
  std::smatch m;
  if (std::regex_match(fault.where, m, where)) {
    d["kernel"] = m[1].matched ? py::object(py::str(m[1].str())) : py::object(py::none());
    d["core"] = py::make_tuple(std::stoi(m[2].str()), std::stoi(m[3].str()));
    d["processor"] = m[4].str();
  } else {
    d["kernel"] = py::none();
    d["core"] = py::none();
    d["processor"] = py::none();
  }
  return d;
}

// (outputs {name: bytes}, report dict, faults [dict]); `file` names the program in errors and
// relative kernel paths resolve against the working folder, then the kernel root.
py::tuple run_descriptor(const std::string& json_text, const std::map<std::string, py::bytes>& inputs,
                         const std::string& file, bool timing, const std::string& trace_path,
                         const std::string& report_path, const std::string& kernel_cache,
                         const std::string& kernel_root, double watchdog_seconds, bool strict) {
  const dialect::KernelRootOption root =
      kernel_root.empty() ? dialect::KernelRootOption{} : dialect::KernelRootOption{kernel_root};
  const dialect::ProgramDescriptor program = dialect::parse_descriptor_text(json_text, file, root);
  dialect::TensorBytes input_bytes;
  for (const auto& [name, bytes] : inputs) input_bytes[name] = bytes_of(bytes);
  dialect::RunOptions options;
  if (!kernel_cache.empty()) options.kernel_cache = kernel_cache;
  options.timing = timing || !trace_path.empty();
  options.watchdog_seconds = watchdog_seconds;
  options.strict = strict;
  dialect::DescriptorRun run;
  {
    py::gil_scoped_release released;
    run = dialect::run_descriptor(program, input_bytes, options);
  }
  const nlohmann::json report = dialect::run_report(program, run);
  if (!report_path.empty()) io::write_file_atomic(report_path, report.dump(2) + "\n");
  if (!trace_path.empty() && run.report.timing) {
    std::ostringstream trace;
    tt::emu::write_chrome_trace(*run.report.timing, trace);
    io::write_file_atomic(trace_path, trace.str());
  }
  py::dict outputs;
  for (const auto& [name, bytes] : run.tensors) outputs[py::str(name)] = to_bytes(bytes);
  py::list faults;
  for (const tt::emu::Fault& fault : run.report.faults) faults.append(fault_dict(fault));
  return py::make_tuple(outputs, json_to_python(report), faults);
}

// The tensor a (dtype, layout, shape) names, for the codec; errors name it `name`.
dialect::TensorDescriptor codec_tensor(const std::string& dtype, const std::string& layout,
                                       const std::vector<uint64_t>& shape, const std::string& name) {
  dialect::TensorDescriptor t;
  t.name = name;
  const auto format = dialect::parse_data_format(dtype);
  require(format.has_value(), "{}: dtype {} has no device encoding (bfloat16, bfloat8_b, float32, uint32, int32, "
                              "uint16 or uint8)", name, dtype);
  t.data_format = *format;
  require(layout == "tile" || layout == "row_major", "{}: layout {} (tile or row_major)", name, layout);
  t.layout = layout == "tile" ? dialect::TensorLayout::tile : dialect::TensorLayout::row_major;
  require(shape.size() >= 2, "{}: shape of rank {}: the device codec needs 2 or more dims (the last two the matrix)",
          name, shape.size());
  if (t.layout == dialect::TensorLayout::tile)
    require(shape[shape.size() - 1] % 32 == 0 && shape[shape.size() - 2] % 32 == 0,
            "{}: a TILE_LAYOUT tensor's last two dims must be multiples of 32 (ditmk does not pad)", name);
  t.shape = shape;
  t.page_size = 1;  // the codec reads only format, layout and shape
  return t;
}

DType dtype_of_array(const py::array& a, const std::string& name) {
  const char kind = a.dtype().kind();
  const auto size = a.itemsize();
  if (kind == 'f' && size == 4) return DType::F32;
  if (kind == 'f' && size == 8) return DType::F64;
  if (kind == 'i' && size == 4) return DType::I32;
  if (kind == 'i' && size == 8) return DType::I64;
  if (kind == 'u' && size == 1) return DType::U8;
  fail("{}: numpy dtype {} (float32, float64, int32, int64 or uint8)", name, std::string(py::str(a.dtype())));
}

py::bytes encode(const std::string& dtype, const std::string& layout, const std::vector<uint64_t>& shape,
                 const py::array& values, const std::string& name) {
  const dialect::TensorDescriptor t = codec_tensor(dtype, layout, shape, name);
  const py::array contiguous = py::array::ensure(values, py::array::c_style);
  const DType type = dtype_of_array(contiguous, name);
  Shape array_shape(contiguous.shape(), contiguous.shape() + contiguous.ndim());
  const Tensor tensor = Tensor::from_view({type, array_shape, static_cast<const std::byte*>(contiguous.data())});
  return to_bytes(dialect::encode_tensor(t, tensor, name));
}

py::array decode(const std::string& dtype, const std::string& layout, const std::vector<uint64_t>& shape,
                 const py::bytes& bytes, const std::string& name) {
  const dialect::TensorDescriptor t = codec_tensor(dtype, layout, shape, name);
  const std::vector<std::byte> raw = bytes_of(bytes);
  const Tensor values = dialect::decode_tensor(t, raw);
  std::vector<py::ssize_t> dims(values.shape().begin(), values.shape().end());
  if (values.dtype() == DType::I32) {
    py::array_t<int32_t> out(dims);
    std::memcpy(out.mutable_data(), values.bytes(), values.nbytes());
    return out;
  }
  py::array_t<float> out(dims);
  std::memcpy(out.mutable_data(), values.bytes(), values.nbytes());
  return out;
}

}  // namespace

void bind_tt(py::module_& m) {
  m.def("tt_run_descriptor", &run_descriptor, py::arg("descriptor"), py::arg("inputs"), py::arg("file") = "generic_op",
        py::arg("timing") = false, py::arg("trace") = "", py::arg("report") = "", py::arg("kernel_cache") = "",
        py::arg("kernel_root") = "", py::arg("watchdog") = tt::emu::kDefaultWatchdogSeconds,
        py::arg("strict") = false,
        "Runs a JSON ProgramDescriptor on the emulated chip with each io tensor's device bytes; returns "
        "(outputs {name: bytes}, report dict, faults [dict])");
  m.def("tt_encode", &encode, py::arg("dtype"), py::arg("layout"), py::arg("shape"), py::arg("values"),
        py::arg("name") = "tensor", "A logical array -> the device bytes of a (dtype, layout, shape) tensor");
  m.def("tt_decode", &decode, py::arg("dtype"), py::arg("layout"), py::arg("shape"), py::arg("bytes"),
        py::arg("name") = "tensor", "Device bytes -> the logical array (float32, or int32 for integer dtypes)");
  m.def("tt_tensor_bytes", [](const std::string& dtype, const std::string& layout, const std::vector<uint64_t>& shape) {
        return codec_tensor(dtype, layout, shape, "tensor").bytes();
      }, py::arg("dtype"), py::arg("layout"), py::arg("shape"), "Device bytes of a (dtype, layout, shape) tensor");
  m.def("tt_default_kernel_cache", [] { return tt::dialect::KernelCompiler::default_kernel_cache().string(); });
  m.attr("tt_grid") = py::make_tuple(tt::emu::kGridX, tt::emu::kGridY);
}

}  // namespace ditmk::python
