// trident._C.JitKernel, the base of trident.JITFunction: `kernel[grid](*args, **kwargs)`
// binds Python arguments to the kernel's parameters as Triton does and launches
// through the C++ runtime. The whole launch path is here, in C++, so that a warm
// launch costs a few microseconds of Python on top of the runtime's own path.
//
// Arguments (docs/python.md): trident.Buffer; numpy arrays and other buffer-protocol
// objects (in place on host-memory devices, else copied to the device and back);
// objects with __dlpack__ (in place on their CUDA/ROCm device, or as host memory);
// int/float/bool with Triton's typing; None; dtypes and strings for tl.constexpr.

#include "Bindings.h"

#include <pybind11/stl.h>

#include <array>
#include <deque>
#include <memory>

namespace trident::python {

namespace {

struct JitKernel {
  std::string name;
  std::string fileName;
  bool debug = false;
  Kernel kernel; // read from the source on first use
  std::vector<py::object> paramNames;
  std::vector<bool> isConstexpr;

  void ensureLoaded(py::handle self) {
    if (kernel)
      return;
    // The Python subclass supplies the source text (it reads and adapts the file).
    std::string source = self.attr("_source")().cast<std::string>();
    Kernel k = Kernel::fromSource(std::move(source), name, fileName);
    paramNames.clear();
    isConstexpr.clear();
    for (size_t i = 0; i < k.numParams(); ++i) {
      py::str s(k.paramName(i));
      PyUnicode_InternInPlace(&s.ptr());
      paramNames.push_back(s);
      isConstexpr.push_back(k.paramIsConstexpr(i));
    }
    kernel = std::move(k);
  }

  std::string paramList() const {
    std::string s;
    for (size_t i = 0; i < paramNames.size(); ++i)
      s += (i ? ", " : "") + paramNames[i].cast<std::string>() + (isConstexpr[i] ? ": tl.constexpr" : "");
    return s;
  }

  // The index of the parameter called `key`, or -1.
  int64_t paramIndex(PyObject *key) const {
    for (size_t i = 0; i < paramNames.size(); ++i)
      if (paramNames[i].ptr() == key)
        return int64_t(i);
    for (size_t i = 0; i < paramNames.size(); ++i)
      if (PyUnicode_Compare(paramNames[i].ptr(), key) == 0)
        return int64_t(i);
    if (PyErr_Occurred())
      PyErr_Clear();
    return -1;
  }

  [[noreturn]] void badArgument(size_t i, const std::string &why) const {
    throw Error(ErrorCode::InvalidArgument, "argument " + std::to_string(i) + " ('" +
                                                paramNames[i].cast<std::string>() + "') of kernel '" + name +
                                                "': " + why);
  }
};

// The view of a launch's values that a grid function gets, as Triton's `meta`:
// integer values (given, defaults, autotuned, computed by heuristics) and the
// Python objects the launch passed. Valid only during the call.
struct MetaView {
  const JitKernel *kernel = nullptr;
  const Meta *meta = nullptr;
  PyObject *const *slots = nullptr;
  bool valid = false;

  py::object get(const py::str &key, bool raise) const {
    if (!valid)
      throw Error(ErrorCode::InvalidArgument, "a grid function's meta argument is used after the launch");
    int64_t i = kernel->paramIndex(key.ptr());
    if (i >= 0) {
      std::string name = key;
      if (std::optional<int64_t> v = meta->get(name))
        return py::int_(*v);
      if (slots[i])
        return py::reinterpret_borrow<py::object>(slots[i]);
    }
    if (raise)
      throw py::key_error(key);
    return py::none();
  }
};

// Thrown through the runtime when a grid function raised; the Python error stays set.
struct PythonErrorInGrid {};

enum class Mode { Launch, Warmup, BlockIR };

std::array<int64_t, 64> filled(int64_t v) {
  std::array<int64_t, 64> a;
  a.fill(v);
  return a;
}

// Host memory a launch uses: in place on a host-memory device (imported for the
// length of the launch), else through a device buffer copied in and out.
struct HostArgument {
  std::unique_ptr<HostView> view;
  Buffer device; // the import or the staging buffer
  bool staged = false;
};

class Launch {
public:
  Launch(const JitKernel &k, py::handle grid, py::args args, py::kwargs kwargs, Mode mode)
      : k_(k), grid_(grid), mode_(mode), args_(std::move(args)), kwargs_(std::move(kwargs)) {
    size_t n = k.paramNames.size();
    if (args_.size() > n)
      throw Error(ErrorCode::InvalidArgument,
                  "kernel '" + k.name + "' takes " + std::to_string(n) + " parameters (" + k.paramList() +
                      ") but the launch passes " + std::to_string(args_.size()) + " arguments");
    for (size_t i = 0; i < args_.size(); ++i)
      slots_[i] = args_[i].ptr();
    options_.debug = k.debug;
    for (auto [key, value] : kwargs_)
      keyword(key.ptr(), value);
  }

