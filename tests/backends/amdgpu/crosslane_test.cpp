// Cross-lane operations, shared memory and math as each architecture does them,
// read back from the disassembly and the optimized LLVM IR:
//  - a reduction's butterfly (th.shuffle xor 1, 2, 4 ... ) uses DPP quad_perm and
//    row_ror, ds_swizzle within 32 lanes and ds_bpermute across a wave64 on gfx9;
//    DPP quad_perm and row_xmask within 16 lanes and v_permlanex16 across the two rows
//    of a wave32 on gfx11 (LLVM's disassembler decodes each control independently);
//  - a scan's shifts (th.shuffle up) use ds_bpermute;
//  - math functions come from ocml, linked and internalized, with the oclc controls folded.
#include "CodeObject.h"
#include "TestKernels.h"
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

using namespace trident;
using amdtest::kScan;
using amdtest::kSum;

namespace {

// Every math function the backend takes from ocml, on f32 and f64.
const char *kMath = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "math_kernel"} ({
  ^(%in: ptr<f32>, %out: ptr<f32>, %in64: ptr<f64>, %out64: ptr<f64>):
    %r = tt.make_range {end = 256, start = 0} : block<256xi32>
    %ps = tt.splat %in : block<256xptr<f32>>
    %p = tt.addptr %ps, %r : block<256xptr<f32>>
    %x = tt.load %p : block<256xf32>
    %e = math.exp %x : block<256xf32>
    %e2 = math.exp2 %e : block<256xf32>
    %l = math.log %e2 : block<256xf32>
    %l2 = math.log2 %l : block<256xf32>
    %s = math.sin %l2 : block<256xf32>
    %c = math.cos %s : block<256xf32>
    %q = math.sqrt %c : block<256xf32>
    %rq = math.rsqrt %q : block<256xf32>
    %er = math.erf %rq : block<256xf32>
    %qs = tt.splat %out : block<256xptr<f32>>
    %qp = tt.addptr %qs, %r : block<256xptr<f32>>
    tt.store %qp, %er
    %ps64 = tt.splat %in64 : block<256xptr<f64>>
    %p64 = tt.addptr %ps64, %r : block<256xptr<f64>>
    %y = tt.load %p64 : block<256xf64>
    %ye = math.exp %y : block<256xf64>
    %ys = math.sin %ye : block<256xf64>
    %yl = math.log %ys : block<256xf64>
    %os64 = tt.splat %out64 : block<256xptr<f64>>
    %o64 = tt.addptr %os64, %r : block<256xptr<f64>>
    tt.store %o64, %yl
    tt.return
  })
}))";

Module parse(const char *text, const char *name) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, name, diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  REQUIRE(verify(*m, diags));
  return std::move(*m);
}

bool has(const std::string &text, const std::string &what) { return text.find(what) != std::string::npos; }

} // namespace

TEST_CASE("a reduction's butterfly uses each architecture's cross-lane instructions") {
  Module m = parse(kSum, "sum.ttir");
  for (std::string_view a : amdgpu::supportedArchitectures()) {
    std::string arch(a);
    amdtest::CodeObjectView view = amdtest::checkCodeObject(m, arch, "sum_kernel");
    const std::string &d = view.disassembly;
    INFO(arch << "\n" << d);
    // xor 1 and xor 2: DPP quad permutations, on every architecture.
    CHECK(has(d, "quad_perm:[1,0,3,2]"));
    CHECK(has(d, "quad_perm:[2,3,0,1]"));
    if (amdgpu::wavefrontSize(arch) == 64) {
      CHECK(has(d, "ds_swizzle_b32"));
      CHECK(has(d, "offset:swizzle(SWAP,4)"));  // xor 4
      CHECK(has(d, "row_ror:8"));               // xor 8: rotating a row of 16 by 8
      CHECK(has(d, "offset:swizzle(SWAP,16)")); // xor 16
      CHECK(has(d, "ds_bpermute_b32"));         // xor 32: across the halves of the wave
      CHECK_FALSE(has(d, "row_xmask"));
      CHECK_FALSE(has(d, "v_permlane"));
    } else {
      CHECK(has(d, "row_xmask:4"));
      CHECK(has(d, "row_xmask:8"));
      CHECK(has(d, "v_permlanex16_b32")); // xor 16: lane i of the other row
      CHECK(has(d, "0xfedcba98"));
      CHECK_FALSE(has(d, "ds_swizzle"));
      CHECK_FALSE(has(d, "ds_bpermute"));
    }
    // Partial sums of the warps meet in LDS, behind a barrier.
    CHECK(has(d, "s_barrier"));
    CHECK((has(d, "ds_write") || has(d, "ds_store")));
    CHECK((has(d, "ds_read") || has(d, "ds_load")));
  }
}

