// trident._C: the native half of the `trident` Python package. The Python half
// (python/trident/*.py) builds Triton's decorators and helpers on top of it.

#include "Bindings.h"

namespace trident::python {

namespace {

// trident.Error, made in C++ so the translator can raise it; subclasses RuntimeError.
PyObject *errorType = nullptr;

// ErrorCode's enumerator, as an identifier: what `e.code` holds.
const char *codeIdentifier(ErrorCode code) {
  switch (code) {
  case ErrorCode::InvalidArgument: return "invalid_argument";
  case ErrorCode::NotFound: return "not_found";
  case ErrorCode::NotSupported: return "not_supported";
  case ErrorCode::OutOfMemory: return "out_of_memory";
  case ErrorCode::Compile: return "compile";
  case ErrorCode::Launch: return "launch";
  case ErrorCode::Device: return "device";
  case ErrorCode::Unavailable: return "unavailable";
  case ErrorCode::Io: return "io";
  case ErrorCode::Internal: return "internal";
  }
  return "internal";
}

} // namespace

void bindErrors(py::module_ &m) {
  errorType = PyErr_NewExceptionWithDoc(
      "trident.Error",
      "A failure reported by Trident: `str(e)` is its message, `e.code` its kind ('invalid_argument', "
      "'not_found', 'not_supported', 'out_of_memory', 'compile', 'launch', 'device', 'unavailable', 'io', "
      "'internal').",
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
      error.attr("code") = py::str(codeIdentifier(e.code()));
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
