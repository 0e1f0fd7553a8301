// The SPIR-V backend on thread IR text: every tt.func of a module that parses and
// passes both verifiers is translated for the generic Vulkan device and validated by
// SPIRV-Tools. The backend may refuse a construct with a diagnostic; SPIR-V that fails
// validation ("internal error") is a backend bug.
#include "FuzzTargets.h"

#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"
#include "trident/simt/VerifyThreadIR.h"

#include <string>

namespace trident::fuzz {

void fuzzSpirv(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "fuzz.tir", diags);
  if (!m || !verify(*m, diags) || !simt::verifyThreadIR(*m, diags))
    return;
  static const spirv::DeviceInfo device = spirv::genericDevice();
  std::vector<std::string> kernels;
  for (Op *op : m->functions())
    if (spirv::isThreadIR(op) && op->attr("sym_name").isString())
      kernels.push_back(op->stringAttr("sym_name"));
  for (const std::string &k : kernels) {
    Diagnostics kd;
    if (!spirv::compileToSpirv(*m, k, device, {}, kd))
      for (const Diagnostic &d : kd.list())
        if (d.message.rfind("internal error", 0) == 0)
          fuzzFailure(kd.str());
  }
}

} // namespace trident::fuzz
