// trident._C: the native half of the `trident` Python package. The Python half
// (python/trident/*.py) builds Triton's decorators and helpers on top of it.

#include "Bindings.h"

namespace trident::python {

namespace {

// trident.Error, made in C++ so the translator can raise it; subclasses RuntimeError.
PyObject *errorType = nullptr;

} // namespace

void bindErrors(py::module_ &m) {
  errorType = PyErr_NewExceptionWithDoc(
      "trident.Error",
      "A failure reported by Trident: `str(e)` is its message, `e.code` a short name of its kind "
      "('invalid argument', 'not found', 'compile', 'launch', ...).",
      PyExc_RuntimeError, nullptr);
  if (!errorType)
    throw py::error_already_set();
  m.add_object("Error", py::handle(errorType));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const Error &e) {
      py::object error = py::reinterpret_borrow<py::object>(errorType)(py::str(e.what()));
      error.attr("code") = py::str(errorCodeName(e.code()));
      PyErr_SetObject(errorType, error.ptr());
    }
  });
}

} // namespace trident::python

PYBIND11_MODULE(_C, m) {
  using namespace trident::python;
  m.doc() = "Trident's runtime: devices, buffers, streams, events and Triton-language kernels";
  m.attr("version") = trident::version();
  m.attr("build_id") = trident::buildId();
  bindErrors(m);
  bindDTypes(m);
  bindDevices(m);
  bindBuffers(m);
  bindKernels(m);
}
