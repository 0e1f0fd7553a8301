#pragma once
// The driver-API glue of plugins whose drivers are shaped like CUDA's (the CUDA and
// HIP plugins), written once over a small table of the driver's calls: devices that
// are opened and made current, memory with its out-of-memory messages, copies, fills,
// peer copies, streams, events and synchronization, each driver result turned into a
// status the same way. The plugin writes what is its vendor's: loading the driver
// (its loader fills the sdk::GpuCalls with the entry points it resolves), making a
// device current, opening it, its device props, modules and launches.
//
//   const sdk::GpuDriver &gpu();   // names, result codes, hooks, &driver().calls
//   trident_status init(const trident_init_params *, trident_context *out) {
//     auto ctx = std::make_unique<sdk::GpuContext>(gpu());
//     ... ctx->devices.push_back(std::make_unique<MyDevice>(...));
//     *out = sdk::toHandle(ctx.release());
//   }
//   sdk::fillGpuDriverApi(api, /*peerAccess=*/true);   // devices, memory, streams, events
//   api.init = init; api.device_props = ...; api.compile = ...; api.launch = ...;
//
// Handles are the SDK's objects: trident_context is a GpuContext, trident_device a
// GpuDevice (the plugin's own device type derives from it), trident_stream a
// GpuStream and trident_event a GpuEvent.

#include "trident/plugin.h"
#include "trident/sdk/GpuModules.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace trident::sdk {

using GpuResult = int;    // CUresult, hipError_t: 0 is success
using GpuPtr = uint64_t;  // CUdeviceptr, hipDeviceptr_t: 64 bits either way
using GpuHandle = void *; // CUstream, CUevent, hipStream_t, hipEvent_t
static_assert(sizeof(void *) == sizeof(GpuPtr), "device addresses are passed as 64-bit words");

struct GpuDevice;

// One entry point of the driver and its name, which messages quote ("cuMemAlloc").
template <class Signature> struct GpuCall {
  const char *name = "";
  Signature *fn = nullptr;
};

// The driver's calls the SDK makes. Most are the driver's entry points themselves,
// declared by their ABI (addresses are 64-bit words, streams and events opaque
// pointers: HIP's hipDeviceptr_t is a pointer, which the x86-64 and AArch64 calling
// conventions pass as they pass a 64-bit integer), so a loader stores what it
// resolves unchanged; the few whose shapes differ between drivers (peer copies, and
// one of the event creations) are the plugin's adapters. Each call is made with the
// device current on the thread.
struct GpuCalls {
  GpuCall<GpuResult()> synchronize; // the current device
  GpuCall<GpuResult(GpuPtr *, size_t)> alloc;
  GpuCall<GpuResult(size_t *free, size_t *total)> memInfo; // optional: what an out-of-memory message says
  GpuCall<GpuResult(GpuPtr)> free;
  GpuCall<GpuResult(GpuPtr dst, const void *src, size_t, GpuHandle stream)> copyHtoD;
  GpuCall<GpuResult(void *dst, GpuPtr src, size_t, GpuHandle stream)> copyDtoH;
  GpuCall<GpuResult(GpuPtr dst, GpuPtr src, size_t, GpuHandle stream)> copyDtoD;
  GpuCall<GpuResult(GpuPtr, unsigned char, size_t count, GpuHandle stream)> fill8;
  GpuCall<GpuResult(GpuPtr, unsigned short, size_t count, GpuHandle stream)> fill16;
  GpuCall<GpuResult(GpuPtr, unsigned, size_t count, GpuHandle stream)> fill32;
  GpuCall<GpuResult(GpuHandle *, unsigned flags)> streamCreate;
  GpuCall<GpuResult(GpuHandle)> streamDestroy;
  GpuCall<GpuResult(GpuHandle)> streamSynchronize;
  GpuCall<GpuResult(GpuHandle stream, GpuHandle event, unsigned flags)> streamWaitEvent;
  GpuCall<GpuResult(GpuHandle *)> eventCreate;
  GpuCall<GpuResult(GpuHandle)> eventDestroy;
  GpuCall<GpuResult(GpuHandle event, GpuHandle stream)> eventRecord;
  GpuCall<GpuResult(GpuHandle)> eventSynchronize;
  GpuCall<GpuResult(float *ms, GpuHandle start, GpuHandle end)> eventElapsed;
  // Peer access, where the plugin decides it (fillGpuDriverApi's `peerAccess`): whether
  // `device` (GpuDevice::native) may read `peer`'s memory, and enabling that with
  // `device` current.
  GpuCall<GpuResult(int *can, int device, int peer)> canAccessPeer;
  GpuCall<GpuResult(GpuDevice &device, GpuDevice &peer)> enablePeer;
  // A copy from `src` of `srcDevice` to `dst` of the stream's device `dstDevice`.
  GpuCall<GpuResult(GpuPtr dst, GpuDevice &dstDevice, GpuPtr src, GpuDevice &srcDevice, size_t,
                    GpuHandle stream)>
      copyPeer;
};

