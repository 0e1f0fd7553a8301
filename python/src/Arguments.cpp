// Conversions of Python launch values: grids, scalars by Triton's typing rules, and
// tensors of other frameworks (torch) recognized by their methods.

#include "Bindings.h"

#include <cstring>

namespace trident::python {

Dim3 toDim3(py::handle g, const std::string &kernelName) {
  if (PyLong_Check(g.ptr()))
    return {g.cast<int64_t>(), 1, 1};
  if (!PyTuple_Check(g.ptr()) && !PyList_Check(g.ptr()))
    throw Error(ErrorCode::InvalidArgument, "kernel '" + kernelName +
                                                "': a grid is a tuple of 1 to 3 ints, or a function of the "
                                                "meta-parameters returning one; got " +
                                                std::string(py::str(py::repr(g))));
  py::sequence s = py::reinterpret_borrow<py::sequence>(g);
  size_t n = s.size();
  if (n < 1 || n > 3)
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + kernelName + "': a grid has 1 to 3 dimensions, got " + std::to_string(n));
  int64_t d[3] = {1, 1, 1};
  for (size_t i = 0; i < n; ++i)
    d[i] = s[i].cast<int64_t>();
  return {d[0], d[1], d[2]};
}

Arg intArg(PyObject *o) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow == 0) {
    if (v >= INT32_MIN && v <= INT32_MAX)
      return Arg(int32_t(v));
    return Arg(int64_t(v));
  }
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (!PyErr_Occurred())
      return Arg(uint64_t(u));
    PyErr_Clear();
  }
  throw Error(ErrorCode::InvalidArgument,
              "the integer " + std::string(py::str(o)) + " does not fit in 64 bits");
}

Arg scalarArg(const HostView &v) {
  const void *p = v.first;
  auto load = [&](auto t) {
    decltype(t) x;
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (v.dtype) {
  case DType::I1: return Arg(load(uint8_t()) != 0);
  case DType::I8: return Arg(load(int8_t()));
  case DType::I16: return Arg(load(int16_t()));
  case DType::I32: return Arg(load(int32_t()));
  case DType::I64: return Arg(load(int64_t()));
  case DType::U8: return Arg(load(uint8_t()));
  case DType::U16: return Arg(load(uint16_t()));
  case DType::U32: return Arg(load(uint32_t()));
  case DType::U64: return Arg(load(uint64_t()));
  case DType::F16: return Arg::f16(halfToFloat(load(uint16_t())));
  case DType::F32: return Arg(load(float()));
  case DType::F64: return Arg(load(double()));
  default: throw Error(ErrorCode::InvalidArgument, "a scalar of this dtype cannot be passed");
  }
}

bool isTensorLike(PyObject *o) {
  static auto *known = new std::vector<PyTypeObject *>(); // types seen to be tensors; guarded by the GIL
  PyTypeObject *type = Py_TYPE(o);
  for (PyTypeObject *t : *known)
    if (t == type)
      return true;
  if (PyObject_HasAttrString(o, "data_ptr") == 1 && PyObject_HasAttrString(o, "get_device") == 1 &&
      PyObject_HasAttrString(o, "dtype") == 1) {
    Py_INCREF(type); // kept for the process's life
    known->push_back(type);
    return true;
  }
  return false;
}

std::optional<DType> tensorDType(py::handle dtypeObject) {
  static auto *dtypes = new std::vector<std::pair<py::object, DType>>(); // guarded by the GIL
  for (const auto &[object, dtype] : *dtypes)
    if (object.ptr() == dtypeObject.ptr())
      return dtype;
  std::string name = py::str(dtypeObject);
  if (size_t dot = name.rfind('.'); dot != std::string::npos)
    name = name.substr(dot + 1);
  std::optional<DType> t = name == "bool" ? std::optional(DType::I1) : parseDType(name);
  if (t)
    dtypes->emplace_back(py::reinterpret_borrow<py::object>(dtypeObject), *t);
  return t;
}

Device gpuDevice(int64_t n) {
  static std::vector<Device> *byOrdinal = new std::vector<Device>(); // guarded by the GIL
  if (n < int64_t(byOrdinal->size()) && (*byOrdinal)[size_t(n)])
    return (*byOrdinal)[size_t(n)];
  Device d;
  for (const Device &dev : Runtime::get().devices())
    if ((dev.plugin() == "cuda" || (dev.plugin() == "hip" && !d)) && dev.ordinal() == uint64_t(n))
      d = d && d.plugin() == "cuda" ? d : dev;
  if (!d)
    d = Runtime::get().device("cuda:" + std::to_string(n)); // throws, listing the devices
  if (byOrdinal->size() <= size_t(n))
    byOrdinal->resize(size_t(n) + 1);
  (*byOrdinal)[size_t(n)] = d;
  return d;
}

} // namespace trident::python
