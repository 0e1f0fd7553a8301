// A runtime device as a runner: the kernel goes through the public API exactly as a
// user's block IR would (Kernel::fromBlockIR, Buffer, Kernel::launch), so the
// runtime's passes, the plugin ABI and the plugin's compiler all take part.

#include "DeviceRunner.h"

#include "trident/Trident.h"
#include "trident/support/FloatFormats.h"

#include <bit>

namespace trident::e2e {

namespace {

DType dtypeOf(Type e) {
  switch (e.kind()) {
  case TypeKind::I1: return DType::I1;
  case TypeKind::I8: return DType::I8;
  case TypeKind::I16: return DType::I16;
  case TypeKind::I32: return DType::I32;
  case TypeKind::I64: return DType::I64;
  case TypeKind::F16: return DType::F16;
  case TypeKind::BF16: return DType::BF16;
  case TypeKind::F32: return DType::F32;
  case TypeKind::F64: return DType::F64;
  case TypeKind::F8E4M3: return DType::F8E4M3;
  default: return DType::F8E5M2;
  }
}

// The launch argument for a scalar: the C++ type that packs as the parameter's type.
Arg scalarArg(const ArgSpec &a) {
  switch (a.element.kind()) {
  case TypeKind::I1: return Arg(a.bits != 0);
  case TypeKind::I8: return Arg(int8_t(a.bits));
  case TypeKind::I16: return Arg(int16_t(a.bits));
  case TypeKind::I32: return Arg(int32_t(a.bits));
  case TypeKind::I64: return Arg(int64_t(a.bits));
  case TypeKind::F16: return Arg::f16(f16ToFloat(uint16_t(a.bits)));
  case TypeKind::BF16: return Arg::bf16(bf16ToFloat(uint16_t(a.bits)));
  case TypeKind::F32: return Arg(std::bit_cast<float>(uint32_t(a.bits)));
  default: return Arg(std::bit_cast<double>(a.bits));
  }
}

class RuntimeRunner final : public DeviceRunner {
public:
  explicit RuntimeRunner(const Device &device) : device_(device), name_(device.name()) {}
  const std::string &name() const override { return name_; }

  RunResult run(const RandomKernel &k, const std::string &ir) override {
    RunResult result;
    result.buffers.resize(k.args.size());
    try {
      Kernel kernel = Kernel::fromBlockIR(ir, k.name);
      std::vector<Buffer> buffers(k.args.size());
      std::vector<Arg> args;
      args.reserve(k.args.size());
      for (size_t i = 0; i < k.args.size(); ++i) {
        const ArgSpec &a = k.args[i];
        if (a.kind == ArgSpec::Kind::Scalar) {
          args.push_back(scalarArg(a));
          continue;
        }
        buffers[i] = Buffer(device_, a.count, dtypeOf(a.element));
        buffers[i].copyFromHost(a.init.data(), a.init.size());
        args.push_back(Arg(buffers[i]));
      }
      kernel.launch(device_.defaultStream(), Grid(k.grid[0], k.grid[1], k.grid[2]), std::span<const Arg>(args));
      device_.synchronize();
      for (size_t i = 0; i < k.args.size(); ++i)
        if (buffers[i]) {
          result.buffers[i].resize(k.args[i].init.size());
          buffers[i].copyToHost(result.buffers[i].data(), result.buffers[i].size());
        }
      result.ok = true;
    } catch (const Error &e) {
      result.error = std::string(errorCodeName(e.code())) + ": " + e.what();
    }
    return result;
  }

private:
  Device device_;
  std::string name_;
};

class CompileRunner final : public DeviceRunner {
public:
  CompileRunner(const Runtime &runtime, std::string target)
      : runtime_(runtime), target_(std::move(target)), name_("compile:" + target_) {}
  const std::string &name() const override { return name_; }

  RunResult run(const RandomKernel &k, const std::string &ir) override {
    RunResult result;
    result.compiledOnly = true;
    try {
      ArtifactRequest request;
      request.target = target_;
      Artifact a = compileArtifact(runtime_, ir, k.name, request);
      result.ok = !a.bytes.empty();
      if (!result.ok)
        result.error = "the compiler produced nothing";
    } catch (const Error &e) {
      result.error = std::string(errorCodeName(e.code())) + ": " + e.what();
    }
    return result;
  }

private:
  const Runtime &runtime_;
  std::string target_, name_;
};

} // namespace

std::unique_ptr<DeviceRunner> makeCompileRunner(const Runtime &runtime, const std::string &target) {
  return std::make_unique<CompileRunner>(runtime, target);
}

#ifdef TRIDENT_E2E_NO_SIMULATOR
std::unique_ptr<DeviceRunner> makeSimulatorRunner(const std::string &) { return nullptr; }
#endif

std::unique_ptr<DeviceRunner> makeRuntimeRunner(const Device &device) {
  return std::make_unique<RuntimeRunner>(device);
}

} // namespace trident::e2e
