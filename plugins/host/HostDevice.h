#pragma once
// The host plugin's compiler, modules and launch (HostLaunch.cpp); its devices,
// memory, streams and events are the SDK's host-memory devices (trident/sdk/HostDevices.h).

#include "trident/plugin.h"
#include "trident/sdk/HostDevices.h"
#include "trident/sdk/Status.h"

namespace trident::host {

using sdk::fail;
using sdk::guarded;

trident_status hostSupportsTarget(trident_context ctx, const char *target);
trident_status hostCompile(trident_context ctx, const char *target, const char *ir, size_t size, const char *kernel,
                           const trident_compile_options *options, trident_binary *out);
trident_status hostBinaryRelease(trident_context ctx, trident_binary *binary);
trident_status hostModuleLoad(trident_device device, const void *binary, size_t size, trident_module *out);
trident_status hostModuleUnload(trident_module module);
trident_status hostModuleGetKernel(trident_module module, const char *name, trident_kernel *out);
trident_status hostLaunch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params);
} // namespace trident::host
