// The cooperative-matrix layout probe (backends/spirv CoopProbe.h) on a device: once per
// device whose driver may keep components where nvidiaCoopLayouts says (an NVIDIA GPU
// with VK_KHR_cooperative_matrix), before the compiler first describes it (a compile for
// its target) or when it is opened, whichever comes first. The probe kernel runs on one
// subgroup; where its output matches, the device's shapes get their layouts and its
// features kCoopMatrixNvidiaLayouts, so the lowering may read components and module_load
// accepts kernels that do. Anything else (another vendor, no shape with layouts, a
// failure, a mismatch, TRIDENT_VULKAN_COOP_LAYOUTS=off) leaves the device as it was: every
// cooperative matrix stays opaque. Lavapipe has no cooperative matrices: nothing runs.
// A mismatch or failure is said once on stderr.

#include "VulkanDevice.h"
#include "KernelBinary.h"

#include "trident/backends/spirv/CoopProbe.h"
#include "trident/backends/spirv/Target.h"
#include "trident/ir/Parser.h"

#include <cstdio>

namespace trident::vulkan {

namespace {

constexpr uint32_t kNvidiaVendor = 0x10de;

// The probe's output on `d` (open), or a message.
trident_status runProbe(Device &d, const spirv::CoopProbe &probe, std::vector<float> &out) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(probe.threadIR, "<coop layout probe>", diags);
  std::optional<spirv::SpirvKernel> k =
      m ? spirv::compileToSpirv(*m, spirv::CoopProbe::kKernel, d.physical->info, {}, diags) : std::nullopt;
  if (!k)
    return fail(TRIDENT_ERROR_COMPILE, "the probe does not compile: " + diags.str());
  k->interface.requiredFeatures &= ~uint64_t(spirv::kCoopMatrixNvidiaLayouts); // what it finds out
  std::vector<uint8_t> binary = encodeBinary(*k);
  trident_module module = nullptr;
  trident_kernel kernel = nullptr;
  trident_stream stream = nullptr;
  trident_devptr buffer = 0;
  size_t bytes = size_t(probe.outputFloats) * sizeof(float);
  out.assign(size_t(probe.outputFloats), -1.0f);
  trident_status s = moduleLoad(toHandle(&d), binary.data(), binary.size(), &module);
  if (s == TRIDENT_SUCCESS)
    s = moduleGetKernel(module, spirv::CoopProbe::kKernel, &kernel);
  if (s == TRIDENT_SUCCESS)
    s = memAlloc(toHandle(&d), bytes, &buffer);
  if (s == TRIDENT_SUCCESS)
    s = streamCreate(toHandle(&d), &stream);
  if (s == TRIDENT_SUCCESS) {
    trident_kernel_arg arg{TRIDENT_ARG_POINTER, 0, buffer};
    trident_launch_params params{};
    params.version = TRIDENT_LAUNCH_ABI_VERSION;
    params.grid[0] = params.grid[1] = params.grid[2] = 1;
    params.num_args = 1;
    params.args = &arg;
    s = launch(stream, kernel, &params);
  }
  if (s == TRIDENT_SUCCESS)
    s = memcpyDtoH(stream, out.data(), buffer, bytes);
  if (s == TRIDENT_SUCCESS)
    s = streamSynchronize(stream);
  std::string error = s == TRIDENT_SUCCESS ? "" : sdk::lastError();
  if (stream)
    streamDestroy(stream);
  if (buffer)
    memFree(toHandle(&d), buffer);
  if (module)
    moduleUnload(module);
  return s == TRIDENT_SUCCESS ? s : fail(s, error);
}

} // namespace

std::vector<CoopMatrixShape> coopLayoutCandidates(const PhysicalDevice &p) {
  std::vector<CoopMatrixShape> shapes = p.info.coopShapes;
  bool any = false;
  for (CoopMatrixShape &s : shapes) {
    s.layouts = p.properties.vendorID == kNvidiaVendor ? spirv::nvidiaCoopLayouts(s, p.info.subgroupSize)
                                                       : std::nullopt;
    any = any || s.layouts;
  }
  return any ? shapes : std::vector<CoopMatrixShape>{};
}

void probeCoopLayouts(Device &d) {
  PhysicalDevice &p = *d.physical;
  std::call_once(p.coopProbeOnce, [&] {
    std::vector<CoopMatrixShape> candidates = coopLayoutCandidates(p);
    std::optional<spirv::CoopProbe> probe = spirv::coopProbe(candidates, p.info.subgroupSize);
    if (!probe || !spirv::coopLayoutsWanted())
      return; // nothing to confirm (lavapipe, other vendors), or not wanted: opaque matrices
    std::vector<float> out;
    std::string report;
    if (d.open() != TRIDENT_SUCCESS) {
      report = std::string("the device does not open: ") + sdk::lastError() + "\n";
    } else if (runProbe(d, *probe, out) != TRIDENT_SUCCESS) {
      report = std::string("the probe did not run: ") + sdk::lastError() + "\n";
    } else {
      std::vector<CoopMatrixShape> confirmed = spirv::confirmCoopLayouts(*probe, candidates, out, report);
      bool all = report.empty();
      if (all) {
        p.info.coopShapes = confirmed;
        p.info.features |= spirv::kCoopMatrixNvidiaLayouts;
      }
      p.coopProbeResult = all ? 1 : -1;
    }
    if (d.device) { // the probe's own opening (the VkDevice lives until shutdown)
      std::lock_guard lock(d.mutex);
      d.openCount--;
    }
    if (p.coopProbeResult != 1) {
      p.coopProbeResult = -1;
      std::fprintf(stderr,
                   "trident vulkan: the cooperative-matrix layouts of NVIDIA's driver are not confirmed on %s; its "
                   "cooperative matrices stay opaque (through shared memory):\n%s",
                   d.name.c_str(), report.c_str());
    }
  });
}

} // namespace trident::vulkan

// Test-only: 0 when vulkan device `ordinal` has no cooperative-matrix layouts to probe (or
// the probe has not run), 1 when its probe confirmed them, -1 when it did not.
extern "C" TRIDENT_PLUGIN_EXPORT int trident_vulkan_coop_probe_result(trident_context ctx, uint32_t ordinal) {
  if (!ctx || ordinal >= ctx->devices.size())
    return 0;
  return ctx->devices[ordinal]->physical->coopProbeResult;
}
