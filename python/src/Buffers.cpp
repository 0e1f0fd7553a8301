// trident.Buffer (device memory with a shape), trident.empty / zeros / from_numpy /
// from_dlpack, host views through the buffer protocol, and DLPack in both directions.

#include "Bindings.h"
#include "trident/DLPack.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

namespace trident::python {

namespace {

using namespace dlpack;

size_t elementCount(const std::vector<int64_t> &shape) {
  size_t n = 1;
  for (int64_t d : shape)
    n *= size_t(d);
  return n;
}

std::vector<int64_t> toShape(py::handle shape) {
  std::vector<int64_t> out;
  if (py::isinstance<py::int_>(shape)) {
    out.push_back(shape.cast<int64_t>());
  } else {
    for (py::handle d : shape)
      out.push_back(d.cast<int64_t>());
  }
  for (int64_t d : out)
    if (d < 0)
      throw Error(ErrorCode::InvalidArgument, "a buffer's shape cannot have a negative size");
  return out;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? "," : "") +
         (i + 1 < shape.size() ? " " : "");
  return s + ")";
}

std::optional<DType> dtypeOfFormat(const char *format, Py_ssize_t itemsize) {
  if (!format)
    return DType::U8;
  if (*format == '@' || *format == '=' || *format == '<')
    ++format;
  if (format[0] == 0 || format[1] != 0)
    return std::nullopt;
  switch (*format) {
  case '?': return DType::I1;
  case 'b': return DType::I8;
  case 'B': return DType::U8;
  case 'h': return DType::I16;
  case 'H': return DType::U16;
  case 'e': return DType::F16;
  case 'f': return DType::F32;
  case 'd': return DType::F64;
  case 'i':
  case 'l':
  case 'q':
    return itemsize == 4   ? std::optional(DType::I32)
           : itemsize == 8 ? std::optional(DType::I64)
                           : std::nullopt;
  case 'I':
  case 'L':
  case 'Q':
    return itemsize == 4   ? std::optional(DType::U32)
           : itemsize == 8 ? std::optional(DType::U64)
                           : std::nullopt;
  default: return std::nullopt;
  }
}

void capsuleDestructor(PyObject *capsule) {
  // A consumer renames the capsule to "used_dltensor" and calls the deleter itself.
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (t && t->deleter)
      t->deleter(t);
  }
}