  py::object run() {
    pickDevice();
    size_t n = k_.paramNames.size();
    std::vector<Arg> args;
    args.reserve(n);
    size_t gap = n;
    for (size_t i = 0; i < n; ++i) {
      if (!slots_[i]) {
        gap = std::min(gap, i);
        continue;
      }
      if (i > gap) {
        if (!k_.isConstexpr[i])
          k_.badArgument(i, "it is given but parameter '" + k_.paramNames[gap].cast<std::string>() +
                                "' before it is not; pass that one too (runtime parameters bind in order)");
        options_.constexprs.emplace_back(k_.paramNames[i].cast<std::string>(), constexprValue(i));
        continue;
      }
      args.push_back(argument(i));
    }
    if (mode_ != Mode::Launch) {
      std::string ir;
      {
        py::gil_scoped_release release;
        try {
          if (mode_ == Mode::BlockIR)
            ir = k_.kernel.blockIR(device_, args, options_);
          else
            k_.kernel.warmup(device_, args, options_);
        } catch (...) {
          finishHostMemory(false);
          throw;
        }
        finishHostMemory(false); // staging copies were enqueued: let them finish before the buffers go
      }
      return mode_ == Mode::BlockIR ? py::object(py::str(ir)) : py::object(py::none());
    }
    launch(args);
    return py::none();
  }

private:
  void keyword(PyObject *key, py::handle value) {
    int64_t i = k_.paramIndex(key);
    if (i >= 0) {
      if (slots_[i])
        k_.badArgument(size_t(i), "given twice, positionally and by name");
      slots_[i] = value.ptr();
      return;
    }
    std::string name = py::reinterpret_borrow<py::str>(key);
    if (name == "num_warps") {
      options_.numWarps = value.is_none() ? 0 : value.cast<int>();
    } else if (name == "num_stages") {
      options_.numStages = value.is_none() ? 0 : value.cast<int>();
    } else if (name == "debug") {
      options_.debug = options_.debug || value.cast<bool>();
    } else if (name == "stream") {
      if (!value.is_none())
        stream_ = value.cast<Stream>();
    } else if (name == "device") {
      if (!value.is_none())
        device_ = toDevice(value);
    } else if (name == "num_ctas") {
      if (!value.is_none() && value.cast<int>() != 1)
        throw Error(ErrorCode::NotSupported,
                    "kernel '" + k_.name + "': Trident launches one CTA per program (num_ctas=1)");
    } else if (name == "enable_fp_fusion" || name == "maxnreg" || name == "num_buffers_warp_spec" ||
               name == "num_consumer_groups" || name == "reg_dec_producer" || name == "reg_inc_consumer") {
      // Triton's backend tuning knobs: accepted, without effect here.
    } else {
      throw Error(ErrorCode::InvalidArgument, "kernel '" + k_.name + "' has no parameter named '" + name +
                                                  "' (its parameters: " + k_.paramList() +
                                                  "; launch options: num_warps, num_stages, stream, debug)");
    }
  }

