#pragma once
// Shared declarations of the `trident._C` extension: the Python classes over the
// C++ runtime (Buffer, Device, Stream, Event, dtype, the jit kernel) and the
// conversions between Python objects and runtime values that several files use.

#include "trident/Trident.h"

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

namespace trident::python {

namespace py = pybind11;

// trident.dtype: one instance per DType, made once (module attributes float32 ...).
struct PyDType {
  DType type;
};
// The shared instance for `type`.
py::object dtypeObject(DType type);
// A trident dtype, a numpy dtype or scalar type, or a name ("float32", "fp16");
// throws Error(InvalidArgument) for anything else.
DType toDType(py::handle object);
// The triton.language attribute of a dtype: "float32", "int1", "float8e4nv".
const char *languageName(DType type);
// The numpy dtype name that holds a dtype's elements on the host ("bfloat16" data
// comes back as "float32"; fp8 as "uint8" bits).
const char *numpyName(DType type);

// trident.Buffer: device memory with a shape (row-major, contiguous).
struct PyBuffer {
  Buffer buffer;
  std::vector<int64_t> shape;
};

// The device launches and allocations use when none is named: the innermost
// `with trident.device(...)`, else the one set_device chose, else the runtime's default.
Device currentDevice();
// The stream `with trident.stream(...)` selected for `device`, else its default stream.
Stream currentStream(const Device &device);
// The stream `with trident.stream(...)` selected for `device`, if any.
std::optional<Stream> selectedStream(const Device &device);
// The device's legacy default stream (CUDA's and HIP's null stream), imported once:
// launches with torch tensors use it, so they are ordered after torch's own work on
// its default stream, as Triton's launches are.
Stream legacyStream(const Device &device);
// A Device from a trident.Device, a name ("vulkan:0") or None (the current device).
Device toDevice(py::handle object);

// A view of host memory from the buffer protocol: its first element, the bytes
// from its lowest to its highest element, and the element type.
struct HostView {
  Py_buffer view{};
  bool held = false;
  uint8_t *first = nullptr; // element 0
  uint8_t *low = nullptr;   // the lowest address any element occupies
  size_t extent = 0;        // bytes from `low` past the highest element
  DType dtype = DType::U8;
  HostView() = default;
  HostView(const HostView &) = delete;
  HostView &operator=(const HostView &) = delete;
  ~HostView();
};
// Fills `out` from an object with the buffer protocol; false when it has none.
// Throws Error(InvalidArgument) for element types Trident has no dtype for.
bool getHostView(py::handle object, HostView &out, bool writable);

// DLPack: the fields of an object's __dlpack__() capsule that a launch needs.
struct DLPackView {
  py::object capsule;   // keeps the producer's tensor alive
  uint64_t address = 0; // data + byte_offset
  int32_t deviceType = 0;
  int32_t deviceId = 0;
  DType dtype = DType::U8;
  size_t extent = 0;     // bytes from the lowest to past the highest element
  int64_t lowOffset = 0; // bytes from `address` to the lowest element (<= 0)
};
bool hasDLPack(py::handle object);
DLPackView getDLPack(py::handle object, py::object stream);
// The Trident device that holds memory of a DLPack device (kDLCUDA 2 -> cuda:N,
// kDLROCM 10 -> hip:N); nullopt for host memory (kDLCPU, kDLCUDAHost).
std::optional<Device> deviceOfDLPack(int32_t deviceType, int32_t deviceId);
// DLPack's device type for memory of `device`, or -1 when it cannot be exported.
int32_t dlpackDeviceType(const Device &device);

// Launch values (Arguments.cpp).
// A grid: an int, or a tuple or list of 1 to 3 ints; throws Error(InvalidArgument).
Dim3 toDim3(py::handle grid, const std::string &kernelName);
// Triton's typing of a Python int passed to a runtime parameter: i32, else u64 from
// 2^63, else i64.
Arg intArg(PyObject *integer);
// A numpy scalar (a 0-d buffer) as a scalar of its own dtype.
Arg scalarArg(const HostView &view);
// torch.Tensor and its likes, as Triton takes them: objects with data_ptr(), get_device()
// and dtype (each type is checked once). On a GPU they pass by address.
bool isTensorLike(PyObject *object);
// A framework's dtype object ("torch.float16") as a DType, learned once per object.
std::optional<DType> tensorDType(py::handle dtypeObject);
// The GPU a framework numbers `ordinal`: cuda:ordinal, else hip:ordinal.
Device gpuDevice(int64_t ordinal);

void bindErrors(py::module_ &m);
void bindDTypes(py::module_ &m);
void bindDevices(py::module_ &m);
void bindBuffers(py::module_ &m);
void bindKernels(py::module_ &m);

} // namespace trident::python