TEST_CASE("a scan's shifts move values between lanes with ds_bpermute") {
  Module m = parse(kScan, "scan.ttir");
  for (std::string_view a : amdgpu::supportedArchitectures()) {
    std::string arch(a);
    amdtest::CodeObjectView view = amdtest::checkCodeObject(m, arch, "scan_kernel");
    INFO(arch << "\n" << view.disassembly);
    CHECK(has(view.disassembly, "ds_bpermute_b32"));
  }
}

TEST_CASE("math functions come from ocml, linked and internalized, with the oclc controls folded") {
  Module m = parse(kMath, "math.ttir");
  for (std::string_view a : amdgpu::supportedArchitectures()) {
    std::string arch(a);
    amdtest::CodeObjectView view = amdtest::checkCodeObject(m, arch, "math_kernel");
    Diagnostics diags;
    std::string llvm = amdgpu::emitLLVM(m, *amdgpu::targetDesc(arch), {}, diags);
    INFO(arch << "\n" << diags.str());
    REQUIRE(!llvm.empty());
    // Nothing is left to resolve, and only the kernel is visible.
    CHECK_FALSE(has(llvm, "declare float @__ocml"));
    CHECK_FALSE(has(llvm, "declare double @__ocml"));
    CHECK_FALSE(has(llvm, "@__oclc_"));
    CHECK(has(llvm, "define amdgpu_kernel void @math_kernel"));
    // Four wavefronts per program (Triton's default), as the kernel attribute says.
    std::string threads = std::to_string(4 * amdgpu::wavefrontSize(arch));
    CHECK(has(llvm, "\"amdgpu-flat-work-group-size\"=\"1," + threads + "\""));
    CHECK(has(llvm, "\"uniform-work-group-size\"=\"true\""));
    // The hardware's transcendental instructions, under ocml's range reduction.
    CHECK(has(view.disassembly, "v_exp_f32"));
    CHECK(has(view.disassembly, "v_log_f32"));
    CHECK(has(view.disassembly, "v_rsq_f32"));
    CHECK(has(view.disassembly, "v_fma_f64"));
  }
}

TEST_CASE("unsupported targets and missing device libraries are diagnosed") {
  Module m = parse(kMath, "math.ttir");
  TargetDesc other = *amdgpu::targetDesc("gfx942");
  other.name = "hip:gfx908";
  Diagnostics diags;
  CHECK(amdgpu::compileToHSACO(m, other, {}, diags).empty());
  CHECK(has(diags.str(), "'hip:gfx908' is not an AMD target this backend supports"));

  ::setenv("TRIDENT_ROCM_DEVICE_LIBS", "/nonexistent", 1);
  Diagnostics missing;
  CHECK(amdgpu::compileToHSACO(m, *amdgpu::targetDesc("gfx90a"), {}, missing).empty());
  ::unsetenv("TRIDENT_ROCM_DEVICE_LIBS");
  INFO(missing.str());
  CHECK(has(missing.str(), "ROCm device library"));
  // Kernels without math need no device libraries at all.
  ::setenv("TRIDENT_ROCM_DEVICE_LIBS", "/nonexistent", 1);
  Diagnostics none;
  std::string hsaco =
      amdgpu::compileToHSACO(parse(kSum, "sum.ttir"), *amdgpu::targetDesc("gfx90a"), {}, none);
  ::unsetenv("TRIDENT_ROCM_DEVICE_LIBS");
  INFO(none.str());
  CHECK(!hsaco.empty());
}