  // The launch's device: the stream's, else the first Trident buffer's or device
  // tensor's (DLPack), else the current device.
  void pickDevice() {
    if (stream_) {
      if (device_ && device_ != stream_.device())
        throw Error(ErrorCode::InvalidArgument, "kernel '" + k_.name + "': the stream is on " +
                                                    stream_.device().name() + " but device= names " +
                                                    device_.name());
      device_ = stream_.device();
      return;
    }
    bool fromTensor = false; // the device is a DLPack tensor's
    if (!device_) {
      for (size_t i = 0; i < k_.paramNames.size() && !device_; ++i) {
        PyObject *o = slots_[i];
        if (!o || k_.isConstexpr[i])
          continue;
        if (isDescriptorLike(o)) { // its base decides
          descriptorBases_.push_back(py::handle(o).attr("base"));
          o = descriptorBases_.back().ptr();
        }
        if (py::isinstance<PyBuffer>(o)) {
          device_ = py::handle(o).cast<const PyBuffer &>().buffer.device();
        } else if (!PyObject_CheckBuffer(o) && isTensorLike(o)) {
          int64_t n = py::handle(o).attr("get_device")().cast<int64_t>();
          ordinals_[i] = n;
          if (n >= 0) {
            device_ = gpuDevice(n);
            fromTensor = true;
          }
        } else if (!PyObject_CheckBuffer(o) && PyObject_HasAttrString(o, "__dlpack_device__") == 1) {
          py::tuple d = py::handle(o).attr("__dlpack_device__")();
          if (std::optional<Device> dev = deviceOfDLPack(d[0].cast<int32_t>(), d[1].cast<int32_t>())) {
            device_ = *dev;
            fromTensor = true;
          }
        }
      }
    }
    if (!device_)
      device_ = currentDevice();
    if (std::optional<Stream> s = selectedStream(device_))
      stream_ = *s;
    else
      stream_ = fromTensor ? legacyStream(device_) : device_.defaultStream();
  }

  Constexpr constexprValue(size_t i) {
    py::handle o = slots_[i];
    if (o.is_none())
      return Constexpr::source("None");
    if (PyBool_Check(o.ptr()))
      return Constexpr(o.ptr() == Py_True);
    if (PyLong_Check(o.ptr()))
      return Constexpr(o.cast<int64_t>());
    if (PyFloat_Check(o.ptr()))
      return Constexpr(PyFloat_AS_DOUBLE(o.ptr()));
    if (PyUnicode_Check(o.ptr()))
      return Constexpr::string(o.cast<std::string>());
    if (py::isinstance<PyDType>(o))
      return Constexpr::source(std::string("tl.") + languageName(o.cast<const PyDType &>().type));
    if (PyObject_HasAttrString(o.ptr(), "value") == 1 &&
        std::string(Py_TYPE(o.ptr())->tp_name) == "constexpr") {
      slots_[i] = o.attr("value").ptr(); // trident.language.constexpr(v); the object keeps v alive
      return constexprValue(i);
    }
    if (PyType_Check(o.ptr()) || std::string(Py_TYPE(o.ptr())->tp_name).find("dtype") != std::string::npos) {
      try {
        return Constexpr::source(std::string("tl.") + languageName(toDType(o)));
      } catch (const Error &) {
      }
    }
    k_.badArgument(i, "the parameter is tl.constexpr: pass an int, float, bool, str, dtype or None, not " +
                          std::string(Py_TYPE(o.ptr())->tp_name));
  }

  Arg argument(size_t i) {
    PyObject *o = slots_[i];
    if (k_.isConstexpr[i]) {
      constexprs_[i].emplace(constexprValue(i));
      return Arg(*constexprs_[i]);
    }
    if (py::isinstance<PyBuffer>(o))
      return Arg(py::handle(o).cast<const PyBuffer &>().buffer);
    if (isDescriptorLike(o))
      return descriptorArgument(i, o);
    if (PyBool_Check(o))
      return Arg(o == Py_True);
    if (PyLong_Check(o))
      return intArg(o);
    if (PyFloat_Check(o))
      return Arg(float(PyFloat_AS_DOUBLE(o)));
    if (o == Py_None) {
      constexprs_[i].emplace(Constexpr::source("None"));
      return Arg(*constexprs_[i]);
    }
    auto view = std::make_unique<HostView>();
    if (getHostView(o, *view, false)) {
      if (view->view.ndim == 0)
        return scalarArg(*view);
      return hostMemory(std::move(view));
    }
    if (isTensorLike(o)) {
      py::handle t(o);
      int64_t n = ordinals_[i] != kUnknownOrdinal ? ordinals_[i] : t.attr("get_device")().cast<int64_t>();
      if (n >= 0)
        return gpuTensorArgument(i, t, n);
    }
    if (hasDLPack(o))
      return dlpackArgument(i, o);
    if (py::isinstance<PyDType>(o))
      k_.badArgument(i, "a dtype is a tl.constexpr value, and this parameter is not tl.constexpr");
    k_.badArgument(i,
                   std::string("cannot pass an object of type ") + Py_TYPE(o)->tp_name +
                       " (pass a trident.Buffer, a numpy array, a DLPack tensor, a number, a bool or None)");
  }

