#include "Commands.h"

#include "trident/Runtime.h"

#include <cstdio>

namespace trident::tool {

int devicesCommand(const Args &args) {
  Options opts(args);
  opts.allowOnly({});
  Runtime &rt = Runtime::get();
  std::printf("plugins:\n");
  if (rt.plugins().empty())
    std::printf("  none found (searched lib/trident/plugins beside the runtime and TRIDENT_PLUGIN_PATH)\n");
  for (const PluginReport &p : rt.plugins()) {
    if (p.loaded && p.deviceCount > 0)
      std::printf("  %-8s loaded   %u device%s  (version %s)  %s\n", p.name.c_str(), p.deviceCount,
                  p.deviceCount == 1 ? "" : "s", p.version.c_str(), p.path.c_str());
    else if (p.loaded)
      // Without the compiler (a -DTRIDENT_ENABLE_COMPILER=OFF build) such a plugin has nothing to do.
      std::printf("  %-8s loaded, no devices: %s  (%s)  %s\n", p.name.c_str(), p.reason.c_str(),
                  hasCompiler() ? "compiling only" : "idle: this build compiles nothing", p.path.c_str());
    else
      std::printf("  %-8s skipped: %s  %s\n", p.name.c_str(), p.reason.c_str(), p.path.c_str());
  }
  for (const PluginReport &p : rt.plugins())
    if (p.loaded)
      std::printf("  %-8s build id %s\n", p.name.c_str(), p.buildId.empty() ? "(none)" : p.buildId.c_str());
  std::printf("devices:\n");
  if (rt.devices().empty())
    std::printf("  none\n");
  for (const Device &d : rt.devices()) {
    const DeviceInfo &i = d.info();
    std::printf("  %-9s %s\n", d.name().c_str(), i.name.c_str());
    std::printf("            target %s, uuid %s\n", i.target.c_str(), i.uuidString().c_str());
    std::printf("            warp size %u, %u multiprocessors, max %u threads/program, grid %u x %u x %u\n",
                i.warpSize, i.multiprocessors, i.maxThreadsPerProgram, i.maxGrid[0], i.maxGrid[1], i.maxGrid[2]);
    std::printf("            shared memory %s/program, memory %s%s\n",
                formatByteSize(i.sharedMemoryPerProgram).c_str(), formatByteSize(i.globalMemory).c_str(),
                i.isGpu ? "" : (i.hostMemory ? " (host memory)" : ""));
  }
  if (!rt.devices().empty())
    std::printf("default device: %s\n", rt.defaultDevice().name().c_str());
  std::printf("cache: %s\n", rt.cacheDir().empty() ? "disabled" : rt.cacheDir().c_str());
  return 0;
}

} // namespace trident::tool
