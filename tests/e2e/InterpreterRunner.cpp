// The reference runner: core's Interpreter, with every buffer registered so that an
// access outside them is an error rather than a silent read.

#include "DeviceRunner.h"

#include "trident/interp/Interpreter.h"

namespace trident::e2e {

namespace {

class InterpreterRunner final : public DeviceRunner {
public:
  const std::string &name() const override { return name_; }

  RunResult run(const RandomKernel &k, const std::string &) override {
    RunResult result;
    result.buffers.resize(k.args.size());
    Interpreter interp;
    std::vector<KernelArg> args;
    for (size_t i = 0; i < k.args.size(); ++i) {
      const ArgSpec &a = k.args[i];
      if (a.kind == ArgSpec::Kind::Scalar) {
        args.push_back(KernelArg{a.element, a.bits});
        continue;
      }
      std::vector<uint8_t> &bytes = result.buffers[i];
      bytes = a.init;
      interp.addBuffer(bytes.data(), bytes.size(), a.name);
      args.push_back(KernelArg::pointer(bytes.data(), a.element));
    }
    Diagnostics diags;
    result.ok = interp.run(k.module, k.name, args, k.grid, diags);
    if (!result.ok)
      result.error = diags.str();
    return result;
  }

private:
  std::string name_ = "interpreter";
};

} // namespace

std::unique_ptr<DeviceRunner> makeInterpreterRunner() { return std::make_unique<InterpreterRunner>(); }

} // namespace trident::e2e