  // trident.TensorDescriptor, or any object with Triton's TensorDescriptor fields (base,
  // shape, strides, block_shape, padding): triton.tools.tensor_descriptor's included.
  static bool isDescriptorLike(PyObject *o) {
    return !PyObject_CheckBuffer(o) && PyObject_HasAttrString(o, "base") == 1 &&
           PyObject_HasAttrString(o, "block_shape") == 1 && PyObject_HasAttrString(o, "shape") == 1 &&
           PyObject_HasAttrString(o, "strides") == 1;
  }

  Arg descriptorArgument(size_t i, PyObject *o) {
    py::handle d(o);
    if (PyObject_HasAttrString(o, "padding") == 1) {
      std::string padding = py::str(d.attr("padding"));
      if (padding != "zero")
        k_.badArgument(i, "a host tensor descriptor with padding='" + padding +
                              "' is not supported (its kernel parameter has no padding): use 'zero', or "
                              "tl.make_tensor_descriptor(..., padding_option='nan') in the kernel");
    }
    auto ints = [&](const char *name) {
      std::vector<int64_t> v;
      for (py::handle x : d.attr(name))
        v.push_back(x.cast<int64_t>());
      return v;
    };
    std::vector<int64_t> shape = ints("shape"), strides = ints("strides"), block = ints("block_shape");
    descriptorBases_.push_back(d.attr("base"));
    PyObject *saved = slots_[i];
    slots_[i] = descriptorBases_.back().ptr(); // the base converts as a pointer argument would
    Arg base = argument(i);
    slots_[i] = saved;
    if (base.kind() != Arg::Kind::Pointer)
      k_.badArgument(i, "a tensor descriptor's base must be a tensor, array or trident.Buffer");
    descriptors_.emplace_back(DevicePtr{base.bits(), base.dtype()}, std::move(shape), std::move(strides),
                              std::move(block));
    return Arg(descriptors_.back());
  }

  Arg hostMemory(std::unique_ptr<HostView> view) {
    HostArgument &h = host_.emplace_back();
    h.view = std::move(view);
    HostView &v = *h.view;
    if (v.extent == 0) // no elements: nothing to access
      return DevicePtr{reinterpret_cast<uint64_t>(v.first), v.dtype};
    size_t count = (v.extent + dtypeBytes(v.dtype) - 1) / dtypeBytes(v.dtype);
    uint64_t offset = uint64_t(v.first - v.low);
    if (device_.info().hostMemory) {
      // One import per distinct start address: the plugin keys imports by address.
      for (HostArgument &other : host_)
        if (&other != &h && other.device && other.view->low == v.low && other.view->extent >= v.extent)
          return DevicePtr{reinterpret_cast<uint64_t>(v.first), v.dtype};
      for (HostArgument &other : host_)
        if (&other != &h && other.device && other.view->low == v.low)
          other.device = Buffer(); // replaced by this larger one
      h.device = Buffer::import(device_, reinterpret_cast<uint64_t>(v.low), count, v.dtype);
      return DevicePtr{reinterpret_cast<uint64_t>(v.first), v.dtype};
    }
    h.staged = true;
    h.device = Buffer(device_, count, v.dtype);
    {
      py::gil_scoped_release release;
      h.device.copyFromHostAsync(stream_, v.low, v.extent);
    }
    return DevicePtr{h.device.address() + offset, v.dtype};
  }

