// The host plugin: the always-present device, backed by the reference
// interpreter. Device memory is host memory, every operation runs when it is
// enqueued (streams are trivially in order), and launches spread program
// instances over a pool of threads, one per core. Devices, memory, streams and
// events come from the plugin SDK (trident/sdk/HostDevices.h).
//
// TRIDENT_HOST_DEVICES=N exposes N host devices (default 1) that share the
// thread pool but not their memory: tests of several devices run anywhere.
// TRIDENT_HOST_THREADS=N sets the pool's size (default: the number of cores).

#include "HostDevice.h"
#include "trident/Version.h"

#include <cstdio>

namespace trident::host {

namespace {

trident_status init(const trident_init_params *, trident_context *out) {
  return sdk::initHostDevices({"host", "TRIDENT_HOST_DEVICES", "TRIDENT_HOST_THREADS"}, out);
}

trident_status deviceProps(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  trident_device_props p;
  if (trident_status s = sdk::baseDeviceProps(ctx, ordinal, p))
    return s;
  std::snprintf(p.name, sizeof p.name, "Trident host interpreter (%u threads)", p.multiprocessor_count);
  std::snprintf(p.target, sizeof p.target, "host");
  p.shared_memory_per_program = 0;
  sdk::writeDeviceProps(p, props);
  return TRIDENT_SUCCESS;
}

const trident_plugin_api api = [] {
  trident_plugin_api a{};
  sdk::fillHostDeviceApi(a);
  a.init = init;
  a.device_props = deviceProps;
  a.supports_target = hostSupportsTarget;
  a.compile = hostCompile;
  a.binary_release = hostBinaryRelease;
  a.module_load = hostModuleLoad;
  a.module_unload = hostModuleUnload;
  a.module_get_kernel = hostModuleGetKernel;
  a.launch = hostLaunch;
  return a;
}();

const trident_plugin_info info = {sizeof(trident_plugin_info), TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR,
                                  "host", TRIDENT_VERSION_STRING, &api};

} // namespace

} // namespace trident::host

extern "C" TRIDENT_PLUGIN_EXPORT const trident_plugin_info *trident_plugin_entry(uint32_t, uint32_t) {
  return &trident::host::info;
}
