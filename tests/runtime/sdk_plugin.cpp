// A plugin built on the plugin SDK (plugins/common) the way docs/plugin-sdk.md says,
// once per case of the ABI's conformance tests (plugin_loader_test.cpp, "plugins built
// on the SDK"); SDK_NAME names it, one of these picks the case:
//   SDK_OK          host-memory devices (sdk::initHostDevices, sdk::fillHostDeviceApi), no compiler
//   SDK_BAD_MAJOR   answers with another ABI major version
//   SDK_SHORT_TABLE a table too short to hold the required device_count
//   SDK_OLD_TABLE   the table of ABI 1.0 (ends before stream_import)
//   SDK_INIT_FAILS  init fails with sdk::fail's message

#include "trident/Version.h"
#include "trident/sdk/HostDevices.h"
#include "trident/sdk/Status.h"

#include <cstddef>
#include <cstdio>

namespace {

using namespace trident;

trident_status init(const trident_init_params *, trident_context *out) {
#ifdef SDK_INIT_FAILS
  (void)out;
  return sdk::fail(TRIDENT_ERROR_UNAVAILABLE, SDK_NAME ": the pretend driver libsdkdriver.so.1 is not installed");
#else
  return sdk::initHostDevices({SDK_NAME, "TRIDENT_SDK_STUB_DEVICES", "TRIDENT_SDK_STUB_THREADS"}, out);
#endif
}

trident_status deviceProps(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  trident_device_props p;
  if (trident_status s = sdk::baseDeviceProps(ctx, ordinal, p))
    return s;
  std::snprintf(p.name, sizeof p.name, "SDK stub (%s)", SDK_NAME);
  std::snprintf(p.target, sizeof p.target, "sdk-stub");
  p.max_threads_per_program = 1;
  p.shared_memory_per_program = 0;
  sdk::writeDeviceProps(p, props);
  return TRIDENT_SUCCESS;
}

const trident_plugin_api api = [] {
  trident_plugin_api a{};
  sdk::fillHostDeviceApi(a);
  a.init = init;
  a.device_props = deviceProps;
#ifdef SDK_SHORT_TABLE
  a.struct_size = offsetof(trident_plugin_api, device_count);
#endif
#ifdef SDK_OLD_TABLE
  a.struct_size = offsetof(trident_plugin_api, stream_import); // the SDK filled them; the runtime must not read them
#endif
  return a;
}();

#ifdef SDK_BAD_MAJOR
constexpr uint32_t kMajor = TRIDENT_PLUGIN_ABI_MAJOR + 1;
#else
constexpr uint32_t kMajor = TRIDENT_PLUGIN_ABI_MAJOR;
#endif
#ifdef SDK_OLD_TABLE
constexpr uint32_t kMinor = 0;
#else
constexpr uint32_t kMinor = TRIDENT_PLUGIN_ABI_MINOR;
#endif

const trident_plugin_info info = {sizeof(trident_plugin_info), kMajor, kMinor, SDK_NAME, TRIDENT_VERSION_STRING, &api};

} // namespace

extern "C" TRIDENT_PLUGIN_EXPORT const trident_plugin_info *trident_plugin_entry(uint32_t, uint32_t) {
  return &info;
}