  Arg gpuTensorArgument(size_t i, py::handle t, int64_t ordinal) {
    Device owner = gpuDevice(ordinal);
    if (owner != device_)
      k_.badArgument(i, "the tensor is on " + owner.name() + " but the launch is on " + device_.name() +
                            "; copy it to " + device_.name() + " first");
    std::optional<DType> dtype = tensorDType(t.attr("dtype"));
    if (!dtype)
      k_.badArgument(i,
                     "a tensor of dtype " + std::string(py::str(t.attr("dtype"))) + " has no Trident dtype");
    return DevicePtr{t.attr("data_ptr")().cast<uint64_t>(), *dtype};
  }

  Arg dlpackArgument(size_t i, PyObject *o) {
    // A CUDA producer orders its work before the consumer's stream (1: the legacy
    // default stream, which launches with tensors use unless a stream is selected).
    py::object consumerStream = py::none();
    if (device_.plugin() == "cuda" && PyObject_HasAttrString(o, "__dlpack_device__") == 1) {
      py::tuple d = py::handle(o).attr("__dlpack_device__")();
      if (d[0].cast<int32_t>() == 2)
        consumerStream = py::int_(1);
    }
    DLPackView v = getDLPack(o, consumerStream);
    std::optional<Device> owner = deviceOfDLPack(v.deviceType, v.deviceId);
    if (owner) {
      if (*owner != device_)
        k_.badArgument(i, "the tensor is on " + owner->name() + " but the launch is on " + device_.name() +
                              "; copy it to " + device_.name() + " first");
      dlpacks_.push_back(std::move(v.capsule));
      return DevicePtr{v.address, v.dtype};
    }
    // Host memory through DLPack (a torch CPU tensor): as a buffer-protocol view would be.
    auto view = std::make_unique<HostView>();
    view->dtype = v.dtype;
    view->first = reinterpret_cast<uint8_t *>(v.address);
    view->low = view->first + v.lowOffset;
    view->extent = v.extent;
    dlpacks_.push_back(std::move(v.capsule));
    return hostMemory(std::move(view));
  }

  void launch(const std::vector<Arg> &args) {
    MetaView metaView;
    metaView.kernel = &k_;
    metaView.slots = slots_.data();
    py::handle gridFn = grid_;
    bool callable = PyCallable_Check(grid_.ptr()) && !PyTuple_Check(grid_.ptr());
    {
      py::gil_scoped_release release;
      try {
        if (callable) {
          Grid grid([&](const Meta &meta) -> Dim3 {
            py::gil_scoped_acquire acquire;
            try {
              metaView.meta = &meta;
              metaView.valid = true;
              py::object m = py::cast(&metaView, py::return_value_policy::reference);
              py::object g = gridFn(m);
              metaView.valid = false;
              return toDim3(g, k_.name);
            } catch (py::error_already_set &e) {
              metaView.valid = false;
              e.restore();
              throw PythonErrorInGrid{};
            }
          });
          k_.kernel.launch(stream_, grid, args, options_);
        } else {
          Dim3 d;
          {
            py::gil_scoped_acquire acquire;
            d = toDim3(grid_, k_.name);
          }
          k_.kernel.launch(stream_, Grid(d), args, options_);
        }
      } catch (PythonErrorInGrid &) {
        finishHostMemory(false);
        py::gil_scoped_acquire acquire;
        throw py::error_already_set();
      } catch (...) {
        finishHostMemory(false);
        throw;
      }
      finishHostMemory(true);
    }
  }

  // Called without the GIL: host memory views stay valid (the views pin them).
  void finishHostMemory(bool copyBack) {
    if (host_.empty())
      return;
    stream_.synchronize();
    if (!copyBack)
      return;
    for (HostArgument &h : host_)
      if (h.staged && !h.view->view.readonly)
        h.device.copyToHostAsync(stream_, h.view->low, h.view->extent);
    stream_.synchronize();
  }

