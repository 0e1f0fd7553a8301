// trident.dtype and its instances (trident.float32 ...), and what converts to them.

#include "Bindings.h"

#include <array>

namespace trident::python {

namespace {

constexpr DType allDTypes[] = {DType::I1,   DType::I8,  DType::I16, DType::I32,    DType::I64,
                               DType::U8,   DType::U16, DType::U32, DType::U64,    DType::F16,
                               DType::BF16, DType::F32, DType::F64, DType::F8E4M3, DType::F8E5M2};
constexpr size_t kDTypeCount = std::size(allDTypes);

std::array<py::object, kDTypeCount> &instances() {
  static auto *objects = new std::array<py::object, kDTypeCount>(); // lives as long as the interpreter
  return *objects;
}

Error notADType(py::handle object) {
  return Error(ErrorCode::InvalidArgument,
               "expected a dtype (trident.float32, a numpy dtype or a name such as 'float16'), got " +
                   std::string(py::str(py::repr(object))));
}

} // namespace

const char *languageName(DType type) {
  switch (type) {
  case DType::I1: return "int1";
  case DType::I8: return "int8";
  case DType::I16: return "int16";
  case DType::I32: return "int32";
  case DType::I64: return "int64";
  case DType::U8: return "uint8";
  case DType::U16: return "uint16";
  case DType::U32: return "uint32";
  case DType::U64: return "uint64";
  case DType::F16: return "float16";
  case DType::BF16: return "bfloat16";
  case DType::F32: return "float32";
  case DType::F64: return "float64";
  case DType::F8E4M3: return "float8e4nv";
  case DType::F8E5M2: return "float8e5";
  }
  return "?";
}

const char *numpyName(DType type) {
  switch (type) {
  case DType::I1: return "bool";
  case DType::BF16: return "float32";
  case DType::F8E4M3:
  case DType::F8E5M2: return "uint8";
  default: return languageName(type);
  }
}

py::object dtypeObject(DType type) { return instances()[size_t(type)]; }

DType toDType(py::handle object) {
  if (py::isinstance<PyDType>(object))
    return object.cast<const PyDType &>().type;
  std::string name;
  if (py::isinstance<py::str>(object)) {
    name = object.cast<std::string>();
  } else {
    // numpy dtypes and scalar types (np.float32, np.dtype('int8')), without importing numpy here.
    py::object numpy;
    try {
      numpy = py::module_::import("numpy");
    } catch (py::error_already_set &) {
      throw notADType(object);
    }
    try {
      name = py::str(numpy.attr("dtype")(object).attr("name"));
    } catch (py::error_already_set &) {
      throw notADType(object);
    }
  }
  if (name == "bool")
    return DType::I1;
  if (std::optional<DType> t = parseDType(name))
    return *t;
  throw notADType(object);
}

void bindDTypes(py::module_ &m) {
  py::class_<PyDType> cls(m, "dtype",
                          "An element type; the instances are trident.float32, trident.int8, ...");
  cls.def_property_readonly("name", [](const PyDType &d) { return languageName(d.type); })
      .def_property_readonly("itemsize", [](const PyDType &d) { return dtypeBytes(d.type); })
      .def_property_readonly(
          "primitive_bitwidth",
          [](const PyDType &d) { return d.type == DType::I1 ? size_t(1) : dtypeBytes(d.type) * 8; })
      .def_property_readonly("short_name", [](const PyDType &d) { return std::string(dtypeName(d.type)); })
      .def("is_floating", [](const PyDType &d) { return isFloat(d.type); })
      .def("is_unsigned", [](const PyDType &d) { return isUnsigned(d.type); })
      .def(
          "numpy_name", [](const PyDType &d) { return numpyName(d.type); },
          "the numpy dtype name of host copies of this dtype's data")
      .def("__repr__", [](const PyDType &d) { return std::string("trident.") + languageName(d.type); })
      .def("__str__", [](const PyDType &d) { return languageName(d.type); })
      .def("__hash__", [](const PyDType &d) { return size_t(d.type); })
      .def("__eq__", [](const PyDType &d, py::handle other) {
        try {
          return toDType(other) == d.type;
        } catch (const Error &) {
          return false;
        }
      });
  for (DType t : allDTypes) {
    instances()[size_t(t)] = py::cast(PyDType{t});
    m.attr(languageName(t)) = instances()[size_t(t)];
  }
  m.attr("bool") = dtypeObject(DType::I1);
  m.def(
      "to_dtype", [](py::handle o) { return dtypeObject(toDType(o)); },
      "a trident dtype from a trident dtype, a numpy dtype or a name");
}

} // namespace trident::python
