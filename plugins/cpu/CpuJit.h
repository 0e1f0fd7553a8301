#pragma once
// Loading a CPU binary's object into the process: one LLVM ORC LLJIT per module,
// which links the object against the C library (printf, math functions) and against
// the few functions the plugin provides (assertions, bounds checks, bf16 conversions).

#include "CpuBinary.h"
#include "CpuCodeGen.h"

#include <memory>
#include <string>

namespace llvm::orc {
class LLJIT;
}

namespace trident::cpu {

class LoadedObject {
public:
  ~LoadedObject();
  // Links `object`; null with `why` set when LLVM cannot.
  static std::unique_ptr<LoadedObject> load(const std::string &object, std::string &why);
  // The entry of `kernel` (CpuCodeGen.h), or null with `why` set.
  EntryFunction entry(const std::string &kernel, std::string &why);

private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

// The first assertion that failed on this thread since the last call, then cleared
// (empty when none failed).
std::string takeAssertFailure();

} // namespace trident::cpu
