#pragma once
// Something that runs a random kernel and hands back its buffers: the reference
// interpreter, or a device of the runtime. The differential harness (Differential.h)
// runs one kernel on several and compares.

#include "RandomKernel.h"

#include <memory>
#include <string>
#include <vector>

namespace trident {
class Device;
class Runtime;
} // namespace trident

namespace trident::e2e {

// What one run left in the kernel's buffers.
struct RunResult {
  bool ok = false;
  std::string error;                         // why the run failed
  std::vector<std::vector<uint8_t>> buffers; // per argument (empty for scalars)
  bool compiledOnly = false;                 // nothing ran: there is nothing to compare
};

class DeviceRunner {
public:
  virtual ~DeviceRunner() = default;
  // "interpreter", "host:0", "cuda:0" ...
  virtual const std::string &name() const = 0;
  // Runs `kernel` (whose module prints as `ir`) on fresh copies of its arguments'
  // initial contents.
  virtual RunResult run(const RandomKernel &kernel, const std::string &ir) = 0;
};

// core's Interpreter on the kernel's module itself: the reference.
std::unique_ptr<DeviceRunner> makeInterpreterRunner();
// A device of the runtime: the printed block IR through Kernel::fromBlockIR, buffers
// through Buffer, one launch on the device's default stream.
std::unique_ptr<DeviceRunner> makeRuntimeRunner(const Device &device);
// Compiles for a target through the runtime's plugins without running anything
// ("cuda:sm_90" needs no GPU): catches compiler crashes and errors on any machine.
std::unique_ptr<DeviceRunner> makeCompileRunner(const Runtime &runtime, const std::string &target);
// The SIMT lowering for NVIDIA architecture `arch` ("sm_90") run in the thread-IR
// simulator ("sim:sm_90"); null when this build has no NVPTX backend.
std::unique_ptr<DeviceRunner> makeSimulatorRunner(const std::string &arch);

} // namespace trident::e2e