py::object exportDLPack(const PyBuffer &b) {
  int32_t type = dlpackDeviceType(b.buffer.device());
  if (type < 0)
    throw py::buffer_error(
        "a buffer on " + b.buffer.device().name() +
        " cannot be shared through DLPack (its memory is not host memory or CUDA/HIP memory); "
        "copy it to the host with .numpy()");
  DLManagedTensor *managed = trident::toDLPack(b.buffer, b.shape);
  if (b.shape.empty())
    managed->dl_tensor.ndim = 0; // a 0-d buffer (toDLPack gives it the shape (1,))
  PyObject *capsule = PyCapsule_New(managed, "dltensor", capsuleDestructor);
  if (!capsule) {
    managed->deleter(managed);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(capsule);
}

PyBuffer emptyBuffer(py::handle shape, py::handle dtype, py::handle device) {
  PyBuffer b;
  b.shape = toShape(shape);
  Device d = toDevice(device);
  DType t = toDType(dtype);
  {
    py::gil_scoped_release release;
    b.buffer = Buffer(d, elementCount(b.shape), t);
  }
  return b;
}

py::array hostArray(const PyBuffer &b) {
  py::module_ numpy = py::module_::import("numpy");
  return numpy.attr("empty")(py::tuple(py::cast(b.shape)), numpyName(b.buffer.dtype()));
}

py::array toNumpy(const PyBuffer &b) {
  py::array out = hostArray(b);
  if (b.buffer.dtype() == DType::BF16) {
    std::vector<uint16_t> bits(b.buffer.size());
    {
      py::gil_scoped_release release;
      b.buffer.copyToHost(bits.data(), bits.size() * 2);
    }
    float *dst = static_cast<float *>(out.mutable_data());
    for (size_t i = 0; i < bits.size(); ++i)
      dst[i] = bfloat16ToFloat(bits[i]);
    return out;
  }
  void *dst = out.mutable_data();
  py::gil_scoped_release release;
  if (b.buffer.bytes())
    b.buffer.copyToHost(dst, b.buffer.bytes());
  return out;
}

// Copies host data (anything numpy can turn into an array of this buffer's
// element type and size) into the buffer.
void copyFromHostObject(PyBuffer &b, py::handle src) {
  py::module_ numpy = py::module_::import("numpy");
  DType t = b.buffer.dtype();
  py::array arr = numpy.attr("ascontiguousarray")(src, numpyName(t));
  if (size_t(arr.size()) != b.buffer.size())
    throw Error(ErrorCode::InvalidArgument, "copy_: the source has " + std::to_string(arr.size()) +
                                                " elements but the buffer holds " +
                                                std::to_string(b.buffer.size()));
  if (t == DType::BF16) {
    std::vector<uint16_t> bits(b.buffer.size());
    const float *s = static_cast<const float *>(arr.data());
    for (size_t i = 0; i < bits.size(); ++i)
      bits[i] = floatToBFloat16(s[i]);
    py::gil_scoped_release release;
    b.buffer.copyFromHost(bits.data(), bits.size() * 2);
    return;
  }
  const void *data = arr.data();
  py::gil_scoped_release release;
  if (b.buffer.bytes())
    b.buffer.copyFromHost(data, b.buffer.bytes());
}

PyBuffer fromHostObject(py::handle src, py::handle dtype, py::handle device) {
  py::module_ numpy = py::module_::import("numpy");
  py::object arr = numpy.attr("asarray")(src);
  py::object dt = dtype.is_none() ? arr.attr("dtype") : py::reinterpret_borrow<py::object>(dtype);
  PyBuffer b = emptyBuffer(arr.attr("shape"), dt, device);
  copyFromHostObject(b, arr);
  return b;
}

PyBuffer fromDLPack(py::handle object, py::handle device) {
  DLPackView v = getDLPack(object, py::none());
  std::optional<Device> owner = deviceOfDLPack(v.deviceType, v.deviceId);
  Device d = owner ? *owner : toDevice(device);
  if (!owner && !d.info().hostMemory)
    throw Error(ErrorCode::InvalidArgument,
                "from_dlpack: the tensor is in host memory, which " + d.name() +
                    " cannot use in place; use trident.from_numpy to copy it there");
  auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(v.capsule.ptr(), "dltensor"));
  PyBuffer b;
  b.shape.assign(managed->dl_tensor.shape, managed->dl_tensor.shape + managed->dl_tensor.ndim);
  // Consumed, as the protocol says: the Buffer owns the tensor now and calls its deleter
  // when it goes (trident::fromDLPack checks the layout; imported memory is never freed
  // by Trident, only the tensor's deleter releases it).
  if (PyCapsule_SetName(v.capsule.ptr(), "used_dltensor") != 0)
    throw py::error_already_set();
  b.buffer = trident::fromDLPack(managed, owner ? Device() : d);
  return b;
}

} // namespace

HostView::~HostView() {
  if (held)
    PyBuffer_Release(&view);
}

bool getHostView(py::handle object, HostView &out, bool writable) {
  if (!PyObject_CheckBuffer(object.ptr()))
    return false;
  int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(object.ptr(), &out.view, flags) != 0)
    throw py::error_already_set();
  out.held = true;
  const Py_buffer &v = out.view;
  std::optional<DType> t = dtypeOfFormat(v.format, v.itemsize);
  if (!t)
    throw Error(ErrorCode::InvalidArgument, std::string("host memory of element format '") +
                                                (v.format ? v.format : "?") + "' has no Trident dtype");
  out.dtype = *t;
  out.first = static_cast<uint8_t *>(v.buf);
  int64_t low = 0, high = 0;
  bool empty = false;
  for (int i = 0; i < v.ndim; ++i) {
    if (v.shape[i] == 0)
      empty = true;
    int64_t span = int64_t(v.shape[i] - 1) * int64_t(v.strides ? v.strides[i] : v.itemsize);
    (span < 0 ? low : high) += span;
  }
  out.low = out.first + low;
  out.extent = empty ? 0 : size_t(high - low + v.itemsize);
  return true;
}

bool hasDLPack(py::handle object) { return PyObject_HasAttrString(object.ptr(), "__dlpack__") == 1; }

