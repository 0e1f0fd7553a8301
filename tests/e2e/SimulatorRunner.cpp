// The thread-IR simulator as one more device: the kernel lowered by the SIMT pipeline
// for an NVIDIA target (warps of 32, the runtime's default warp count) and run thread
// by thread in tests/core/simt/ThreadSim. It tests on any machine the thread IR that
// CUDA devices run, so a wrong lowering is found and shrunk (--reduce sim:sm_90)
// without a GPU; a kernel that then fails only on the GPU points at the LLVM/PTX side.
// "sim:gfx942" / "sim:gfx90a" / "sim:gfx1100" run the AMD lowering (wave64 or wave32,
// MFMA/WMMA dots) the same way, where the AMDGPU backend is built.

#include "DeviceRunner.h"

#include "../core/simt/ThreadSim.h"
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#if TRIDENT_E2E_HAS_SPIRV
#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Target.h"
#endif
#ifdef TRIDENT_E2E_AMDGPU
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#endif

namespace trident::e2e {

namespace {

class SimulatorRunner final : public DeviceRunner {
public:
  explicit SimulatorRunner(std::string arch) : arch_(std::move(arch)), name_("sim:" + arch_) {}
  const std::string &name() const override { return name_; }

  RunResult run(const RandomKernel &k, const std::string &) override {
    RunResult result;
    Diagnostics diags;
    std::optional<TargetDesc> target;
    std::optional<Module> threadIR;
#if TRIDENT_E2E_HAS_SPIRV
    // "sim:vulkan:nvidia": the Vulkan lowering of a compile-only profile (cooperative
    // matrices included, which the simulator runs tile by tile).
    if (std::optional<spirv::DeviceInfo> device = spirv::profileDevice(arch_)) {
      target = spirv::targetDesc(*device);
      spirv::SpirvOptions options;
      threadIR = spirv::lowerToThreadIR(k.module, *device, options, diags);
      if (!threadIR) {
        result.error = diags.str();
        return result;
      }
    }
#endif
#ifdef TRIDENT_E2E_AMDGPU
    if (!target && (target = amdgpu::targetDesc(arch_))) {
      amdgpu::HSACOOptions options;
      options.kernel = k.name;
      threadIR = amdgpu::lowerToThreadIR(k.module, *target, options, diags);
    }
#endif
    if (!target) {
      target = nvptx::targetDesc(arch_);
      if (!target) {
        result.error = "unknown NVIDIA or AMD architecture '" + arch_ + "'";
        return result;
      }
      nvptx::PTXOptions options;
      options.kernel = k.name;
      threadIR = nvptx::lowerToThreadIR(k.module, *target, options, diags);
    }
    if (!threadIR) {
      result.error = diags.str();
      return result;
    }
    simt::test::ThreadSim sim(target->warpSize, target->matrixAtoms);
    sim.setCoopMatrices(target->coopMatrices);
    result.buffers.resize(k.args.size());
    std::vector<uint64_t> args;
    for (size_t i = 0; i < k.args.size(); ++i) {
      const ArgSpec &a = k.args[i];
      if (a.kind == ArgSpec::Kind::Scalar) {
        args.push_back(a.bits);
        continue;
      }
      std::vector<uint8_t> &bytes = result.buffers[i];
      bytes = a.init;
      sim.addBuffer(bytes.data(), bytes.size());
      args.push_back(reinterpret_cast<uint64_t>(bytes.data()));
    }
    result.ok = sim.run(*threadIR, k.name, args, k.grid, result.error);
    return result;
  }

private:
  std::string arch_, name_;
};

} // namespace

std::unique_ptr<DeviceRunner> makeSimulatorRunner(const std::string &arch) {
  return std::make_unique<SimulatorRunner>(arch);
}

} // namespace trident::e2e