  const JitKernel &k_;
  py::handle grid_;
  Mode mode_;
  py::args args_;
  py::kwargs kwargs_;
  Device device_;
  Stream stream_;
  LaunchOptions options_;
  std::array<PyObject *, 64> slots_{};
  static constexpr int64_t kUnknownOrdinal = -2;
  std::array<int64_t, 64> ordinals_ = filled(kUnknownOrdinal); // tensors' get_device(), once asked
  std::array<std::optional<Constexpr>, 64> constexprs_;
  std::vector<HostArgument> host_;
  std::vector<py::object> dlpacks_;
  std::deque<TensorDescriptor> descriptors_; // stable: Args refer to them
  std::vector<py::object> descriptorBases_;
};

struct Launcher {
  py::object self; // the JitKernel
  py::object grid;
};

py::object call(py::handle self, py::handle grid, py::args args, py::kwargs kwargs, Mode mode) {
  JitKernel &k = self.cast<JitKernel &>();
  k.ensureLoaded(self);
  if (args.size() > 64)
    throw Error(ErrorCode::InvalidArgument, "kernel '" + k.name + "': at most 64 arguments");
  Launch launch(k, grid, std::move(args), std::move(kwargs), mode);
  return launch.run();
}

} // namespace

void bindKernels(py::module_ &m) {
  py::class_<MetaView>(m, "Meta",
                       "A launch's values by parameter name, for grid functions (as Triton's meta)")
      .def("__getitem__", [](const MetaView &v, const py::str &key) { return v.get(key, true); })
      .def(
          "get",
          [](const MetaView &v, const py::str &key, py::object fallback) {
            py::object r = v.get(key, false);
            return r.is_none() ? fallback : r;
          },
          py::arg("key"), py::arg("default") = py::none())
      .def("__contains__",
           [](const MetaView &v, const py::str &key) { return !v.get(key, false).is_none(); });

  py::class_<JitKernel>(m, "JitKernel", py::dynamic_attr(),
                        "The native base of trident.JITFunction: a @jit function of a source file")
      .def(py::init([](std::string name, std::string fileName, bool debug) {
             JitKernel k;
             k.name = std::move(name);
             k.fileName = std::move(fileName);
             k.debug = debug;
             return k;
           }),
           py::arg("name"), py::arg("file_name"), py::arg("debug") = false)
      .def_readonly("name", &JitKernel::name)
      .def_readonly("file_name", &JitKernel::fileName)
      .def_property_readonly(
          "params",
          [](py::object self) {
            JitKernel &k = self.cast<JitKernel &>();
            k.ensureLoaded(self);
            py::list out;
            for (size_t i = 0; i < k.paramNames.size(); ++i)
              out.append(py::make_tuple(k.paramNames[i], bool(k.isConstexpr[i])));
            return out;
          },
          "(name, is_constexpr) of each parameter")
      .def("__getitem__",
           [](py::object self, py::object grid) {
             return Launcher{std::move(self), std::move(grid)};
           })
      .def("run",
           [](py::object self, py::args args, py::kwargs kwargs) {
             if (!kwargs.contains("grid"))
               throw Error(ErrorCode::InvalidArgument, "run() needs grid=");
             py::object grid = kwargs["grid"];
             PyDict_DelItemString(kwargs.ptr(), "grid");
             return call(self, grid, std::move(args), std::move(kwargs), Mode::Launch);
           })
      .def(
          "warmup",
          [](py::object self, py::args args, py::kwargs kwargs) {
            if (kwargs.contains("grid"))
              PyDict_DelItemString(kwargs.ptr(), "grid");
            return call(self, py::none(), std::move(args), std::move(kwargs), Mode::Warmup);
          },
          "compiles the specialization these arguments select, without launching")
      .def(
          "block_ir",
          [](py::object self, py::args args, py::kwargs kwargs) {
            return call(self, py::none(), std::move(args), std::move(kwargs), Mode::BlockIR);
          },
          "the block IR (after the core passes) of the specialization these arguments select")
      .def(
          "_reload", [](JitKernel &k) { k.kernel = Kernel(); },
          "forgets the kernel; the next use reads the source again");

  py::class_<Launcher>(m, "Launcher")
      .def("__call__", [](const Launcher &l, py::args args, py::kwargs kwargs) {
        return call(l.self, l.grid, std::move(args), std::move(kwargs), Mode::Launch);
      });
}

} // namespace trident::python
