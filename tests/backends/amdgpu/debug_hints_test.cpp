// AMDGPU (256 elements over 4 waves of 64: one f32 per lane): cache hints that mean "use once" become !nontemporal (cv loads volatile),
// a failed tt.assert traps, and tt.print is refused with a diagnostic (no device printf
// without the device libraries).
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <string>

using namespace trident;

namespace {

std::string copyKernel(const std::string &loadAttrs, const std::string &storeAttrs, const std::string &extra = "") {
  return R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16], sym_name = "k"} ({
  ^(%out: ptr<f32>, %in: ptr<f32>, %n: i32):
    %i = tt.make_range {end = 256, start = 0} : block<256xi32>
    %ins = tt.splat %in : block<256xptr<f32>>
    %inp = tt.addptr %ins, %i : block<256xptr<f32>>
    %x = tt.load %inp )" + loadAttrs + R"( : block<256xf32>
    %outs = tt.splat %out : block<256xptr<f32>>
    %outp = tt.addptr %outs, %i : block<256xptr<f32>>
    tt.store %outp, %x )" + storeAttrs + "\n" + extra + R"(
    tt.return
  })
}))";
}

std::string llvmIR(const std::string &text, Diagnostics &diags) {
  std::optional<Module> m = parseModule(text, "k.ttir", diags);
  if (!m || !verify(*m, diags))
    return {};
  return amdgpu::emitLLVM(*m, *amdgpu::targetDesc("gfx942"), {}, diags);
}

} // namespace

TEST_CASE("amdgpu: streaming cache hints become nontemporal accesses, cv loads volatile") {
  Diagnostics diags;
  std::string ir = llvmIR(copyKernel(R"({eviction = "evict_first"})", R"({cache = "cs"})"), diags);
  INFO(diags.str() << ir);
  REQUIRE(!ir.empty());
  CHECK(ir.find("load float, ptr addrspace(1)") != std::string::npos);
  CHECK(ir.find("!nontemporal") != std::string::npos);
  size_t loadAt = ir.find("= load float, ptr addrspace(1)"), storeAt = ir.find("store float");
  REQUIRE(loadAt != std::string::npos);
  REQUIRE(storeAt != std::string::npos);
  CHECK(ir.substr(loadAt, ir.find('\n', loadAt) - loadAt).find("!nontemporal") != std::string::npos);
  CHECK(ir.substr(storeAt, ir.find('\n', storeAt) - storeAt).find("!nontemporal") != std::string::npos);

  std::string volatileIR = llvmIR(copyKernel(R"({cache = "cv"})", R"({cache = "wt"})"), diags);
  CHECK(volatileIR.find("load volatile float") != std::string::npos);
  CHECK(volatileIR.find("!nontemporal") == std::string::npos);

  std::string plain = llvmIR(copyKernel("", ""), diags);
  CHECK(plain.find("!nontemporal") == std::string::npos);
  CHECK(plain.find("volatile") == std::string::npos);
}

TEST_CASE("amdgpu: a failed tt.assert traps; tt.print is refused by name") {
  const std::string check = R"(    %zero = arith.constant {value = 0.0} : block<256xf32>
    %ok = arith.cmpf %x, %zero {predicate = "oge"} : block<256xi1>
    tt.assert %ok {message = "negative"})";
  Diagnostics diags;
  std::string ir = llvmIR(copyKernel("", "", check), diags);
  INFO(diags.str() << ir);
  REQUIRE(!ir.empty());
  CHECK(ir.find("call void @llvm.trap()") != std::string::npos);
  std::optional<Module> m = parseModule(copyKernel("", "", check), "k.ttir", diags);
  REQUIRE(m.has_value());
  std::string assembly = amdgpu::emitAssembly(*m, *amdgpu::targetDesc("gfx942"), {}, diags);
  INFO(diags.str());
  CHECK(assembly.find("s_trap 2") != std::string::npos);

  Diagnostics printDiags;
  std::string printed = llvmIR(copyKernel("", "", R"(    tt.print %x {hex = false, prefix = "x="})"), printDiags);
  CHECK(printed.empty());
  CHECK(!printDiags.empty());
  CHECK(printDiags.str().find("tt.print") != std::string::npos);
  CHECK(printDiags.str().find("amdgcn") != std::string::npos);
}