DLPackView getDLPack(py::handle object, py::object stream) {
  DLPackView out;
  out.capsule =
      stream.is_none() ? object.attr("__dlpack__")() : object.attr("__dlpack__")(py::arg("stream") = stream);
  auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(out.capsule.ptr(), "dltensor"));
  if (!managed)
    throw py::error_already_set();
  const DLTensor &t = managed->dl_tensor;
  std::optional<DType> dtype = dtypeOfDLPack(t.dtype);
  if (!dtype)
    throw Error(ErrorCode::InvalidArgument, "a DLPack tensor of type code " + std::to_string(t.dtype.code) +
                                                ", " + std::to_string(t.dtype.bits) + " bits, " +
                                                std::to_string(t.dtype.lanes) +
                                                " lanes has no Trident dtype");
  out.dtype = *dtype;
  out.deviceType = t.device.device_type;
  out.deviceId = t.device.device_id;
  out.address = reinterpret_cast<uint64_t>(t.data) + t.byte_offset;
  int64_t itemsize = int64_t(dtypeBytes(*dtype));
  int64_t low = 0, high = 0, stride = 1;
  bool empty = false;
  for (int i = t.ndim; i-- > 0;) {
    int64_t s = t.strides ? t.strides[i] : stride;
    stride *= t.shape[i];
    if (t.shape[i] == 0)
      empty = true;
    int64_t span = (t.shape[i] - 1) * s * itemsize;
    (span < 0 ? low : high) += span;
  }
  out.lowOffset = low;
  out.extent = empty ? 0 : size_t(high - low + itemsize);
  return out;
}

std::optional<Device> deviceOfDLPack(int32_t deviceType, int32_t deviceId) {
  switch (deviceType) {
  case kDLCPU:
  case kDLCUDAHost:
  case kDLROCMHost: return std::nullopt;
  case kDLCUDA:
  case kDLCUDAManaged: return Runtime::get().device("cuda:" + std::to_string(deviceId));
  case kDLROCM: return Runtime::get().device("hip:" + std::to_string(deviceId));
  default:
    throw Error(ErrorCode::NotSupported, "a DLPack tensor on device type " + std::to_string(deviceType) +
                                             " cannot be passed to Trident (host, CUDA and ROCm memory can)");
  }
}

int32_t dlpackDeviceType(const Device &device) {
  if (device.info().hostMemory)
    return kDLCPU;
  if (device.plugin() == "cuda")
    return kDLCUDA;
  if (device.plugin() == "hip")
    return kDLROCM;
  return -1;
}

