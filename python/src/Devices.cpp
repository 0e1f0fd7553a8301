// trident.Device, trident.Stream, trident.Event, and the current device and
// stream (per thread, as torch keeps them): `with trident.device("vulkan:0"):`
// and `with trident.stream(s):` push onto them.

#include "Bindings.h"

#include <pybind11/stl.h>

#include <mutex>

namespace trident::python {

namespace {

thread_local std::vector<Device> deviceStack;
thread_local Device chosenDevice; // set_device
thread_local std::vector<Stream> streamStack;

std::string uuidOf(const Device &d) { return d.info().uuidString(); }

} // namespace

Device currentDevice() {
  if (!deviceStack.empty())
    return deviceStack.back();
  if (chosenDevice)
    return chosenDevice;
  return Runtime::get().defaultDevice();
}

std::optional<Stream> selectedStream(const Device &device) {
  for (size_t i = streamStack.size(); i-- > 0;)
    if (streamStack[i].device() == device)
      return streamStack[i];
  return std::nullopt;
}

Stream currentStream(const Device &device) {
  if (std::optional<Stream> s = selectedStream(device))
    return *s;
  return device.defaultStream();
}

Stream legacyStream(const Device &device) {
  static std::mutex mutex;
  static auto *streams = new std::vector<Stream>(); // lives as long as the process
  std::lock_guard lock(mutex);
  for (const Stream &s : *streams)
    if (s.device() == device)
      return s;
  streams->push_back(Stream::import(device, nullptr));
  return streams->back();
}

Device toDevice(py::handle object) {
  if (object.is_none())
    return currentDevice();
  if (py::isinstance<Device>(object))
    return object.cast<Device>();
  if (py::isinstance<py::str>(object)) {
    std::string name = object.cast<std::string>();
    // torch-style names: "cuda" is cuda:0, "cpu" is the host interpreter.
    if (name == "cpu")
      name = "host:0";
    else if (name == "cuda" || name == "hip" || name == "vulkan" || name == "host")
      name += ":0";
    return Runtime::get().device(name);
  }
  throw Error(ErrorCode::InvalidArgument,
              "expected a device (trident.Device or a name such as 'vulkan:0'), got " +
                  std::string(py::str(py::repr(object))));
}

void bindDevices(py::module_ &m) {
  py::class_<Device>(m, "Device", "A device of a loaded plugin: host:0, cuda:0, vulkan:0, ...")
      .def(py::init([](py::handle o) { return toDevice(o); }), py::arg("name"))
      .def_property_readonly("name", &Device::name)
      .def_property_readonly("plugin", &Device::plugin)
      .def_property_readonly("type", &Device::plugin) // torch.device.type
      .def_property_readonly("index", &Device::ordinal)
      .def_property_readonly("ordinal", &Device::ordinal)
      .def_property_readonly("vendor_name", [](const Device &d) { return d.info().name; })
      .def_property_readonly("target", [](const Device &d) { return d.info().target; })
      .def_property_readonly("uuid", &uuidOf)
      .def_property_readonly("warp_size", [](const Device &d) { return d.info().warpSize; })
      .def_property_readonly("multiprocessors", [](const Device &d) { return d.info().multiprocessors; })
      .def_property_readonly("max_threads_per_program",
                             [](const Device &d) { return d.info().maxThreadsPerProgram; })
      .def_property_readonly("max_grid", [](const Device &d) { return d.info().maxGrid; })
      .def_property_readonly("shared_memory", [](const Device &d) { return d.info().sharedMemoryPerProgram; })
      .def_property_readonly("memory", [](const Device &d) { return d.info().globalMemory; })
      .def_property_readonly("is_gpu", [](const Device &d) { return d.info().isGpu; })
      .def_property_readonly(
          "host_memory", [](const Device &d) { return d.info().hostMemory; },
          "whether device addresses are host addresses (numpy arrays are used in place)")
      .def(
          "synchronize",
          [](const Device &d) {
            py::gil_scoped_release release;
            d.synchronize();
          },
          "waits for all work on every stream of this device")
      .def("default_stream", &Device::defaultStream)
      .def("__enter__",
           [](const Device &d) {
             deviceStack.push_back(d);
             return d;
           })
      .def("__exit__",
           [](const Device &, py::args) {
             if (!deviceStack.empty())
               deviceStack.pop_back();
           })
      .def("__eq__",
           [](const Device &a, py::handle b) {
             try {
               return a == toDevice(b);
             } catch (const Error &) {
               return false;
             }
           })
      .def("__hash__", [](const Device &d) { return std::hash<std::string>()(d.name()); })
      .def("__str__", &Device::name)
      .def("__repr__", [](const Device &d) { return "trident.device('" + d.name() + "')"; });

  m.def(
      "device", [](py::handle o) { return toDevice(o); }, py::arg("name") = py::none(),
      "a device by name ('vulkan:0', 'host:0', 'cuda', UUID, target or 'default'); also a context "
      "manager that makes it the current device");
  m.def(
      "devices", []() { return Runtime::get().devices(); }, "every device of every loaded plugin");
  m.def("current_device", &currentDevice);
  m.def(
      "default_device", []() { return Runtime::get().defaultDevice(); },
      "the first GPU in the order cuda, hip, vulkan, else host:0 (TRIDENT_DEVICE overrides it)");
  m.def(
      "set_device", [](py::handle o) { chosenDevice = o.is_none() ? Device() : toDevice(o); },
      "makes a device current for this thread outside any `with trident.device(...)`");
  m.def(
      "synchronize",
      [](py::handle o) {
        Device d = toDevice(o);
        py::gil_scoped_release release;
        d.synchronize();
      },
      py::arg("device") = py::none(), "waits for all work on the device (default: the current one)");
  m.def(
      "plugins",
      []() {
        py::list out;
        for (const PluginReport &p : Runtime::get().plugins()) {
          py::dict d;
          d["path"] = p.path;
          d["name"] = p.name;
          d["version"] = p.version;
          d["loaded"] = p.loaded;
          d["reason"] = p.reason;
          d["devices"] = p.deviceCount;
          out.append(d);
        }
        return out;
      },
      "what happened to each plugin file found: loaded or skipped, and why");

  py::class_<Stream>(m, "Stream", "An in-order queue of copies and launches on one device")
      .def(py::init([](py::handle d) { return Stream(toDevice(d)); }), py::arg("device") = py::none())
      .def_static(
          "from_native",
          [](py::handle device, uint64_t handle) {
            return Stream::import(toDevice(device), reinterpret_cast<void *>(handle));
          },
          py::arg("device"), py::arg("handle"),
          "wraps a native stream the caller keeps owning (a CUstream or hipStream_t as an int, e.g. "
          "torch.cuda.current_stream().cuda_stream; 0 is the legacy default stream)")
      .def_property_readonly("device", &Stream::device)
      .def("synchronize",
           [](const Stream &s) {
             py::gil_scoped_release release;
             s.synchronize();
           })
      .def("wait_event",
           [](const Stream &s, const Event &e) {
             py::gil_scoped_release release;
             s.wait(e);
           })
      .def(
          "record_event",
          [](const Stream &s, py::handle event) {
            Event e = event.is_none() ? Event(s.device()) : event.cast<Event>();
            e.record(s);
            return e;
          },
          py::arg("event") = py::none())
      .def("__enter__",
           [](const Stream &s) {
             streamStack.push_back(s);
             return s;
           })
      .def("__exit__",
           [](const Stream &, py::args) {
             if (!streamStack.empty())
               streamStack.pop_back();
           })
      .def("__eq__", [](const Stream &a, const Stream &b) { return a == b; })
      .def("__repr__", [](const Stream &s) { return "<trident.Stream on " + s.device().name() + ">"; });
  m.def(
      "stream",
      [](py::handle s) {
        if (s.is_none())
          return currentStream(currentDevice());
        return s.cast<Stream>();
      },
      py::arg("stream") = py::none(),
      "the current stream (no argument), or a stream to use as a context manager");
  m.def(
      "current_stream", [](py::handle d) { return currentStream(toDevice(d)); },
      py::arg("device") = py::none());

  py::class_<Event>(m, "Event", "A point in a stream, to wait for or to time work between two of them")
      .def(py::init([](py::handle d) { return Event(toDevice(d)); }), py::arg("device") = py::none())
      .def_property_readonly("device", &Event::device)
      .def(
          "record",
          [](const Event &e, py::handle stream) {
            e.record(stream.is_none() ? currentStream(e.device()) : stream.cast<Stream>());
            return e;
          },
          py::arg("stream") = py::none())
      .def("synchronize",
           [](const Event &e) {
             py::gil_scoped_release release;
             e.synchronize();
           })
      .def(
          "elapsed_time",
          [](const Event &start, const Event &end) {
            py::gil_scoped_release release;
            return Event::elapsedMs(start, end);
          },
          py::arg("end"), "milliseconds from this event to `end` (both recorded on one device)");
}

} // namespace trident::python
