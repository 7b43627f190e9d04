#pragma once
// The emulated chip's part of the _ditmk module (tt_binding.cpp): what ditmk.ttnn runs on.
#include <pybind11/pybind11.h>

namespace ditmk::python {

void bind_tt(pybind11::module_& m);

}  // namespace ditmk::python