void bindBuffers(py::module_ &m) {
  py::class_<PyBuffer>(m, "Buffer", "Device memory holding a row-major array of one dtype")
      .def_property_readonly("shape", [](const PyBuffer &b) { return py::tuple(py::cast(b.shape)); })
      .def_property_readonly("dtype", [](const PyBuffer &b) { return dtypeObject(b.buffer.dtype()); })
      .def_property_readonly("device", [](const PyBuffer &b) { return b.buffer.device(); })
      .def_property_readonly("ndim", [](const PyBuffer &b) { return b.shape.size(); })
      .def_property_readonly("nbytes", [](const PyBuffer &b) { return b.buffer.bytes(); })
      .def("numel", [](const PyBuffer &b) { return b.buffer.size(); })
      .def("element_size", [](const PyBuffer &b) { return dtypeBytes(b.buffer.dtype()); })
      .def(
          "data_ptr", [](const PyBuffer &b) { return b.buffer.address(); }, "the device address kernels see")
      .def(
          "stride",
          [](const PyBuffer &b, py::handle dim) -> py::object {
            std::vector<int64_t> s(b.shape.size(), 1);
            for (size_t i = b.shape.size(); i-- > 1;)
              s[i - 1] = s[i] * b.shape[i];
            if (dim.is_none())
              return py::tuple(py::cast(s));
            int64_t d = dim.cast<int64_t>();
            if (d < 0)
              d += int64_t(s.size());
            if (d < 0 || d >= int64_t(s.size()))
              throw py::index_error("dimension out of range");
            return py::int_(s[size_t(d)]);
          },
          py::arg("dim") = py::none(), "strides in elements, as torch.Tensor.stride")
      .def(
          "size",
          [](const PyBuffer &b, py::handle dim) -> py::object {
            if (dim.is_none())
              return py::tuple(py::cast(b.shape));
            int64_t d = dim.cast<int64_t>();
            if (d < 0)
              d += int64_t(b.shape.size());
            if (d < 0 || d >= int64_t(b.shape.size()))
              throw py::index_error("dimension out of range");
            return py::int_(b.shape[size_t(d)]);
          },
          py::arg("dim") = py::none())
      .def("__len__", [](const PyBuffer &b) { return b.shape.empty() ? size_t(0) : size_t(b.shape[0]); })
      .def("numpy", &toNumpy, "a host copy as a numpy array (bfloat16 comes back as float32)")
      .def(
          "copy_",
          [](PyBuffer &b, py::handle src) -> PyBuffer & {
            if (py::isinstance<PyBuffer>(src)) {
              const PyBuffer &s = src.cast<const PyBuffer &>();
              if (s.buffer.bytes() != b.buffer.bytes())
                throw Error(ErrorCode::InvalidArgument,
                            "copy_: the source holds " + std::to_string(s.buffer.bytes()) +
                                " bytes but the buffer " + std::to_string(b.buffer.bytes()));
              py::gil_scoped_release release;
              b.buffer.copyFrom(s.buffer);
            } else {
              copyFromHostObject(b, src);
            }
            return b;
          },
          py::arg("src"), py::return_value_policy::reference_internal,
          "copies a buffer (any device) or host data (numpy arrays, lists) into this buffer")
      .def(
          "fill_bytes_",
          [](PyBuffer &b, uint8_t byte) -> PyBuffer & {
            py::gil_scoped_release release;
            b.buffer.fillBytes(byte);
            return b;
          },
          py::return_value_policy::reference_internal)
      .def(
          "to",
          [](const PyBuffer &b, py::handle device) {
            Device d = toDevice(device);
            if (d == b.buffer.device())
              return b;
            PyBuffer out;
            out.shape = b.shape;
            {
              py::gil_scoped_release release;
              out.buffer = Buffer(d, b.buffer.size(), b.buffer.dtype());
              out.buffer.copyFrom(b.buffer);
            }
            return out;
          },
          py::arg("device"), "this buffer on `device` (a copy unless it is there already)")
      .def(
          "view",
          [](const PyBuffer &b, py::handle shape) {
            PyBuffer out = b;
            out.shape = toShape(shape);
            if (elementCount(out.shape) != b.buffer.size())
              throw Error(ErrorCode::InvalidArgument, "view: shape " + shapeText(out.shape) +
                                                          " does not hold " +
                                                          std::to_string(b.buffer.size()) + " elements");
            return out;
          },
          py::arg("shape"), "the same memory with another shape")
      .def(
          "__dlpack__", [](const PyBuffer &b, py::handle) { return exportDLPack(b); },
          py::arg("stream") = py::none())
      .def("__dlpack_device__",
           [](const PyBuffer &b) {
             int32_t type = dlpackDeviceType(b.buffer.device());
             if (type < 0)
               throw py::buffer_error("a buffer on " + b.buffer.device().name() +
                                      " cannot be shared through DLPack");
             return py::make_tuple(type, b.buffer.device().ordinal());
           })
      .def("__repr__", [](const PyBuffer &b) {
        return "trident.Buffer(shape=" + shapeText(b.shape) + ", dtype=trident." +
               languageName(b.buffer.dtype()) + ", device='" + b.buffer.device().name() + "')";
      });

  m.def("empty", &emptyBuffer, py::arg("shape"), py::arg("dtype") = dtypeObject(DType::F32),
        py::arg("device") = py::none(), "a buffer of `shape` (an int or a tuple), contents undefined");
  m.def(
      "zeros",
      [](py::handle shape, py::handle dtype, py::handle device) {
        PyBuffer b = emptyBuffer(shape, dtype, device);
        {
          py::gil_scoped_release release;
          b.buffer.fillBytes(0);
        }
        return b;
      },
      py::arg("shape"), py::arg("dtype") = dtypeObject(DType::F32), py::arg("device") = py::none());
  m.def("from_numpy", &fromHostObject, py::arg("array"), py::arg("dtype") = py::none(),
        py::arg("device") = py::none(),
        "a buffer on `device` holding a copy of host data (of its dtype, or `dtype`)");
  m.def("from_dlpack", &fromDLPack, py::arg("tensor"), py::arg("device") = py::none(),
        "a buffer over a DLPack tensor's memory, without a copy: CUDA/ROCm memory on its device, host "
        "memory on a host-memory device (the current one by default)");
}

} // namespace trident::python