// What the SDK knows of a driver: names in messages, result codes, the plugin's hooks
// for its devices, and its calls.
struct GpuDriver {
  const char *api = "";             // "CUDA": "no CUDA device 3", "CUDA device 0 is not open"
  const char *plugin = "";          // "cuda": "... requested on cuda:0"
  const char *library = "";         // "driver": "the driver does not say how much is free"
  GpuResult outOfMemory = 0;        // alloc's result when the memory is not there
  GpuResult peerAlreadyEnabled = 0; // enablePeer's result when it already is (not an error)
  unsigned streamFlags = 0;         // streamCreate's flags (non-blocking streams)
  // The driver's name and message for a result ("CUDA_ERROR_OUT_OF_MEMORY: out of memory").
  std::string (*describe)(GpuResult) = nullptr;
  // Results a kernel fault leaves behind (sticky: the device's context is lost): Launch
  // errors wherever they surface. Optional.
  bool (*kernelFault)(GpuResult) = nullptr;
  // Makes the device current on the calling thread (required).
  trident_status (*makeCurrent)(GpuDevice &) = nullptr;
  // Each device_open, with the context's mutex held, `first` when the device was not
  // open; a failure leaves the device as it was. Optional.
  trident_status (*open)(GpuDevice &, bool first) = nullptr;
  // The last device_close (or shutdown with the device still open), mutex held. Optional.
  void (*close)(GpuDevice &) = nullptr;
  const GpuCalls *calls = nullptr;

  // SUCCESS, or the failure of `what` ("what failed: <describe>"): Launch for a kernel
  // fault, Device otherwise.
  trident_status check(GpuResult r, const std::string &what) const;
};

struct GpuContext;

struct GpuDevice {
  virtual ~GpuDevice() = default;
  GpuContext *context = nullptr;
  uint32_t ordinal = 0; // the plugin's
  int native = 0;       // the driver's (CUdevice, HIP's device ordinal)
  int opens = 0;        // guarded by the context's mutex
  ImportTable imported; // what mem_import made usable
  // Peer access from this device to others, by their ordinal: true when enabled, false
  // when the driver refuses the pair. Guarded by the context's mutex; forgotten when
  // either device is closed for the last time.
  std::map<uint32_t, bool> peers;
};

struct GpuStream {
  GpuDevice *device = nullptr;
  GpuHandle native = nullptr;
  bool owned = true; // false for imported streams
};

struct GpuEvent {
  GpuDevice *device = nullptr;
  GpuHandle native = nullptr;
};

struct GpuContext {
  explicit GpuContext(const GpuDriver &d) : driver(d) {}
  const GpuDriver &driver;
  std::mutex mutex;
  std::string reason; // why there are no devices
  std::vector<std::unique_ptr<GpuDevice>> devices;
};

inline trident_context toHandle(GpuContext *c) { return reinterpret_cast<trident_context>(c); }
inline GpuContext &gpuContext(trident_context c) { return *reinterpret_cast<GpuContext *>(c); }
inline GpuDevice &gpuDevice(trident_device d) { return *reinterpret_cast<GpuDevice *>(d); }
inline GpuStream &gpuStream(trident_stream s) { return *reinterpret_cast<GpuStream *>(s); }
inline GpuEvent &gpuEvent(trident_event e) { return *reinterpret_cast<GpuEvent *>(e); }

// Device `ordinal` of the context, or NOT_FOUND ("no CUDA device 3").
trident_status findGpuDevice(trident_context ctx, uint32_t ordinal, GpuDevice **out);
// Sets shutdown, the device entries but device_props, memory, copies, fills, peer
// copies (device_peer_access too with `peerAccess`: the driver's canAccessPeer and
// enablePeer decide; without, memcpy_peer copies directly), streams, events and imports.
void fillGpuDriverApi(trident_plugin_api &api, bool peerAccess);

} // namespace trident::sdk
